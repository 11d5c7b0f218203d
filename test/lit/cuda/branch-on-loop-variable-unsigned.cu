// Unsigned compares of the loop variable: `(unsigned)j < (unsigned)n`, which
// InstCombine also makes of signed compares whose sides it proves
// non-negative. When the recurrence cannot wrap (no unsigned wrap, or no
// signed wrap and never negative) both sides are read zero-extended, so a
// bound that is negative as an int is the large unsigned value it is.
// Launch 2 blocks of 64 threads; tiles=5.
//
// RUN: %hroof-static %s --grid 2 --block 64 --arg n=150 --arg tiles=5 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// RUN: %hroof-static %s --grid 2 --block 64 --arg n=0xffffffff --arg tiles=5 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=ALL

// As tile_edge in branch-on-loop-variable.cu: 536 taken iterations for
// n = 150 (1 FLOP, 4 B each); 128 x 4 B stored.
// CHECK-LABEL: kernel unsigned_tile_edge(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=2144
// CHECK-NEXT: bytes.global.store=512
// CHECK-NEXT: flops.f32=536
// CHECK-NEXT: end
// n = -1 (its bits, 0xffffffff: the model reads n only unsigned, so the
// decimal -1 is refused) is 4294967295 unsigned: every iteration, 128 x 5 = 640.
// ALL-LABEL: kernel unsigned_tile_edge(
// ALL-NEXT: exact=true
// ALL-NEXT: bytes.global.load=2560
// ALL-NEXT: bytes.global.store=512
// ALL-NEXT: flops.f32=640
// ALL-NEXT: end
__global__ void unsigned_tile_edge(int n, int tiles, const float *__restrict__ x,
                                   float *__restrict__ out) {
  float acc = 0.0f;
#pragma unroll 1
  for (int t = 0; t < tiles; ++t) {
    int j = t * 32 + (int)threadIdx.x;
    if ((unsigned)j < (unsigned)n)
      acc += x[j & 1023];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// j = 32t + tx - 40 is negative in the first iterations of threads tx < 40,
// and a negative j is a large unsigned value: the recurrence wraps as an
// unsigned number, so no interval of t holds the condition. The condition is
// then a factor of the iteration index, summed over t = 0..4 (modulo 2^32
// like the IR). Hand count per block of 64 threads, n = 150: t = 0 takes
// tx >= 40 (24), t = 1 tx >= 8 (56), t = 2 and 3 every tx (64 + 64), t = 4
// tx + 88 < 150 (62): 270, so 540 FLOPs for 2 blocks. n = -1 (UINT_MAX):
// every j but j = 0xffffffff (t = 0, tx = 39 and t = 1, tx = 7): 640 - 4.
// CHECK-LABEL: kernel unsigned_negative_start(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=2160
// CHECK-NEXT: bytes.global.store=512
// CHECK-NEXT: flops.f32=540
// CHECK-NEXT: end
// ALL-LABEL: kernel unsigned_negative_start(
// ALL-NEXT: exact=true
// ALL-NEXT: bytes.global.load=2544
// ALL-NEXT: bytes.global.store=512
// ALL-NEXT: flops.f32=636
// ALL-NEXT: end
__global__ void unsigned_negative_start(int n, int tiles, const float *__restrict__ x,
                                        float *__restrict__ out) {
  float acc = 0.0f;
#pragma unroll 1
  for (int t = 0; t < tiles; ++t) {
    int j = t * 32 + (int)threadIdx.x - 40;
    if ((unsigned)j < (unsigned)n)
      acc += x[j & 1023];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
