// printf and assert must never crash the model.
// - assert: the failing path only calls __assertfail (and traps), so it does
//   no counted work and the kernel stays exact; the fcmp of the assertion is a
//   compare (`other`). The branch on x[i] >= 0 is data-dependent, but both of
//   its sides reach the same counted code, so the totals do not depend on it.
// - printf: the argument buffer is a local (stack) store of 8 B, and the
//   call to the driver's vprintf counts no FLOP and no byte: its own work
//   is not in the SASS-patched counters the thread-level counts match
//   (measured on an H200: docs/validation/counters.md), so the
//   kernel is exact; but that work is in the L1 sector counters, so the
//   warp-level traffic is not modelled, with the reason.
// Launch 3 x 64 = 192 threads, n = 150 pass.
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 | FileCheck %s --check-prefix=WARP

#include <cassert>
#include <cstdio>

// Per thread: 4 B load of x[i], fcmp (other.f32), fadd (1 FLOP), 4 B store.
__global__ void with_assert(int n, const float *__restrict__ x,
                            float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(x[i] >= 0.0f);
    y[i] = x[i] + 1.0f;
  }
}

// Per thread: 4 B load, fadd, 4 B store; thread 0 also loads x[0] again
// (4 B), converts it to double (other.f32) and stores it to the printf buffer
// (8 B local), then calls vprintf.
__global__ void with_printf(int n, const float *__restrict__ x,
                            float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = x[i] + 1.0f;
    if (i == 0)
      printf("x[0]=%f\n", x[0]);
  }
}

// with_assert: 150 FLOPs, 150 compares, 600 B load, 600 B store.
// CHECK-LABEL: kernel with_assert(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=600
// CHECK-NEXT: bytes.global.store=600
// CHECK-NEXT: flops.f32=150
// CHECK-NEXT: other.f32=150
// CHECK-NEXT: end
// with_printf: 604 B load, 600 B store, 8 B local store, 150 FLOPs, 1
// conversion.
// CHECK-LABEL: kernel with_printf(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=604
// CHECK-NEXT: bytes.global.store=600
// CHECK-NEXT: bytes.local.store=8
// CHECK-NEXT: flops.f32=150
// CHECK-NEXT: other.f32=1
// CHECK-NEXT: end
// WARP-LABEL: kernel with_printf(
// WARP: warp-level traffic: not evaluated: not modelled: call to vprintf
