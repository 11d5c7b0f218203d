// hroof/cuda_compat.h gives the cache-hinted loads and stores that nvcc has
// and clang 22 lacks (__ldca, __ldlu, __stwb, __stcg, __stcs). `hroof static`
// compiles with -include of it: this file calls every cache-hinted function
// for float, float2, float4, int, int2, int4, __half and __nv_bfloat16
// (clang's own and cuda_fp16.h's among them: no overload is defined twice),
// and the kernels below are counted at thread and warp level.
// Launch: 2 blocks of 128 threads = 256 threads, 8 full warps.
//
// RUN: %clang -x cuda --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path -Wno-unknown-cuda-version \
// RUN:   -fsyntax-only -include %cuda-compat %s
// RUN: %hroof-static %s --grid 2 --block 128 --json | python3 %S/Inputs/totals.py \
// RUN:   | FileCheck %s --check-prefix=THREAD
// RUN: %hroof-static %s --grid 2 --block 128 --json | python3 %S/Inputs/warp.py \
// RUN:   | FileCheck %s --check-prefix=WARP

#include <cuda_bf16.h>
#include <cuda_fp16.h>

typedef __half half_t;
typedef __nv_bfloat16 bf16_t;
#define EVERY_HINT(T)                                                                      \
  __global__ void every_hint_##T(const T *in, T *out) {                                    \
    int i = threadIdx.x;                                                                   \
    out[i] = __ldca(in + i);                                                               \
    out[i] = __ldcg(in + i);                                                               \
    out[i] = __ldcs(in + i);                                                               \
    out[i] = __ldlu(in + i);                                                               \
    out[i] = __ldcv(in + i);                                                               \
    __stwb(out + i, in[i]);                                                                \
    __stcg(out + i, in[i]);                                                                \
    __stcs(out + i, in[i]);                                                                \
    __stwt(out + i, in[i]);                                                                \
  }
EVERY_HINT(float) EVERY_HINT(float2) EVERY_HINT(float4) EVERY_HINT(int) EVERY_HINT(int2)
EVERY_HINT(int4) EVERY_HINT(half_t) EVERY_HINT(bf16_t)

__global__ void stream_float4(const float4 *__restrict__ in, float4 *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stcs(out + i, __ldlu(in + i));
}
// 256 lanes x 16 B each way: 4096 B, coalesced 4096 / 32 = 128 sectors.
// THREAD-LABEL: kernel stream_float4(
// THREAD-NEXT: exact=true
// THREAD-NEXT: bytes.global.load=4096
// THREAD-NEXT: bytes.global.store=4096
// THREAD-NEXT: end
// WARP-LABEL: kernel stream_float4(
// WARP-NEXT: warp.exact=true
// WARP-NEXT: footprint.global.load=4096
// WARP-NEXT: footprint.global.store=4096
// WARP-NEXT: sectors.global.load=128
// WARP-NEXT: sectors.global.store=128
// WARP-NEXT: warp_bytes.global.load=4096
// WARP-NEXT: warp_bytes.global.store=4096
// WARP-NEXT: end

__global__ void halves(const __half *__restrict__ a, const __nv_bfloat16 *__restrict__ b,
                       __half *__restrict__ c, __nv_bfloat16 *__restrict__ d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stcg(c + i, __ldcs(a + i));
  __stwb(d + i, __ldlu(b + i));
}
// Two 2-byte loads and two 2-byte stores a lane: 256 x 2 x 2 = 1024 B each
// way; each array's 512 B are 16 sectors, 32 each way.
// THREAD-LABEL: kernel halves(
// THREAD-NEXT: exact=true
// THREAD-NEXT: bytes.global.load=1024
// THREAD-NEXT: bytes.global.store=1024
// THREAD-NEXT: end
// WARP-LABEL: kernel halves(
// WARP-NEXT: warp.exact=true
// WARP-NEXT: footprint.global.load=1024
// WARP-NEXT: footprint.global.store=1024
// WARP-NEXT: sectors.global.load=32
// WARP-NEXT: sectors.global.store=32
// WARP-NEXT: warp_bytes.global.load=1024
// WARP-NEXT: warp_bytes.global.store=1024
// WARP-NEXT: end
