// Loops with constant trip counts (possibly unrolled by the optimizer: the
// totals do not depend on how). Launch 3 x 128 = 384 threads, n = 300 pass.
//
// RUN: %hroof-static %s --grid 3 --block 128 --arg n=300 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// 100 iterations of acc += a[k*n + i]: an f32 reduction, not reassociable
// without fast-math, so exactly 100 fadd and 100 loads of 4 B per thread.
__global__ void const100(int n, const float *__restrict__ a,
                         float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < 100; ++k)
      acc += a[k * n + i];
    y[i] = acc;
  }
}

// Nested 7 x 5 constant loops with #pragma unroll 1 (kept as loops):
// 35 iterations of one fma (2 FLOPs) reading a[] (4 B) per thread.
__global__ void nested7x5(int n, const float *__restrict__ a,
                          float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 1.0f;
#pragma unroll 1
    for (int j = 0; j < 7; ++j)
#pragma unroll 1
      for (int k = 0; k < 5; ++k)
        acc = acc * 0.5f + a[(j * 5 + k) * n + i];
    y[i] = acc;
  }
}

// const100: 300 threads x 100 = 30000 FLOPs, 300*400 = 120000 B load,
// 300*4 = 1200 B store.
// CHECK-LABEL: kernel const100(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=120000
// CHECK-NEXT: bytes.global.store=1200
// CHECK-NEXT: flops.f32=30000
// CHECK-NEXT: end
// nested7x5: 300 x 35 x 2 = 21000 FLOPs, 300*35*4 = 42000 B load, 1200 B store.
// CHECK-LABEL: kernel nested7x5(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=42000
// CHECK-NEXT: bytes.global.store=1200
// CHECK-NEXT: flops.f32=21000
// CHECK-NEXT: end
