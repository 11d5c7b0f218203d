// Loads and stores written as inline PTX (clang's __ldcs/__ldcg/__ldcv/__stwt
// are such asm) are in the warp-level model: the address is the asm's
// [operand], modelled like a load or store of the instruction's width.
// Launch: 2 blocks of 128 threads = 256 threads, 8 full warps; pointers
// 256-byte aligned (cudaMalloc).
//
// RUN: %hroof-static %s --grid 2 --block 128 --json | python3 %S/Inputs/warp.py | FileCheck %s

__global__ void ldcs_int4(const int *__restrict__ in, int4 *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __ldcs(reinterpret_cast<const int4 *>(in) + i);
}
// 256 lanes x 16 B = 4096 B each way, coalesced: 4096 / 32 = 128 sectors.
// CHECK-LABEL: kernel ldcs_int4(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=4096
// CHECK-NEXT: footprint.global.store=4096
// CHECK-NEXT: sectors.global.load=128
// CHECK-NEXT: sectors.global.store=128
// CHECK-NEXT: warp_bytes.global.load=4096
// CHECK-NEXT: warp_bytes.global.store=4096
// CHECK-NEXT: end

__global__ void cache_operators(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = __ldcg(in + i), b = __ldcv(in + 256 + i), c;
  asm("ld.global.nc.f32 %0, [%1];" : "=f"(c) : "l"(in + 512 + i));
  __stwt(out + i, a + b + c);
}
// Three 4-byte loads per lane at three places: 3 x 256 x 4 = 3072 B, 96
// sectors, 3072 B of footprint; one 4-byte store: 1024 B, 32 sectors.
// CHECK-LABEL: kernel cache_operators(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=3072
// CHECK-NEXT: footprint.global.store=1024
// CHECK-NEXT: sectors.global.load=96
// CHECK-NEXT: sectors.global.store=32
// CHECK-NEXT: warp_bytes.global.load=3072
// CHECK-NEXT: warp_bytes.global.store=1024
// CHECK-NEXT: end

__global__ void displaced(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  asm("ld.global.cs.f32 %0, [%1+4];" : "=f"(v) : "l"(in + i));
  out[i] = v;
}
// Lane t of warp w reads bytes 4 + 128w + 4t: the warp's 128 B start 4 bytes
// into sector 4w and end in sector 4w + 4, 5 sectors a warp, 40 in all.
// CHECK-LABEL: kernel displaced(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=1024
// CHECK-NEXT: footprint.global.store=1024
// CHECK-NEXT: sectors.global.load=40
// CHECK-NEXT: sectors.global.store=32
// CHECK-NEXT: warp_bytes.global.load=1024
// CHECK-NEXT: warp_bytes.global.store=1024
// CHECK-NEXT: end

__global__ void shared_asm(float *__restrict__ out) {
  __shared__ float2 tile[128];
  unsigned a = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x]);
  float x = threadIdx.x, y;
  asm volatile("st.shared.v2.f32 [%0], {%1,%1};" ::"r"(a), "f"(x));
  __syncthreads();
  asm volatile("ld.shared.f32 %0, [%1+4];" : "=f"(y) : "r"(a));
  out[blockIdx.x * blockDim.x + threadIdx.x] = y;
}
// The store: 8 B a lane, 256 B a warp = 2 wavefronts of 128 B, 16 in all,
// 2048 B. The load: 4 B a lane at byte 8t + 4, bank (2t + 1) mod 32: lanes t
// and t + 16 share a bank, 2 wavefronts a warp, 16 in all; 1024 B.
// CHECK-LABEL: kernel shared_asm(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.store=1024
// CHECK-NEXT: sectors.global.store=32
// CHECK-NEXT: warp_bytes.global.store=1024
// CHECK-NEXT: warp_bytes.shared.load=1024
// CHECK-NEXT: warp_bytes.shared.store=2048
// CHECK-NEXT: wavefronts.shared.load=16
// CHECK-NEXT: wavefronts.shared.store=16
// CHECK-NEXT: end

__global__ void cp_async(const float4 *__restrict__ in, float *__restrict__ out) {
  __shared__ __align__(16) float4 tile[128];
  int t = threadIdx.x;
  unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[t]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
               "l"(in + blockIdx.x * 128 + t));
  asm volatile("cp.async.wait_all;");
}
// 16 B a lane from global to shared (SASS LDGSTS): 4096 B = 128 sectors of
// global load and 4096 B of footprint. LDGSTS is in the global load sectors
// and in neither SASS byte counter nor the shared wavefronts
// (docs/validation/warp.md), so no warp_bytes and no wavefronts.
// CHECK-LABEL: kernel cp_async(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=4096
// CHECK-NEXT: sectors.global.load=128
// CHECK-NEXT: end

__global__ void register_address(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  asm("{ .reg .u64 a; mov.u64 a, %1; ld.global.f32 %0, [a]; }" : "=f"(v) : "l"(in + i));
  out[i] = v;
}
// An address in a register of the asm: bounds, the reason quoting it. At
// least the busiest lane's 4 B a warp (8 x 4 = 32 B, 8 sectors), at most
// every lane's own sector (256 x 4 = 1024 B, 256 sectors). Footprint: at
// least the 4 B of one lane that surely ran, at most every lane's 4 B.
// CHECK-LABEL: kernel register_address(
// CHECK-NEXT: warp.exact=false
// CHECK-NEXT: footprint.global.load=4..1024
// CHECK-NEXT: footprint.global.store=1024
// CHECK-NEXT: sectors.global.load=8..256
// CHECK-NEXT: sectors.global.store=32
// CHECK-NEXT: warp_bytes.global.load=32..1024
// CHECK-NEXT: warp_bytes.global.store=1024
// CHECK-NEXT: inexact=the address of inline asm 'ld.global.f32 $0, [a]' is not an operand of the asm statement at _Z16register_addressPKfPf:
// CHECK-NEXT: end

__global__ void predicated(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.f;
  asm("{ .reg .pred p; setp.lt.s32 p, %2, 100; @p ld.global.f32 %0, [%1]; }"
      : "+f"(v) : "l"(in + i), "r"(i));
  out[i] = v;
}
// A predicated load may not run: counted as an upper bound (every lane's
// 4 B, 1024 B, 32 sectors), 0 at least.
// CHECK-LABEL: kernel predicated(
// CHECK-NEXT: warp.exact=false
// CHECK-NEXT: footprint.global.load=0..1024
// CHECK-NEXT: footprint.global.store=1024
// CHECK-NEXT: sectors.global.load=0..32
// CHECK-NEXT: sectors.global.store=32
// CHECK-NEXT: warp_bytes.global.load=0..1024
// CHECK-NEXT: warp_bytes.global.store=1024
// CHECK-NEXT: inexact=predicated inline asm '@p ld.global.f32 $0, [$1]' may not run at _Z10predicatedPKfPf:
// CHECK-NEXT: end
