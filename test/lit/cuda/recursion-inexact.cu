// A recursive device function has no static call count: exact=false with the
// recursion named among the unknowns, and no crash (no infinite descent).
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --arg depth=3 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

__device__ __noinline__ float rec(float v, int d) {
  return d <= 0 ? v : rec(v * 0.5f, d - 1) + 1.0f;
}

__global__ void recursion(int n, int depth, const float *__restrict__ x,
                          float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = rec(x[i], depth);
}

// CHECK-LABEL: kernel recursion(
// CHECK-NEXT: exact=false
// CHECK-NEXT: unknown=recursive call to _Z3recfi
// CHECK: end
