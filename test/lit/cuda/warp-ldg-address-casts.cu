// __ldg(&in[i]) reads through an addrspacecast of the GEP on the parameter
// (clang's __ldg is a global-space load); the warp-level model follows the
// cast, and a pointer-integer round trip, to the parameter and is exact as
// for in[i]. Launch: 4 blocks of 256 threads, n = 1000: 31 full warps and
// one warp with 8 lanes that run.
//
// RUN: %hroof-static %s --grid 4 --block 256 --arg n=1000 --arg m=3 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s

#include <cstdint>

__global__ void ldg_float4(const float4 *__restrict__ in, float4 *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __ldg(&in[i]);
}
// 1000 lanes x 16 B = 16000 B each way, coalesced: 16000 / 32 = 500 sectors
// (31 warps x 16 and the last warp's 8 lanes, 128 B = 4).
// CHECK-LABEL: kernel ldg_float4(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=16000
// CHECK-NEXT: footprint.global.store=16000
// CHECK-NEXT: sectors.global.load=500
// CHECK-NEXT: sectors.global.store=500
// CHECK-NEXT: warp_bytes.global.load=16000
// CHECK-NEXT: warp_bytes.global.store=16000
// CHECK-NEXT: end

__global__ void ldg_in_loop(const float *__restrict__ in, float *__restrict__ out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.f;
  for (int k = 0; k < m; ++k)
    s += __ldg(&in[k * n + i]);
  out[i] = s;
}
// m = 3 rows of n = 1000 floats read through the cast, a loop variable in
// the address: 3 x 1000 x 4 = 12000 B. Each row starts at 4000k, a multiple
// of 32: 125 sectors a row, 375. Stores: 4000 B, 125 sectors.
// CHECK-LABEL: kernel ldg_in_loop(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=12000
// CHECK-NEXT: footprint.global.store=4000
// CHECK-NEXT: sectors.global.load=375
// CHECK-NEXT: sectors.global.store=125
// CHECK-NEXT: warp_bytes.global.load=12000
// CHECK-NEXT: warp_bytes.global.store=4000
// CHECK-NEXT: end

__global__ void int_round_trip(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uintptr_t a = reinterpret_cast<uintptr_t>(in) + 4 * uintptr_t(i);
    out[i] = __ldg(reinterpret_cast<const float *>(a));
  }
}
// The same 1000 x 4 B each way: 4000 B, 125 sectors.
// CHECK-LABEL: kernel int_round_trip(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=4000
// CHECK-NEXT: footprint.global.store=4000
// CHECK-NEXT: sectors.global.load=125
// CHECK-NEXT: sectors.global.store=125
// CHECK-NEXT: warp_bytes.global.load=4000
// CHECK-NEXT: warp_bytes.global.store=4000
// CHECK-NEXT: end
