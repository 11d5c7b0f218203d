// Loops whose trip count is a kernel argument. Launch 2 x 256 = 512 threads,
// n = 500 pass the guard.
//
// RUN: %hroof-static %s --grid 2 --block 256 --arg n=500 --arg m=37 --arg lo=2 --arg hi=30 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// Zero-trip and negative bounds: the loop bodies count 0.
// RUN: %hroof-static %s --grid 2 --block 256 --arg n=500 --arg m=0 --arg lo=30 --arg hi=2 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=ZERO

// m iterations of acc += a[k*n+i] * b[k]: one fma (2 FLOPs), 8 B loaded.
__global__ void dot_m(int n, int m, const float *__restrict__ a,
                      const float *__restrict__ b, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < m; ++k)
      acc += a[k * n + i] * b[k];
    y[i] = acc;
  }
}

// for (k = lo; k < hi; k += 3): ceil((hi - lo) / 3) iterations when hi > lo;
// each: one fmul (1 FLOP) and a 4 B load. No guard: all 512 threads run it.
__global__ void strided(int n, int lo, int hi, const float *__restrict__ a,
                        float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 1.0f;
  for (int k = lo; k < hi; k += 3)
    acc *= a[k * 512 + i];
  y[i] = acc;
}

// dot_m, m = 37: 500*37*2 = 37000 FLOPs, 500*37*8 = 148000 B load, 2000 B store.
// CHECK-LABEL: kernel dot_m(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=148000
// CHECK-NEXT: bytes.global.store=2000
// CHECK-NEXT: flops.f32=37000
// CHECK-NEXT: end
// strided, k = 2, 5, ..., 29: 10 iterations: 512*10 = 5120 FLOPs,
// 20480 B load, 512*4 = 2048 B store.
// CHECK-LABEL: kernel strided(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=20480
// CHECK-NEXT: bytes.global.store=2048
// CHECK-NEXT: flops.f32=5120
// CHECK-NEXT: end

// m = 0 and lo > hi: only the stores remain.
// ZERO-LABEL: kernel dot_m(
// ZERO-NEXT: exact=true
// ZERO-NEXT: bytes.global.store=2000
// ZERO-NEXT: end
// ZERO-LABEL: kernel strided(
// ZERO-NEXT: exact=true
// ZERO-NEXT: bytes.global.store=2048
// ZERO-NEXT: end
