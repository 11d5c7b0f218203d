// Every fused multiply-add counts 2 FLOPs: fmaf, __fmaf_rn, double fma, and a
// contracted a*b+c (clang CUDA defaults to -ffp-contract=fast; whether it stays
// fmul+fadd in IR or becomes one fma, it is 2 FLOPs). Launch 2 x 64 = 128
// threads, n = 100 pass.
//
// RUN: %hroof-static %s --grid 2 --block 64 --arg n=100 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// fmaf (2) + __fmaf_rn (2) + a*b+c (2) = 6 f32 FLOPs; loads a, b, c (12 B),
// stores y (4 B).
__global__ void fma_f32(int n, const float *__restrict__ a,
                        const float *__restrict__ b, const float *__restrict__ c,
                        float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float u = fmaf(a[i], b[i], c[i]);
    float v = __fmaf_rn(u, b[i], a[i]);
    y[i] = v * c[i] + u;
  }
}

// fma (double, 2) + __fma_rn (2) = 4 f64 FLOPs; loads 3 doubles (24 B),
// stores 8 B.
__global__ void fma_f64(int n, const double *__restrict__ a,
                        const double *__restrict__ b,
                        const double *__restrict__ c, double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __fma_rn(fma(a[i], b[i], c[i]), b[i], a[i]);
}

// fma_f32: 100 * 6 = 600 FLOPs, 1200 B load, 400 B store.
// CHECK-LABEL: kernel fma_f32(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=1200
// CHECK-NEXT: bytes.global.store=400
// CHECK-NEXT: flops.f32=600
// CHECK-NEXT: end
// fma_f64: 100 * 4 = 400 f64 FLOPs, 2400 B load, 800 B store.
// CHECK-LABEL: kernel fma_f64(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=2400
// CHECK-NEXT: bytes.global.store=800
// CHECK-NEXT: flops.f64=400
// CHECK-NEXT: end
