// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert: Tensor Core throughput: Hopper wgmma m64n256 (sm_90a, A from shared memory or
// registers) and warp-level mma.sync (sm_80+, fp8 sm_89+, DMMA for f64), each kernel
// checking its own result. Compiled by clang 22 in CUDA mode for sm_80, sm_89 and sm_90a
// (ert/CMakeLists.txt); main.cpp calls bench_wgmma, bench_mma_sync, bench_dmma_m16n8k16.
#include "ert_common.cuh"
#include "wgmma_gen.h"

namespace ert {

// ---------------------------------------------------------------------------------------
// Tensor Cores: wgmma (sm_90a)
// ---------------------------------------------------------------------------------------
constexpr int WG_UNROLL = 8;           // wgmma per commit group
constexpr int WG_SMEM_DYN = 120 << 10; // > half an SM's shared memory: one block per SM

// Values for the ones check (every product 1) and masks for random data in [0.5, 1) with
// random sign (no inf/NaN), per 32-bit word.
__device__ __forceinline__ uint32_t tc_word(int t, int mode, uint32_t h) {
  if (mode == 1) {
    switch (t) {
    case 0:
      return 0x3C003C00u; // f16 1.0 x2
    case 1:
      return 0x3F803F80u; // bf16 1.0 x2
    case 2:
      return 0x3F800000u; // tf32 1.0
    case 3:
      return 0x38383838u; // e4m3 1.0 x4
    default:
      return 0x01010101u; // s8 1 x4
    }
  }
  switch (t) {
  case 0:
    return (h & 0x83FF83FFu) | 0x38003800u;
  case 1:
    return (h & 0x807F807Fu) | 0x3F003F00u;
  case 2:
    return (h & 0x807FE000u) | 0x3F000000u;
  case 3:
    return (h & 0x87878787u) | 0x30303030u;
  default:
    return h;
  }
}

__device__ __forceinline__ uint64_t smem_desc(const void *p, uint32_t lbo, uint32_t sbo) {
  uint32_t a = (uint32_t)__cvta_generic_to_shared(p);
  uint64_t d = 0;
  d |= (uint64_t)((a & 0x3FFFF) >> 4);
  d |= (uint64_t)((lbo & 0x3FFFF) >> 4) << 16;
  d |= (uint64_t)((sbo & 0x3FFFF) >> 4) << 32;
  // base offset 0, layout type 0 (no swizzle)
  return d;
}

template <int T, bool RS>
__device__ __forceinline__ void wg_mma(float (&d)[128], uint32_t (&di)[128], const uint32_t (&a)[4],
                                       uint64_t da, uint64_t db) {
  if constexpr (T == 0) {
    if constexpr (RS)
      wgmma_m64n256k16_f16_rs(d, a, db);
    else
      wgmma_m64n256k16_f16_ss(d, da, db);
  }
  if constexpr (T == 1) {
    if constexpr (RS)
      wgmma_m64n256k16_bf16_rs(d, a, db);
    else
      wgmma_m64n256k16_bf16_ss(d, da, db);
  }
  if constexpr (T == 2) {
    if constexpr (RS)
      wgmma_m64n256k8_tf32_rs(d, a, db);
    else
      wgmma_m64n256k8_tf32_ss(d, da, db);
  }
  if constexpr (T == 3) {
    if constexpr (RS)
      wgmma_m64n256k32_e4m3_rs(d, a, db);
    else
      wgmma_m64n256k32_e4m3_ss(d, da, db);
  }
  if constexpr (T == 4) {
    if constexpr (RS)
      wgmma_m64n256k32_s8_rs(di, a, db);
    else
      wgmma_m64n256k32_s8_ss(di, da, db);
  }
}

template <int T, bool RS>
__global__ void __launch_bounds__(256, 1)
    k_wgmma(int iters, int mode, float expect, unsigned long long *cnt, unsigned long long *clk,
            float *sink) {
#ifdef HROOF_HAVE_WGMMA
  extern __shared__ __align__(1024) uint8_t smem[];
  constexpr int TILE_BYTES = 10240; // A: 2 KB at 0, B: 8 KB at 2048 (no-swizzle K-major)
  uint32_t *s32 = reinterpret_cast<uint32_t *>(smem);
  for (int i = threadIdx.x; i < TILE_BYTES / 4; i += blockDim.x)
    s32[i] = tc_word(T, mode, mix32(blockIdx.x * 4096u + i));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint64_t da = smem_desc(smem, 128, 256);
  const uint64_t db = smem_desc(smem + 2048, 128, 256);
  uint32_t a[4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a[i] = tc_word(T, mode, mix32(threadIdx.x * 4 + i + 77));
  float d[128];
  uint32_t di[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) {
    d[i] = 0.f;
    di[i] = 0;
  }
#pragma unroll
  for (int i = 0; i < 128; ++i) {
    if constexpr (T == 4)
      asm volatile("" : "+r"(di[i])::"memory");
    else
      asm volatile("" : "+f"(d[i])::"memory");
  }
  ClockProbe cp;
  cp.start();
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < WG_UNROLL; ++u)
      wg_mma<T, RS>(d, di, a, da, db);
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
#pragma unroll
  for (int i = 0; i < 128; ++i) {
    if constexpr (T == 4)
      asm volatile("" : "+r"(di[i])::"memory");
    else
      asm volatile("" : "+f"(d[i])::"memory");
  }
  cp.stop(clk);
  if (mode == 1) {
    unsigned bad = 0;
#pragma unroll
    for (int i = 0; i < 128; ++i) {
      float v = (T == 4) ? (float)(int)di[i] : d[i];
      bad += (v != expect);
    }
    if (bad)
      atomicAdd(cnt, (unsigned long long)bad);
  } else {
    float s = 0;
#pragma unroll
    for (int i = 0; i < 128; ++i)
      s += (T == 4) ? (float)(int)di[i] : d[i];
    if (s == 1234.5f)
      sink[0] = s; // keeps the accumulators live
  }
#else
  __trap();
#endif
}

bool wgmma_supported() {
#if defined(__CUDA__)
  if (g_dev.cc_major != 9)
    return false;
  cudaFuncAttributes fa{};
  return cudaFuncGetAttributes(&fa, k_wgmma<0, false>) == cudaSuccess && fa.binaryVersion >= 90;
#else
  return false;
#endif
}

static int tc_k(TcType t) {
  switch (t) {
  case TcType::f16:
  case TcType::bf16:
    return 16;
  case TcType::tf32:
    return 8;
  default:
    return 32;
  }
}

template <int T, bool RS> static Bench bench_wgmma_t(int wg, double target_ms, int reps, int K) {
  auto kern = k_wgmma<T, RS>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, WG_SMEM_DYN));
  ensure_scratch(1024);
  const int blocks = g_dev.sm_count, threads = 128 * wg;
  float *sink = (float *)g_s.out;
  Bench r;
  // Check launch: all-ones operands; every accumulator must equal iters*WG_UNROLL*K.
  {
    const int vit = 16;
    const float expect = (float)vit * WG_UNROLL * K;
    zero_counters();
    kern<<<blocks, threads, WG_SMEM_DYN>>>(vit, 1, expect, g_s.cnt, g_s.clk, sink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned long long h[4];
    read_counters(h);
    r.verified = h[0] == 0;
    r.check = "ones operands, " + std::to_string(vit * WG_UNROLL) +
              " wgmma per warpgroup: " + std::to_string((size_t)blocks * threads * 128) +
              " accumulators == " + std::to_string((long long)expect) + ", " +
              std::to_string(h[0]) + " wrong";
  }
  // Timed launches: random operands in [0.5, 1) with random signs (no NaN/inf).
  long long iters = calibrate(
      [&](long long it) {
        kern<<<blocks, threads, WG_SMEM_DYN>>>((int)it, 0, 0.f, g_s.cnt, g_s.clk, sink);
      },
      64, target_ms);
  r.ms = time_median(
      [&] { kern<<<blocks, threads, WG_SMEM_DYN>>>((int)iters, 0, 0.f, g_s.cnt, g_s.clk, sink); },
      reps);
  r.clock_mhz = read_clock_mhz();
  r.work = 2.0 * 64 * 256 * K * (double)iters * WG_UNROLL * wg * blocks;
  return r;
}

