// A kernel parameter passed by value as a struct (here __half2 and a user
// struct) arrives in IR as a `ptr byval(...)` argument; reading it is a
// kernel-parameter read (ld.param, constant bank), not a global-memory access.
// Only x and y are global memory. Launch 4 x 128 = 512 threads, n = 500 pass.
//
// RUN: %hroof-static %s --grid 4 --block 128 --arg n=500 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

struct Coef {
  float a, b, c;
};

// a*x + b*y + c: fmul + fma + fadd = 4 f32 FLOPs (however contracted);
// loads x, y (8 B global), store y (4 B global).
__global__ void with_struct(int n, Coef k, const float *__restrict__ x,
                            float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = k.a * x[i] + k.b * y[i] + k.c;
}

// with_struct x 500: 2000 FLOPs, 4000 B global load (x, y only), 2000 B store.
// CHECK-LABEL: kernel with_struct(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=4000
// CHECK-NEXT: bytes.global.store=2000
// CHECK-NEXT: flops.f32=2000
// CHECK-NEXT: end
