// Branches on the loop variable whose condition is affine in it (a tile-edge
// test, a lower bound that depends on the thread): the model counts the
// iterations on which the branch is taken, per thread, and stays exact.
// Launch 2 blocks of 64 threads (128 threads). The loops are kept rolled
// (#pragma unroll 1) but one: in a runtime-unrolled loop the remainder
// iteration runs after the loop on the loop's exit value (unrolled_tile_edge).
//
// RUN: %hroof-static %s --grid 2 --block 64 --arg n=150 --arg tiles=5 --arg m=0 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// Fewer tiles than the edge needs; a negative shift of the lower bound.
// RUN: %hroof-static %s --grid 2 --block 64 --arg n=150 --arg tiles=3 --arg m=-3 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=SHORT
// An empty array: the tile-edge body never runs.
// RUN: %hroof-static %s --grid 2 --block 64 --arg n=0 --arg tiles=5 --arg m=0 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=EMPTY

// Per taken iteration: one fadd (1 FLOP) and a 4 B load; one 4 B store per
// thread after the loop.
__global__ void tile_edge(int n, int tiles, const float *__restrict__ x,
                          float *__restrict__ out) {
  float acc = 0.0f;
#pragma unroll 1
  for (int t = 0; t < tiles; ++t) {
    int j = t * 32 + (int)threadIdx.x;
    if (j < n)
      acc += x[j];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Iterations k of [0, n) with k >= m + tid.x take the branch.
__global__ void from_m(int n, int m, const float *__restrict__ x, float *__restrict__ out) {
  float acc = 0.0f;
#pragma unroll 1
  for (int k = 0; k < n; ++k)
    if (k >= m + (int)threadIdx.x)
      acc += x[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A downward loop: k = n-1 down to 0, the branch taken for k < m + tid.x.
__global__ void down_below(int n, int m, const float *__restrict__ x, float *__restrict__ out) {
  float acc = 0.0f;
#pragma unroll 1
  for (int k = n - 1; k >= 0; --k)
    if (k < m + (int)threadIdx.x)
      acc += x[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same loop as tile_edge, unrolled by the optimizer: the branch of the
// remainder iteration after the loop is left out (bounds only).
__global__ void unrolled_tile_edge(int n, int tiles, const float *__restrict__ x,
                                   float *__restrict__ out) {
  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    int j = t * 32 + (int)threadIdx.x;
    if (j < n)
      acc += x[j];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// tile_edge, n=150, tiles=5: thread tx takes t when 32t + tx < 150.
//   tx 0..21:  t = 0..4 (128 + tx < 150)            22 threads x 5 = 110
//   tx 22..53: t = 0..3 (96 + tx < 150 <= 128 + tx)  32 threads x 4 = 128
//   tx 54..63: t = 0..2 (64 + tx < 150 <= 96 + tx)   10 threads x 3 =  30
// 268 per block, 536 in all: 536 FLOPs, 2144 B loaded; 128 x 4 = 512 B stored.
// CHECK-LABEL: kernel tile_edge(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=2144
// CHECK-NEXT: bytes.global.store=512
// CHECK-NEXT: flops.f32=536
// CHECK-NEXT: end
// from_m, n=150, m=0: thread tx takes k = tx..149, 150 - tx iterations:
// 64 x 150 - (0+1+...+63) = 9600 - 2016 = 7584 per block, 15168 in all:
// 15168 FLOPs, 60672 B loaded; 512 B stored.
// CHECK-LABEL: kernel from_m(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=60672
// CHECK-NEXT: bytes.global.store=512
// CHECK-NEXT: flops.f32=15168
// CHECK-NEXT: end
// down_below, n=150, m=0: thread tx takes k = 0..tx-1, tx iterations:
// 0+1+...+63 = 2016 per block, 4032 in all: 4032 FLOPs, 16128 B; 512 B stored.
// CHECK-LABEL: kernel down_below(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=16128
// CHECK-NEXT: bytes.global.store=512
// CHECK-NEXT: flops.f32=4032
// CHECK-NEXT: end
// unrolled_tile_edge: the optimizer unrolls by 2 and runs the fifth tile
// (t = 4) after the loop, on the loop's exit value, which reaches the
// remainder through a phi of the two sides of the "any remainder?" branch.
// The phi is a select on that branch, the exit value ScalarEvolution's value
// of the variable after the loop: exact, the hand count of tile_edge (536).
// CHECK-LABEL: kernel unrolled_tile_edge(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=2144
// CHECK-NEXT: bytes.global.store=512
// CHECK-NEXT: flops.f32=536
// CHECK-NEXT: end

// tile_edge, tiles=3: 64 + tx < 150 for every tx, so all 3 tiles: 64 x 3 = 192
// per block, 384 in all: 384 FLOPs, 1536 B; 512 B stored.
// SHORT-LABEL: kernel tile_edge(
// SHORT-NEXT: exact=true
// SHORT-NEXT: bytes.global.load=1536
// SHORT-NEXT: bytes.global.store=512
// SHORT-NEXT: flops.f32=384
// SHORT-NEXT: end
// from_m, n=150, m=-3: k >= tx - 3 over k = 0..149: 150 for tx <= 3 (4 threads,
// 600) and 150 - (tx - 3) = 153 - tx for tx = 4..63 (149 + 148 + ... + 90 =
// 60 * (149 + 90) / 2 = 7170): 7770 per block, 15540 in all: 15540 FLOPs,
// 62160 B; 512 B stored.
// SHORT-LABEL: kernel from_m(
// SHORT-NEXT: exact=true
// SHORT-NEXT: bytes.global.load=62160
// SHORT-NEXT: bytes.global.store=512
// SHORT-NEXT: flops.f32=15540
// SHORT-NEXT: end
// down_below, m=-3: k < tx - 3 for k = 0..149: tx - 3 iterations for tx >= 4,
// 1+2+...+60 = 1830 per block, 3660 in all: 3660 FLOPs, 14640 B; 512 B stored.
// SHORT-LABEL: kernel down_below(
// SHORT-NEXT: exact=true
// SHORT-NEXT: bytes.global.load=14640
// SHORT-NEXT: bytes.global.store=512
// SHORT-NEXT: flops.f32=3660
// SHORT-NEXT: end

// n=0: tile_edge takes no tile; the loops of from_m and down_below do not run.
// EMPTY-LABEL: kernel tile_edge(
// EMPTY-NEXT: exact=true
// EMPTY-NEXT: bytes.global.store=512
// EMPTY-NEXT: end
// EMPTY-LABEL: kernel from_m(
// EMPTY-NEXT: exact=true
// EMPTY-NEXT: bytes.global.store=512
// EMPTY-NEXT: end
// EMPTY-LABEL: kernel down_below(
// EMPTY-NEXT: exact=true
// EMPTY-NEXT: bytes.global.store=512
// EMPTY-NEXT: end
