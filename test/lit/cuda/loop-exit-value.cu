// A loop's variable read after a grid-stride loop, whose trip count
// ScalarEvolution cannot give (its step is gridDim.x * blockDim.x): the
// model takes its exit value from its own trip count, start + step * trips
// (passes/ExprBuilder.cpp, buildExitValue), so the tail branch after the
// loop is counted exactly. The second kernel's second loop starts where the
// first ended. The loops multiply in volatile inline asm, as HeCBench's
// relu does: a loop with a side effect may run for ever, so ScalarEvolution
// cannot assume it ends and gives no trip count (a plain multiply would let
// it count the loop itself).
//
// RUN: %hroof-static %s --grid 2 --block 64 --arg n=1001 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=ODD
// RUN: %hroof-static %s --grid 2 --block 64 --arg n=1000 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=EVEN

__device__ float twice(float v) {
  float r;
  asm volatile("mul.f32 %0, %1, 0f40000000;" : "=f"(r) : "f"(v));
  return r;
}

__global__ void tail_after_grid_stride(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  int half = n / 2;
  for (; i < half; i += stride)
    y[i] = twice(x[i]);
  if (i == half && (n & 1))
    y[n - 1] = x[n - 1] + 1.0f;
}

__global__ void resume_after_grid_stride(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  for (; i < n / 2; i += stride)
    y[i] = twice(x[i]);
  for (; i < n; i += stride)
    y[i] = x[i] + 1.0f;
}

// 128 threads. tail_after_grid_stride, n = 1001: half = 500, so the loop
// covers i = 0..499 once each: 500 FMULs, 500 loads and stores of 4 B.
// Thread t leaves the loop with i = t + 128 * ceil((500 - t) / 128), which
// is 500 for t = 116 only: one FADD, one more load and store.
// ODD-LABEL: kernel tail_after_grid_stride(
// ODD-NEXT: exact=true
// ODD-NEXT: bytes.global.load=2004
// ODD-NEXT: bytes.global.store=2004
// ODD-NEXT: flops.f32=501
// resume_after_grid_stride, n = 1001: the first loop as above (i < 500);
// the second goes on from each thread's exit value, so i = 500..1000 once
// each: 501 FADDs, a load and a store each.
//   loads and stores 1001 x 4 = 4004; flops 500 + 501 = 1001.
// ODD-LABEL: kernel resume_after_grid_stride(
// ODD-NEXT: exact=true
// ODD-NEXT: bytes.global.load=4004
// ODD-NEXT: bytes.global.store=4004
// ODD-NEXT: flops.f32=1001

// n = 1000: no tail.
// EVEN-LABEL: kernel tail_after_grid_stride(
// EVEN-NEXT: exact=true
// EVEN-NEXT: bytes.global.load=2000
// EVEN-NEXT: bytes.global.store=2000
// EVEN-NEXT: flops.f32=500
