// Block-stride loop: each block sums one row of m elements with
// for (j = threadIdx.x; j < m; j += blockDim.x). Every element of the row is
// visited by exactly one thread of its block. Launch 7 blocks of 96 threads;
// m = 1000 is not a multiple of 96 (threads do 10 or 11 iterations).
//
// RUN: %hroof-static %s --grid 7 --block 96 --arg m=1000 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// m smaller than the block: only m threads of each block iterate (once).
// RUN: %hroof-static %s --grid 7 --block 96 --arg m=50 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=SMALL

// Per element: 1 fadd, 4 B load; per thread: one 4 B store.
__global__ void rowsum(int m, const float *__restrict__ A, float *__restrict__ out) {
  float acc = 0.0f;
  for (int j = threadIdx.x; j < m; j += blockDim.x)
    acc += A[blockIdx.x * m + j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// m = 1000: 7*1000 = 7000 FLOPs, 28000 B load, 7*96*4 = 2688 B store.
// CHECK-LABEL: kernel rowsum(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=28000
// CHECK-NEXT: bytes.global.store=2688
// CHECK-NEXT: flops.f32=7000
// CHECK-NEXT: end
// m = 50: 350 FLOPs, 1400 B load, 2688 B store.
// SMALL-LABEL: kernel rowsum(
// SMALL-NEXT: exact=true
// SMALL-NEXT: bytes.global.load=1400
// SMALL-NEXT: bytes.global.store=2688
// SMALL-NEXT: flops.f32=350
// SMALL-NEXT: end
