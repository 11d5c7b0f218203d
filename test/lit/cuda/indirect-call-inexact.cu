// A call through a function pointer read from device memory cannot be
// resolved statically: exact=false, unknown "indirect call", and no crash.
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --arg sel=1 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

typedef float (*op_t)(float);
__device__ float twice(float v) { return v * 2.0f; }
__device__ float plus1(float v) { return v + 1.0f; }
__device__ op_t ops[2] = {twice, plus1};

__global__ void indirect(int n, int sel, const float *__restrict__ x,
                         float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = ops[sel & 1](x[i]);
}

// CHECK-LABEL: kernel indirect(
// CHECK-NEXT: exact=false
// CHECK-NEXT: unknown=indirect call in {{.*}}
// CHECK: end
