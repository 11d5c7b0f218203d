// Early return on the global index, then a branch on threadIdx.x: the two
// conditions are correlated (in the last, partial block fewer threads survive
// the early return), so a model that multiplied independent pass fractions
// would be wrong. Launch 3 x 100 = 300 threads, n = 215.
//
// RUN: %hroof-static %s --grid 3 --block 100 --arg n=215 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

__global__ void early(int n, const float *__restrict__ x, float *__restrict__ y,
                      float *__restrict__ z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  // every surviving thread: x[i] * 2 -> 1 fmul, 4 B load, 4 B store to y
  float v = x[i] * 2.0f;
  y[i] = v;
  // only the first warp of each block: one more fadd and a 4 B store to z
  if (threadIdx.x < 32)
    z[i] = v + 1.0f;
}

// Survivors: blocks 0 and 1 all 100, block 2 i = 200..214 -> 15: 215 threads.
// tid < 32 among survivors: 32 + 32 + 15 = 79.
//   FLOPs = 215 + 79 = 294, load = 215*4 = 860, store = (215 + 79)*4 = 1176.
// CHECK-LABEL: kernel early(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=860
// CHECK-NEXT: bytes.global.store=1176
// CHECK-NEXT: flops.f32=294
// CHECK-NEXT: end