Bench bench_wgmma(TcType t, bool rs, int wg, double target_ms, int reps) {
  int K = tc_k(t);
  switch (t) {
  case TcType::f16:
    return rs ? bench_wgmma_t<0, true>(wg, target_ms, reps, K)
              : bench_wgmma_t<0, false>(wg, target_ms, reps, K);
  case TcType::bf16:
    return rs ? bench_wgmma_t<1, true>(wg, target_ms, reps, K)
              : bench_wgmma_t<1, false>(wg, target_ms, reps, K);
  case TcType::tf32:
    return rs ? bench_wgmma_t<2, true>(wg, target_ms, reps, K)
              : bench_wgmma_t<2, false>(wg, target_ms, reps, K);
  case TcType::fp8:
    return rs ? bench_wgmma_t<3, true>(wg, target_ms, reps, K)
              : bench_wgmma_t<3, false>(wg, target_ms, reps, K);
  case TcType::int8:
    return rs ? bench_wgmma_t<4, true>(wg, target_ms, reps, K)
              : bench_wgmma_t<4, false>(wg, target_ms, reps, K);
  default:
    throw CudaError("wgmma has no f64 form; use mma.sync (DMMA)");
  }
}

// ---------------------------------------------------------------------------------------
// Tensor Cores: warp-level mma.sync (sm_80+, fp8 sm_89+) and DMMA m8n8k4 (f64)
// ---------------------------------------------------------------------------------------
constexpr int MMA_CHAINS = 4;
// DMMA m16n8k16 (T 6) keeps 2 chains: with 4, ptxas spills around the 16-register A operand.
__host__ __device__ constexpr int mma_chains(int t) { return t == 6 ? 2 : MMA_CHAINS; }
constexpr int MMA_UNROLL = 8;

