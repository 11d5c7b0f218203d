// Grid-stride loop: for (i = gid; i < n; i += gridDim.x*blockDim.x). Every
// element 0..n-1 is visited by exactly one thread, whatever the launch.
//
// Fewer threads (7*128 = 896) than elements: threads do 11 or 12 iterations.
// RUN: %hroof-static %s --grid 7 --block 128 --arg n=10007 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// More threads (100*128 = 12800) than elements: some threads do 0 iterations.
// RUN: %hroof-static %s --grid 100 --block 128 --arg n=10007 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// n = 0: no iteration at all.
// RUN: %hroof-static %s --grid 7 --block 128 --arg n=0 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=EMPTY

// Per element: x*x + y -> one fma = 2 FLOPs; loads x, y (8 B), stores y (4 B).
__global__ void gs(int n, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    y[i] = x[i] * x[i] + y[i];
}

// n = 10007 elements: 20014 FLOPs, 80056 B load, 40028 B store.
// CHECK-LABEL: kernel gs(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=80056
// CHECK-NEXT: bytes.global.store=40028
// CHECK-NEXT: flops.f32=20014
// CHECK-NEXT: end
// EMPTY-LABEL: kernel gs(
// EMPTY-NEXT: exact=true
// EMPTY-NEXT: end
