// Scalar FLOPs by precision with the compiler's native types: double, _Float16
// (IR `half`) and __bf16 (IR `bfloat`). Clang evaluates __bf16 arithmetic in
// float (excess precision): the IR is fpext bfloat->float, float ops, fptrunc,
// so those FLOPs are f32 and the two conversions are `other` (keyed by their
// source type: fpext under bf16, fptrunc under f32). The cuda_fp16.h/__half
// versions are in cuda-fp16-bf16-header-scalar.cu. Launch 3 x 50 = 150
// threads, n = 131 pass.
//
// RUN: %hroof-static %s --grid 3 --block 50 --arg n=131 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// x*x + 1.0 -> fma: 2 f64 FLOPs; 8 B load, 8 B store.
__global__ void f64k(int n, const double *__restrict__ x, double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i] + 1.0;
}

// (x + 1) * x: fadd half + fmul half = 2 f16 FLOPs; 2 B load, 2 B store.
__global__ void f16k(int n, const _Float16 *__restrict__ x,
                     _Float16 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = (x[i] + (_Float16)1.0f) * x[i];
}

// (x + 1) * x in float: 2 f32 FLOPs, 1 fpext (other.bf16), 1 fptrunc
// (other.f32); 2 B load, 2 B store.
__global__ void bf16k(int n, const __bf16 *__restrict__ x, __bf16 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = (x[i] + (__bf16)1.0f) * x[i];
}

// f64k x 131: 262 f64 FLOPs, 1048 B each way.
// CHECK-LABEL: kernel f64k(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=1048
// CHECK-NEXT: bytes.global.store=1048
// CHECK-NEXT: flops.f64=262
// CHECK-NEXT: end
// f16k x 131: 262 f16 FLOPs, 262 B each way.
// CHECK-LABEL: kernel f16k(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=262
// CHECK-NEXT: bytes.global.store=262
// CHECK-NEXT: flops.f16=262
// CHECK-NEXT: end
// bf16k x 131: 262 f32 FLOPs, 131 other.bf16, 131 other.f32, 262 B each way.
// CHECK-LABEL: kernel bf16k(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=262
// CHECK-NEXT: bytes.global.store=262
// CHECK-NEXT: flops.f32=262
// CHECK-NEXT: other.bf16=131
// CHECK-NEXT: other.f32=131
// CHECK-NEXT: end
