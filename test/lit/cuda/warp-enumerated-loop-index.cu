// An address that reads its loop's index other than by a step (a channel
// shuffle: i % G * K + i / G of i = tid + k * ntid) is evaluated iteration
// by iteration: iteration k of a warp is one request of the lanes still in
// the loop. Counts derived by hand below; launches of 32-thread blocks.
//
// RUN: %hroof-static %s --kernel shuffle --grid 2 --block 32 --arg G=2 --arg K=24 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=SHUFFLE
// RUN: %hroof-static %s --kernel gather --grid 2 --block 32 --arg G=4 --arg K=16 --arg stride=36 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=GATHER
// RUN: %hroof-static %s --kernel outer_index --grid 1 --block 32 --arg n=64 --arg rows=5 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=OUTER
// The runtime's default budget of lane evaluations is enough for a large
// launch: the shared load reads no block index, so one block stands for all.
// RUN: env HROOF_WARP_EVAL_LIMIT=1048576 %hroof-static %s --kernel shuffle --grid 262144 --block 256 --arg G=2 --arg K=64 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=LARGE

// G=2, K=24: C=48 channels, lanes 0-15 run two iterations, lanes 16-31 one.
// Shared load, k=0 (i = 0..31): word (i%2)*24 + i/2; even i: words 0..15
// (banks 0..15), odd i: words 24..39 (banks 24..31, 0..7): banks 0..7 hold
// two words each: 2 wavefronts, 128 B. k=1 (i = 32..47, 16 lanes): even i:
// words 16..23, odd i: 40..47 (banks 8..15): 1 wavefront, 64 B. Per block
// 3 wavefronts, 192 B; two blocks: 6, 384.
// Shared store s[i]: k=0 words 0..31 (1 wavefront, 128 B), k=1 words 32..47
// (1, 64 B): two blocks 4, 384.
// Global: block b reads and writes floats 48b..48b+47: per block k=0 128 B
// (4 sectors), k=1 64 B (2 sectors): two blocks 12 sectors, 384 B each way.
__global__ void shuffle(int G, int K, const float *x, float *y) {
  __shared__ float s[512];
  const int C = G * K;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    s[i] = x[blockIdx.x * C + i];
  __syncthreads();
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    y[blockIdx.x * C + i] = s[(i % G) * K + i / G];
}
// SHUFFLE-LABEL: kernel shuffle(
// SHUFFLE-NEXT: warp.exact=true
// SHUFFLE-NEXT: footprint.global.load=384
// SHUFFLE-NEXT: footprint.global.store=384
// SHUFFLE-NEXT: sectors.global.load=12
// SHUFFLE-NEXT: sectors.global.store=12
// SHUFFLE-NEXT: warp_bytes.global.load=384
// SHUFFLE-NEXT: warp_bytes.global.store=384
// SHUFFLE-NEXT: warp_bytes.shared.load=384
// SHUFFLE-NEXT: warp_bytes.shared.store=384
// SHUFFLE-NEXT: wavefronts.shared.load=6
// SHUFFLE-NEXT: wavefronts.shared.store=4
// SHUFFLE-NEXT: end

// The index read with the block's: G=4, K=16 (C=64, two iterations), block
// b reads floats 36b + (i%4)*16 + i/4. k=0: i/4 = 0..7, runs of 8 floats
// at 0, 16, 32, 48; k=1: runs at 8, 24, 40, 56. Block 0: each 32-byte run
// is one sector, 8 sectors; block 1 (base 144 B): each run spans two, 16.
// 24 sectors, 4 requests x 128 B. Footprint: floats 0..63 and 36..99,
// bytes 0..399. Stores: 2 x 64 contiguous floats, 16 sectors, 512 B.
__global__ void gather(int G, int K, int stride, const float *x, float *y) {
  const int C = G * K;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    y[blockIdx.x * C + i] = x[blockIdx.x * stride + (i % G) * K + i / G];
}
// GATHER-LABEL: kernel gather(
// GATHER-NEXT: warp.exact=true
// GATHER-NEXT: footprint.global.load=400
// GATHER-NEXT: footprint.global.store=512
// GATHER-NEXT: sectors.global.load=24
// GATHER-NEXT: sectors.global.store=16
// GATHER-NEXT: warp_bytes.global.load=512
// GATHER-NEXT: warp_bytes.global.store=512
// GATHER-NEXT: end

// An outer loop's index read other than by a step, with an inner loop that
// moves the address: not enumerated (only the innermost loop is), bounds.
__global__ void outer_index(int n, int rows, float *y) {
  for (int r = 0; r < rows; ++r)
    for (int j = threadIdx.x; j < n; j += blockDim.x)
      y[(r % 3) * n + j] = r;
}
// OUTER-LABEL: kernel outer_index(
// OUTER-NEXT: warp.exact=false
// OUTER: inexact=its loops or address depend on an enclosing loop's variable at
// OUTER: end

// G=2, K=64 (C=128): of 256 threads the 4 warps below 128 run, once; the
// load's words (i%2)*64 + i/2 put lanes i and i+1 (i even) in one bank: 2
// wavefronts per warp, 262144 blocks x 4 warps x 2 = 2097152; the store 1
// per warp, 1048576.
// LARGE-LABEL: kernel shuffle(
// LARGE-NEXT: warp.exact=true
// LARGE: wavefronts.shared.load=2097152
// LARGE-NEXT: wavefronts.shared.store=1048576
// LARGE-NEXT: end
