// A cycle with two entries (irreducible control flow, from gotos into the
// middle of a loop) has no loop trip count: the model must not crash and must
// report exact=false with at least one reason. (Its exit branch tests k, a
// variable of the cycle.) `opt -passes='print<cycles>'` on the -O2 IR shows
// one cycle with two entries.
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --arg m=10 --arg h=70 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

__global__ void irr(int n, int m, int h, const float *__restrict__ x,
                    float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = x[i];
  int k = 0;
  if (i < h)
    goto B;
A:
  acc += 1.0f;
  k += 2;
B:
  acc *= 0.5f;
  k += 1;
  if (k < m)
    goto A;
  y[i] = acc;
}

// CHECK-LABEL: kernel irr(
// CHECK-NEXT: exact=false
// CHECK-NEXT: unknown={{.+}}
// CHECK: end
