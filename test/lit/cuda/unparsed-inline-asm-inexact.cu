// Inline PTX whose work hroof cannot know (here a PTX-level call to an
// external function, opaque by construction) makes the kernel exact=false with
// the asm statement named among the unknowns, while the rest is still counted.
// (hroof only builds IR/PTX here; the asm text is never assembled.)
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

__global__ void uasm(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float r;
    asm volatile("call.uni (%0), external_ptx_fn, (%1);" : "=f"(r) : "f"(x[i]));
    y[i] = r + 1.0f;
  }
}

// Known part: 150 x (4 B load, 1 fadd, 4 B store), the lower bounds; the
// asm's work leaves every count without an upper bound.
// CHECK-LABEL: kernel uasm(
// CHECK-NEXT: exact=false
// CHECK-NEXT: unknown={{.*}}asm{{.*}}call.uni
// CHECK-NEXT: bytes.global.load=[600, no bound]
// CHECK-NEXT: bytes.global.store=[600, no bound]
// CHECK-NEXT: flops.f32=[150, no bound]
// CHECK-NEXT: end