template <int T>
__device__ __forceinline__ void mma_one(float (&d)[4], uint32_t (&di)[4], double (&dd)[4],
                                        const uint32_t (&a)[4], const uint32_t (&b)[2], double ad,
                                        double bd, const double (&a8)[8], const double (&b4)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (T == 0)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  if constexpr (T == 1)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  if constexpr (T == 2)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#if __CUDA_ARCH__ >= 890
  if constexpr (T == 3)
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#else
  if constexpr (T == 3)
    __trap();
#endif
  if constexpr (T == 4)
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(di[0]), "+r"(di[1]), "+r"(di[2]), "+r"(di[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  if constexpr (T == 5)
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(dd[0]), "+d"(dd[1])
                 : "d"(ad), "d"(bd));
#if __CUDA_ARCH__ >= 900
  if constexpr (T == 6) // sm_90 DMMA shape: A 8 f64, B 4 f64, C/D 4 f64 per thread
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};"
                 : "+d"(dd[0]), "+d"(dd[1]), "+d"(dd[2]), "+d"(dd[3])
                 : "d"(a8[0]), "d"(a8[1]), "d"(a8[2]), "d"(a8[3]), "d"(a8[4]), "d"(a8[5]),
                   "d"(a8[6]), "d"(a8[7]), "d"(b4[0]), "d"(b4[1]), "d"(b4[2]), "d"(b4[3]));
#else
  if constexpr (T == 6)
    __trap();
#endif
#else
  __trap();
#endif
}

template <int T>
__global__ void __launch_bounds__(256)
    k_mma(int iters, int mode, float expect, unsigned long long *cnt, unsigned long long *clk,
          float *sink) {
  constexpr int NCH = mma_chains(T);
  uint32_t a[4], b[2];
  const uint32_t tid = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a[i] = tc_word(T >= 5 ? 0 : T, mode, mix32(tid * 8 + i));
#pragma unroll
  for (int i = 0; i < 2; ++i)
    b[i] = tc_word(T >= 5 ? 0 : T, mode, mix32(tid * 8 + 4 + i));
  double ad = mode == 1 ? 1.0 : 0.5 + (mix32(tid) & 1023) / 2048.0;
  double bd = mode == 1 ? 1.0 : -0.5 - (mix32(tid + 99) & 1023) / 2048.0;
  double a8[8], b4[4]; // distinct registers for the m16n8k16 DMMA operands
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    a8[i] = ad;
    asm volatile("" : "+d"(a8[i]));
  }
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    b4[i] = bd;
    asm volatile("" : "+d"(b4[i]));
  }
  float d[NCH][4];
  uint32_t di[NCH][4];
  double dd[NCH][4];
