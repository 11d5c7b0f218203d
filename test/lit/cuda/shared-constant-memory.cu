// Shared (__shared__) and constant (__constant__) memory spaces. Launch
// 5 x 96 = 480 threads; n = 450 elements.
//
// RUN: %hroof-static %s --grid 5 --block 96 --arg n=450 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

__constant__ float coef[8];

__global__ void shconst(int n, const float *__restrict__ x,
                        float *__restrict__ y) {
  __shared__ float tile[96];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // every thread stores 4 B to shared; only i < n load x (4 B global)
  float v = 0.0f;
  if (i < n)
    v = x[i];
  tile[threadIdx.x] = v;
  __syncthreads();
  // i < n: 4 B shared load, 4 B constant load, 1 fmul, 4 B global store
  if (i < n)
    y[i] = tile[95 - threadIdx.x] * coef[threadIdx.x & 7];
}

//   global load 450*4 = 1800, global store 1800, shared store 480*4 = 1920,
//   shared load 1800, constant load 1800, f32 FLOPs 450.
// CHECK-LABEL: kernel shconst(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.constant.load=1800
// CHECK-NEXT: bytes.global.load=1800
// CHECK-NEXT: bytes.global.store=1800
// CHECK-NEXT: bytes.shared.load=1800
// CHECK-NEXT: bytes.shared.store=1920
// CHECK-NEXT: flops.f32=450
// CHECK-NEXT: end
