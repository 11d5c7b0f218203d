// Calls to __noinline__ device functions: the callee's counts are added at
// every call site, with the callee's loop bound taken from the call's argument.
// Launch 3 x 160 = 480 threads, n = 421 pass.
//
// RUN: %hroof-static %s --grid 3 --block 160 --arg n=421 --arg len=9 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// a*b + a -> one fma: 2 FLOPs.
__device__ __noinline__ float mad_self(float a, float b) { return a * b + a; }

// len iterations of s += p[k] * p[k]: one fma (2 FLOPs) and a 4 B load each.
__device__ __noinline__ float sumsq(const float *p, int len) {
  float s = 0.0f;
  for (int k = 0; k < len; ++k)
    s += p[k] * p[k];
  return s;
}

// Two calls of mad_self (2 x 2 FLOPs) + one fadd = 5 FLOPs; loads x[i] and
// y[i] (8 B), stores y[i] (4 B).
__global__ void two_calls(int n, const float *__restrict__ x,
                          float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = mad_self(x[i], 2.0f) + mad_self(y[i], x[i]);
}

// One call of sumsq over len elements of global memory (the pointer comes from
// a kernel argument): 2*len FLOPs, 4*len B load; plus the 4 B store.
__global__ void call_with_loop(int n, int len, const float *__restrict__ x,
                               float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = sumsq(x + i * len, len);
}

// two_calls: 421*5 = 2105 FLOPs, 421*8 = 3368 B load, 421*4 = 1684 B store.
// CHECK-LABEL: kernel two_calls(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=3368
// CHECK-NEXT: bytes.global.store=1684
// CHECK-NEXT: flops.f32=2105
// CHECK-NEXT: end
// call_with_loop, len = 9: 421*18 = 7578 FLOPs, 421*36 = 15156 B load,
// 1684 B store.
// CHECK-LABEL: kernel call_with_loop(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=15156
// CHECK-NEXT: bytes.global.store=1684
// CHECK-NEXT: flops.f32=7578
// CHECK-NEXT: end