#pragma unroll
  for (int c = 0; c < NCH; ++c)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      d[c][i] = 0;
      di[c][i] = 0;
      dd[c][i] = 0;
    }
  ClockProbe cp;
  cp.start();
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int u = 0; u < MMA_UNROLL; ++u)
#pragma unroll
      for (int c = 0; c < NCH; ++c)
        mma_one<T>(d[c], di[c], dd[c], a, b, ad, bd, a8, b4);
  }
  cp.stop(clk);
  unsigned bad = 0;
  float s = 0;
#pragma unroll
  for (int c = 0; c < NCH; ++c)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      float v = T == 4   ? (float)(int)di[c][i]
                : T == 5 ? (i < 2 ? (float)dd[c][i] : expect)
                : T == 6 ? (float)dd[c][i]
                         : d[c][i];
      bad += (v != expect);
      s += v;
    }
  if (mode == 1) {
    if (bad)
      atomicAdd(cnt, (unsigned long long)bad);
  } else if (s == 1234.5f) {
    sink[0] = s;
  }
}

template <int T> static Bench bench_mma_t(double target_ms, int reps, int K, int M, int N) {
  ensure_scratch(1024);
  const int threads = 256, blocks = g_dev.sm_count * 4;
  float *sink = (float *)g_s.out;
  Bench r;
  {
    const int vit = 16;
    const float expect = (float)vit * MMA_UNROLL * K;
    zero_counters();
    k_mma<T><<<blocks, threads>>>(vit, 1, expect, g_s.cnt, g_s.clk, sink);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned long long h[4];
    read_counters(h);
    r.verified = h[0] == 0;
    r.check = "ones operands, " + std::to_string(vit * MMA_UNROLL) +
              " mma per chain: accumulators == " + std::to_string((long long)expect) + ", " +
              std::to_string(h[0]) + " wrong";
  }
  long long iters = calibrate(
      [&](long long it) { k_mma<T><<<blocks, threads>>>((int)it, 0, 0.f, g_s.cnt, g_s.clk, sink); },
      64, target_ms);
  r.ms = time_median(
      [&] { k_mma<T><<<blocks, threads>>>((int)iters, 0, 0.f, g_s.cnt, g_s.clk, sink); }, reps);
  r.clock_mhz = read_clock_mhz();
  const double warps = (double)blocks * threads / 32;
  r.work = 2.0 * M * N * K * warps * (double)iters * MMA_UNROLL * mma_chains(T);
  return r;
}

Bench bench_mma_sync(TcType t, double target_ms, int reps) {
  switch (t) {
  case TcType::f16:
    return bench_mma_t<0>(target_ms, reps, 16, 16, 8);
  case TcType::bf16:
    return bench_mma_t<1>(target_ms, reps, 16, 16, 8);
  case TcType::tf32:
    return bench_mma_t<2>(target_ms, reps, 8, 16, 8);
  case TcType::fp8:
    // sm_90 has no fp8 mma.sync in hardware: ptxas emulates it (no QMMA in the sm_90a SASS;
    // with loop-invariant operands the emulation reduces to FADDs), so it is not timed there.
    if (g_dev.cc_major * 10 + g_dev.cc_minor != 89)
      throw CudaError("fp8 mma.sync is timed on sm_89 only");
    return bench_mma_t<3>(target_ms, reps, 32, 16, 8);
  case TcType::int8:
    return bench_mma_t<4>(target_ms, reps, 32, 16, 8);
  case TcType::f64:
    return bench_mma_t<5>(target_ms, reps, 4, 8, 8);
  }
  throw CudaError("bad TcType");
}
Bench bench_dmma_m16n8k16(double target_ms, int reps) {
  if (g_dev.cc_major < 9)
    throw CudaError("DMMA m16n8k16 needs sm_90");
  return bench_mma_t<6>(target_ms, reps, 16, 16, 8);
}

} // namespace ert
