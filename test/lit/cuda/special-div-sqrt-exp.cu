// div, sqrt, rsqrt and transcendentals are counted apart under `special`, not
// as FLOPs. libdevice functions are inlined before the pass, so expf shows up
// as its expansion (fma/fadd/fmul FLOPs, saturate/fneg as `other`) plus one
// ex2.approx (special transcendental). Expectations follow the -O2 IR of
//   clang++-22 -O2 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -S -emit-llvm
// Launch 3 x 50 = 150 threads, n = 131 pass.
//
// RUN: %hroof-static %s --grid 3 --block 50 --arg n=131 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// IR per thread: fdiv (div), nvvm.sqrt.approx.f (sqrt), nvvm.rsqrt.approx.f
// (rsqrt), __expf = fmul by log2(e) (1 FLOP) + nvvm.ex2.approx.f32
// (transcendental), and 3 fadd: 4 FLOPs. Loads x, z (8 B), store y (4 B).
__global__ void sp_f32(int n, const float *__restrict__ x,
                       const float *__restrict__ z, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] / z[i] + sqrtf(x[i]) + rsqrtf(z[i]) + __expf(x[i]);
}

// expf (libdevice __nv_expf, inlined): fma (2), nvvm.saturate.f (other),
// nvvm.fma.rm.f (2), fadd (1), fneg (other), fma (2), fma (2),
// nvvm.ex2.approx.ftz.f32 (transcendental), fmul (1):
// 10 FLOPs, 2 other, 1 transcendental. Load 4 B, store 4 B.
__global__ void sp_exp(int n, const float *__restrict__ x,
                       float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = expf(x[i]);
}

// f64: fdiv 1.0/x (a reciprocal: rcp), llvm.sqrt.f64 (sqrt), one fadd (1 f64 FLOP).
// Load 8 B, store 8 B.
__global__ void sp_f64(int n, const double *__restrict__ x,
                       double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 1.0 / x[i] + sqrt(x[i]);
}

// sp_f32 x 131: 524 FLOPs; 131 each of div, rsqrt, sqrt, transcendental;
// 1048 B load, 524 B store.
// CHECK-LABEL: kernel sp_f32(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=1048
// CHECK-NEXT: bytes.global.store=524
// CHECK-NEXT: flops.f32=524
// CHECK-NEXT: special.f32.div=131
// CHECK-NEXT: special.f32.rsqrt=131
// CHECK-NEXT: special.f32.sqrt=131
// CHECK-NEXT: special.f32.transcendental=131
// CHECK-NEXT: end
// sp_exp x 131: 1310 FLOPs, 262 other, 131 transcendental, 524 B each way.
// CHECK-LABEL: kernel sp_exp(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=524
// CHECK-NEXT: bytes.global.store=524
// CHECK-NEXT: flops.f32=1310
// CHECK-NEXT: other.f32=262
// CHECK-NEXT: special.f32.transcendental=131
// CHECK-NEXT: end
// sp_f64 x 131: 131 f64 FLOPs, 131 rcp, 131 sqrt, 1048 B each way.
// CHECK-LABEL: kernel sp_f64(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=1048
// CHECK-NEXT: bytes.global.store=1048
// CHECK-NEXT: flops.f64=131
// CHECK-NEXT: special.f64.rcp=131
// CHECK-NEXT: special.f64.sqrt=131
// CHECK-NEXT: end
