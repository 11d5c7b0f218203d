// A loop bound loaded from memory (len[i]) cannot be known statically: the
// kernel must be reported exact=false with a data-dependent trip count among
// its unknowns, never a silent guess.
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

__global__ void datadep(int n, const int *__restrict__ len,
                        const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < len[i]; ++k)
      acc += x[k];
    y[i] = acc;
  }
}

// CHECK-LABEL: kernel datadep(
// CHECK-NEXT: exact=false
// CHECK: unknown=loop at {{.*}} has a trip count hroof cannot express (its bound is data loaded from memory)
// CHECK: end
