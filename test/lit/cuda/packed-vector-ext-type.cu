// Packed <2 x half> / <2 x bfloat> IR vectors (clang ext_vector_type) count
// FLOPs per lane. (cuda_fp16.h's __half2 goes through inline PTX instead: see
// half2-bf162-packed.cu.) Launch 3 x 50 = 150 threads, n = 131 pass.
//
// RUN: %hroof-static %s --grid 3 --block 50 --arg n=131 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

typedef _Float16 h2v __attribute__((ext_vector_type(2)));
typedef __bf16 b2v __attribute__((ext_vector_type(2)));

// x*x + y: fmul <2 x half> + fadd <2 x half> = 2 ops x 2 lanes = 4 f16 FLOPs;
// loads x, y (4 B each), store y (4 B).
__global__ void h2k(int n, const h2v *__restrict__ x, h2v *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i] + y[i];
}

// Same on bfloat: clang computes in <2 x float> (fpext, fmul, fadd, fptrunc):
// 4 f32 FLOPs, 2 fpext x 2 lanes = 4 other.bf16, 1 fptrunc x 2 lanes =
// 2 other.f32.
__global__ void b2k(int n, const b2v *__restrict__ x, b2v *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * x[i] + y[i];
}

// h2k x 131: 524 f16 FLOPs, 1048 B load, 524 B store.
// CHECK-LABEL: kernel h2k(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=1048
// CHECK-NEXT: bytes.global.store=524
// CHECK-NEXT: flops.f16=524
// CHECK-NEXT: end
// b2k x 131: 524 f32 FLOPs, 524 other.bf16, 262 other.f32.
// CHECK-LABEL: kernel b2k(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=1048
// CHECK-NEXT: bytes.global.store=524
// CHECK-NEXT: flops.f32=524
// CHECK-NEXT: other.bf16=524
// CHECK-NEXT: other.f32=262
// CHECK-NEXT: end
