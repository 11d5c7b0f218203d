// An argument-bound loop entered straight from the entry block: the entry's
// `K > 0` branch goes directly to the loop header, so the loop has no
// dedicated preheader (the loop contains a barrier, which keeps the optimizer
// from runtime-unrolling it and creating one). Same pattern as the K loop of
// wmma-intrinsics.cu. Trip count: ceil(K/16) for K > 0.
// Launch 2 x 40 = 80 threads, no guard.
//
// RUN: %hroof-static %s --grid 2 --block 40 --arg K=100 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// RUN: %hroof-static %s --grid 2 --block 40 --arg K=0 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=ZERO

// Per iteration: one fadd, one 4 B load; after the loop one 4 B store.
__global__ void sync_loop(int K, const float *__restrict__ a,
                          float *__restrict__ out) {
  float acc = 0.0f;
  for (int k = 0; k < K; k += 16) {
    acc += a[k];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

// K = 100: k = 0, 16, ..., 96 -> 7 iterations. 80*7 = 560 FLOPs,
// 560*4 = 2240 B load, 80*4 = 320 B store.
// CHECK-LABEL: kernel sync_loop(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=2240
// CHECK-NEXT: bytes.global.store=320
// CHECK-NEXT: flops.f32=560
// CHECK-NEXT: end
// K = 0: no iteration.
// ZERO-LABEL: kernel sync_loop(
// ZERO-NEXT: exact=true
// ZERO-NEXT: bytes.global.store=320
// ZERO-NEXT: end
