// Warp-level traffic of accesses inside loops: the address advances by a
// step per iteration; sectors depend on where each iteration's request
// starts within 128 bytes, and lanes leave a loop as their counts run out.
//
// RUN: %hroof-static %s --grid 1 --block 64 --arg n=64 --arg k=16 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s
// RUN: %hroof-static %s --kernel gridstride --grid 2 --block 128 --arg n=1000 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=TAIL

// Column sums: iteration r reads row r, 64 lanes x 4 B = 2 warps x 4
// sectors; 64 rows: 512 sectors, 64*64*4 = 16384 B.
// Footprint: the 64 x 64 matrix once (16384 B), 64 sums written (256 B).
__global__ void colsum(const float *__restrict__ a, float *__restrict__ out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int r = 0; r < n; ++r)
    s += a[r * n + c];
  out[c] = s;
}
// CHECK-LABEL: kernel colsum(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=16384
// CHECK-NEXT: footprint.global.store=256
// CHECK-NEXT: sectors.global.load=512
// CHECK-NEXT: sectors.global.store=8
// CHECK-NEXT: warp_bytes.global.load=16384
// CHECK-NEXT: warp_bytes.global.store=256
// CHECK-NEXT: end

// Sliding window: iteration j reads in[j + tid], 128 B starting 4j bytes
// into the array: 4 sectors when 4j is a multiple of 32 (j = 0, 8), else 5.
// Per warp: 2*4 + 14*5 = 78; 2 warps: 156 sectors, 2 x 16 x 128 = 4096 B.
// Footprint: in[0 .. 15 + 63] = 79 floats, 316 B; 64 sums written, 256 B.
__global__ void window(const float *__restrict__ in, float *__restrict__ out, int k) {
  float s = 0;
  for (int j = 0; j < k; ++j)
    s += in[j + threadIdx.x];
  out[threadIdx.x] = s;
}
// CHECK-LABEL: kernel window(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=316
// CHECK-NEXT: footprint.global.store=256
// CHECK-NEXT: sectors.global.load=156
// CHECK-NEXT: sectors.global.store=8
// CHECK-NEXT: warp_bytes.global.load=4096
// CHECK-NEXT: warp_bytes.global.store=256
// CHECK-NEXT: end

// Grid-stride loop over n = 1000 floats with 256 threads: iterations 0-2
// are 8 full warps each (3 x 32 sectors); iteration 3 covers 768-999: 7 full
// warps and one warp with 8 lanes (32 B, 1 sector): 29. 125 sectors; each
// element read once: 4000 B.
// Footprint: each element read and written once, 4000 B each way (the first
// RUN line, n = 64 with 64 threads: 256 B).
__global__ void gridstride(const float *__restrict__ in, float *__restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + 1.0f;
}
// TAIL-LABEL: kernel gridstride(
// TAIL-NEXT: warp.exact=true
// TAIL-NEXT: footprint.global.load=4000
// TAIL-NEXT: footprint.global.store=4000
// TAIL-NEXT: sectors.global.load=125
// TAIL-NEXT: sectors.global.store=125
// TAIL-NEXT: warp_bytes.global.load=4000
// TAIL-NEXT: warp_bytes.global.store=4000
// TAIL-NEXT: end
