// Guarded 1D elementwise kernels: only threads with i = blockIdx.x*blockDim.x +
// threadIdx.x inside the guard count. The launch overhangs n (partial last
// block) so a model that counted every launched thread would fail.
//
// RUN: %hroof-static %s --grid 4 --block 256 --arg n=1000 --arg lo=3 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// Grid smaller than n: every launched thread passes (min(threads, n)).
// RUN: %hroof-static %s --grid 2 --block 100 --arg n=1000 --arg lo=3 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=SMALL

// y[i] = (x[i] + a) * x[i]: 1 fadd + 1 fmul (no contraction possible: the add
// comes first) = 2 f32 FLOPs; x[i] loaded once (4 B), y[i] stored (4 B).
__global__ void upper(int n, float a, const float *__restrict__ x,
                      float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = (x[i] + a) * x[i];
}

// Lower and upper bound: threads lo <= i < n. One fmul, 4 B load, 4 B store.
__global__ void lower_upper(int n, int lo, const float *__restrict__ x,
                            float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lo && i < n)
    y[i] = x[i] * 3.0f;
}

// 4 x 256 = 1024 threads, n = 1000 pass `upper`:
//   flops.f32 = 1000*2 = 2000, load = 1000*4 = 4000, store = 4000.
// CHECK-LABEL: kernel upper(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=4000
// CHECK-NEXT: bytes.global.store=4000
// CHECK-NEXT: flops.f32=2000
// CHECK-NEXT: end
// `lower_upper`: i in [3, 1000) -> 997 threads: 997 FLOPs, 3988 B each way.
// CHECK-LABEL: kernel lower_upper(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=3988
// CHECK-NEXT: bytes.global.store=3988
// CHECK-NEXT: flops.f32=997
// CHECK-NEXT: end

// 2 x 100 = 200 threads, all < n = 1000: upper = 200*2 FLOPs, 800 B each way;
// lower_upper: i in [3, 200) = 197 threads.
// SMALL-LABEL: kernel upper(
// SMALL-NEXT: exact=true
// SMALL-NEXT: bytes.global.load=800
// SMALL-NEXT: bytes.global.store=800
// SMALL-NEXT: flops.f32=400
// SMALL-NEXT: end
// SMALL-LABEL: kernel lower_upper(
// SMALL-NEXT: exact=true
// SMALL-NEXT: bytes.global.load=788
// SMALL-NEXT: bytes.global.store=788
// SMALL-NEXT: flops.f32=197
// SMALL-NEXT: end
