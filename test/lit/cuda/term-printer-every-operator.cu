// The terms print every operator of their expressions: an extension shows
// the width it reads (zext<i2>(deg) is deg & 3, the IR's truncation to 2
// bits), bitwise operators and shifts show by name. Without the width,
// `deg & 3` printed as ((-1 + deg) + 1), a count that is not the one the
// model evaluates.
//
// RUN: %hroof-static %s --kernel rem | FileCheck %s --check-prefix=TERMS
// RUN: %hroof-static %s --kernel bits | FileCheck %s --check-prefix=BITS
//
// The printed trip count must evaluate as the totals do: deg = 7 runs
// 7 & 3 = 3 iterations of 2 FLOPs (one fma) in each of 32 threads = 192.
// RUN: %hroof-static %s --kernel rem --grid 1 --block 32 --arg deg=7 \
// RUN:   | FileCheck %s --check-prefix=TOTAL

__global__ void rem(int deg, float *__restrict__ y) {
  float a = y[threadIdx.x];
  for (int k = 0; k < (deg & 3); ++k)
    a = a * 2.0f + 1.0f;
  y[threadIdx.x] = a;
}

// TERMS: kernel rem(int, float*)
// TERMS: flops.f32=2  x [and(deg, 3) ne 0] * (zext<i32>((-1 + zext<i2>(deg))) + 1)
// TOTAL: flops.f32 192

// A 64-bit compare of the sign-extended argument (sext<i32>), shifts, an
// or and an and in the guards.
__global__ void bits(int n, float *__restrict__ y) {
  if ((long long)threadIdx.x * 4 < (long long)n && (((threadIdx.x >> 2) | n) & 1) &&
      (short)n > (short)threadIdx.x)
    y[threadIdx.x] += 1.0f;
}

// BITS: kernel bits(int, float*)
// BITS: flops.f32=1 bytes.global.load=4 bytes.global.store=4  x
// BITS-SAME: sext<i32>(n)
// BITS-SAME: and(or(n, lshr(tid.x, 2)), 1)
// BITS-SAME: shl(n, 16)
