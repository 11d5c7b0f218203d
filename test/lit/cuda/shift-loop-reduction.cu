// Loops that halve or double their variable (passes/ShiftLoop.h): the tree
// reduction `for (s = blockDim.x / 2; s > 0; s >>= 1) if (tid < s) ...`, whose
// trip count is a logarithm and whose branch holds on the first iterations,
// and doubling loops. The model counts them exactly.
//
// RUN: %hroof-static %s --grid 3 --block 256 --arg n=1000 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// A block that is not a power of two: s = 48, 24, 12, 6, 3, 1.
// RUN: %hroof-static %s --grid 3 --block 96 --arg n=1 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=B96

__global__ void tree_reduce(const float *in, float *out) {
  __shared__ float sdata[1024];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// The same with int and s /= 2.
__global__ void tree_reduce_int(const float *in, float *out) {
  __shared__ float sdata[1024];
  int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// s = 1, 2, 4, ... while s < n (n below 2^20: the shift cannot wrap).
__global__ void doubling(int n, const float *__restrict__ x, float *__restrict__ out) {
  float acc = 0.0f;
  for (int s = 1; s < (n & 0xfffff); s <<= 1)
    acc += x[s];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Any n: for n above 2^31 the shift wraps (s = 2^31, then 0 for ever), so
// that loop never ends; every launch that ends has the formula's count, and
// the model is exact.
__global__ void doubling_any(unsigned n, const float *__restrict__ x, float *__restrict__ out) {
  float acc = 0.0f;
  for (unsigned s = 1; s < n; s <<= 1)
    acc += x[s & 7];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// From 18 (two bits) by two bits at a time: 18 << 26 = 0x48000000 passes a
// bound of 2^31, 18 << 28 wraps to 0x20000000 (passes), 18 << 30 to
// 0x80000000 (ends): one pass more than the formula, inexact (review).
__global__ void quadrupling_from_eighteen(unsigned n, const float *__restrict__ x,
                                          float *__restrict__ out) {
  float acc = 0.0f;
  for (unsigned s = 18; s < n; s <<= 2)
    acc += x[s & 7];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// From 11 (three bits set): 11 << 28 = 0xB0000000 passes a bound just
// above it, wraps to 0x60000000 (passes), then 0xC0000000 ends the loop:
// one pass more than the formula, so the model stays inexact. (From 1 or 3,
// a wrap leaves at most one bit, which reaches 0 and never ends the loop.)
__global__ void doubling_from_eleven(unsigned n, const float *__restrict__ x,
                                     float *__restrict__ out) {
  float acc = 0.0f;
  for (unsigned s = 11; s < n; s <<= 1)
    acc += x[s & 7];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// s = 1, 4, 16, ... while s <= n (two bits an iteration; n below 2^24).
__global__ void quadrupling(unsigned n, const float *__restrict__ x, float *__restrict__ out) {
  float acc = 0.0f;
  for (unsigned s = 1; s <= (n & 0xffffff); s *= 4)
    acc += x[s];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// tree_reduce, 3 blocks of 256: per block 128+64+...+1 = 255 adds, each
// with two 4 B shared loads and a 4 B store; 256 x 4 B stored into sdata
// first; thread 0 reads sdata[0] (4 B) and stores 4 B. 1024 B loaded per block.
//   flops 3 x 255 = 765; shared load 3 x (255 x 8 + 4) = 6132;
//   shared store 3 x (1024 + 255 x 4) = 6132.
// CHECK-LABEL: kernel tree_reduce(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=3072
// CHECK-NEXT: bytes.global.store=12
// CHECK-NEXT: bytes.shared.load=6132
// CHECK-NEXT: bytes.shared.store=6132
// CHECK-NEXT: flops.f32=765
// CHECK-LABEL: kernel tree_reduce_int(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=3072
// CHECK-NEXT: bytes.global.store=12
// CHECK-NEXT: bytes.shared.load=6132
// CHECK-NEXT: bytes.shared.store=6132
// CHECK-NEXT: flops.f32=765
// doubling, n = 1000: s = 1, ..., 512, 10 iterations for each of 768
// threads: 7680 adds and 4 B loads; 768 x 4 B stored.
// CHECK-LABEL: kernel doubling(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=30720
// CHECK-NEXT: bytes.global.store=3072
// CHECK-NEXT: flops.f32=7680
// doubling_any, n = 1000: as doubling, x[s & 7] loaded.
// CHECK-LABEL: kernel doubling_any(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=30720
// CHECK-NEXT: bytes.global.store=3072
// CHECK-NEXT: flops.f32=7680
// CHECK-LABEL: kernel quadrupling_from_eighteen(
// CHECK-NEXT: exact=false
// CHECK-LABEL: kernel doubling_from_eleven(
// CHECK-NEXT: exact=false
// quadrupling, n = 1000: s = 1, 4, 16, 64, 256 (1024 > 1000): 5 iterations.
// CHECK-LABEL: kernel quadrupling(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=15360
// CHECK-NEXT: bytes.global.store=3072
// CHECK-NEXT: flops.f32=3840

// 3 blocks of 96: 48+24+12+6+3+1 = 94 adds a block.
//   flops 282; global load 3 x 384 = 1152; shared load 3 x (94 x 8 + 4) =
//   2268; shared store 3 x (384 + 94 x 4) = 2280.
// B96-LABEL: kernel tree_reduce(
// B96-NEXT: exact=true
// B96-NEXT: bytes.global.load=1152
// B96-NEXT: bytes.global.store=12
// B96-NEXT: bytes.shared.load=2268
// B96-NEXT: bytes.shared.store=2280
// B96-NEXT: flops.f32=282
// doubling, n = 1: the loop is not entered; 288 x 4 B stored.
// B96-LABEL: kernel doubling(
// B96-NEXT: exact=true
// B96-NEXT: bytes.global.store=1152
// B96-NEXT: end
// B96-LABEL: kernel doubling_any(
// B96-NEXT: exact=true
// B96-NEXT: bytes.global.store=1152
// B96-NEXT: end
// quadrupling, n = 1: s = 1 only: 288 adds and loads.
// B96-LABEL: kernel quadrupling(
// B96-NEXT: exact=true
// B96-NEXT: bytes.global.load=1152
// B96-NEXT: bytes.global.store=1152
// B96-NEXT: flops.f32=288
