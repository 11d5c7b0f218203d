// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert: FMA throughput on the CUDA cores (f64 DFMA, f32 FFMA, half2 HFMA2, bf162
// HFMA2.BF16), each kernel checking its own result. Compiled by clang 22 in CUDA mode for
// sm_80, sm_89 and sm_90a (ert/CMakeLists.txt); main.cpp calls bench_fma (ert_kernels.h).
#include "ert_common.cuh"

namespace ert {

// ---------------------------------------------------------------------------------------
// FMA on CUDA cores
// ---------------------------------------------------------------------------------------
template <typename T> struct FmaT;
template <> struct FmaT<double> {
  static __device__ __forceinline__ double fma(double x, double m, double c) {
    return __fma_rn(x, m, c);
  }
  static __device__ __forceinline__ double init(uint32_t h) { return 1.0 + (h & 1023) / 1024.0; }
  static constexpr int lanes = 1;
};
template <> struct FmaT<float> {
  static __device__ __forceinline__ float fma(float x, float m, float c) {
    return __fmaf_rn(x, m, c);
  }
  static __device__ __forceinline__ float init(uint32_t h) { return 1.0f + (h & 1023) / 1024.0f; }
  static constexpr int lanes = 1;
};
template <> struct FmaT<__half2> {
  static __device__ __forceinline__ __half2 fma(__half2 x, __half2 m, __half2 c) {
    return __hfma2(x, m, c);
  }
  static __device__ __forceinline__ __half2 init(uint32_t h) {
    return __floats2half2_rn(1.0f + (h & 255) / 256.0f, 1.0f + ((h >> 8) & 255) / 256.0f);
  }
  static constexpr int lanes = 2;
};
template <> struct FmaT<__nv_bfloat162> {
  static __device__ __forceinline__ __nv_bfloat162 fma(__nv_bfloat162 x, __nv_bfloat162 m,
                                                       __nv_bfloat162 c) {
    return __hfma2(x, m, c);
  }
  static __device__ __forceinline__ __nv_bfloat162 init(uint32_t h) {
    return __floats2bfloat162_rn(1.0f + (h & 63) / 64.0f, 1.0f + ((h >> 8) & 63) / 64.0f);
  }
  static constexpr int lanes = 2;
};

constexpr int FMA_CHAINS = 8;  // independent dependency chains per thread
constexpr int FMA_UNROLL = 32; // chain steps per loop iteration

// x <- x*m + c on FMA_CHAINS chains, iters*FMA_UNROLL steps each.
template <typename T>
__global__ void __launch_bounds__(256) k_fma(T *out, int iters, T m, T c, unsigned long long *clk) {
  ClockProbe cp;
  cp.start();
  const uint32_t gid = blockIdx.x * blockDim.x + threadIdx.x;
  T x[FMA_CHAINS];
#pragma unroll
  for (int j = 0; j < FMA_CHAINS; ++j)
    x[j] = FmaT<T>::init(mix32(gid * FMA_CHAINS + j));
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int u = 0; u < FMA_UNROLL; ++u)
#pragma unroll
      for (int j = 0; j < FMA_CHAINS; ++j)
        x[j] = FmaT<T>::fma(x[j], m, c);
  }
#pragma unroll
  for (int j = 0; j < FMA_CHAINS; ++j)
    out[(size_t)gid * FMA_CHAINS + j] = x[j];
  cp.stop(clk);
}

template <typename T>
static Bench bench_fma_t(double target_ms, int reps, T m_conv, T c_conv, T verify_m, T verify_c,
                         const char *tname) {
  const int threads = 256;
  const int blocks = g_dev.sm_count * 8; // 2048 threads per SM: one full wave
  const size_t nthreads = (size_t)threads * blocks;
  ensure_scratch(nthreads * FMA_CHAINS * sizeof(T));
  T *out = (T *)g_s.out;
  Bench r;
  // 1) Exactness check (f32/f64): a short launch with m, c that do not converge fast,
  //    compared bit for bit with std::fma on the host for a sample of threads.
  std::string check;
  bool ok = true;
  if constexpr (sizeof(T) == 4 && FmaT<T>::lanes == 1 || sizeof(T) == 8) {
    const int vit = 4;
    k_fma<T><<<blocks, threads>>>(out, vit, verify_m, verify_c, g_s.clk);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<T> h(nthreads * FMA_CHAINS);
    CK(cudaMemcpy(h.data(), out, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    size_t bad = 0, checked = 0;
    for (size_t t = 0; t < nthreads; t += 97) {
      for (int j = 0; j < FMA_CHAINS; ++j) {
        uint32_t hh = host_mix32((uint32_t)(t * FMA_CHAINS + j));
        T x = (T)1 + (T)(hh & 1023) / (T)1024;
        for (int s = 0; s < vit * FMA_UNROLL; ++s)
          x = std::fma(x, verify_m, verify_c);
        if (std::memcmp(&x, &h[t * FMA_CHAINS + j], sizeof(T)) != 0)
          ++bad;
        ++checked;
      }
    }
    ok = bad == 0;
    check = "exact vs host std::fma on " + std::to_string(checked) +
            " chains: " + std::to_string(bad) + " mismatches; ";
  }
  // 2) Timed launches with m=0.5, c=0.5: every chain converges to exactly 1.0.
  int iters = (int)std::min<long long>(calibrate(
                                           [&](long long it) {
                                             k_fma<T><<<blocks, threads>>>(out, (int)it, m_conv,
                                                                           c_conv, g_s.clk);
                                           },
                                           64, target_ms),
                                       1 << 30);
  iters = std::max(iters, 8);
  r.ms = time_median([&] { k_fma<T><<<blocks, threads>>>(out, iters, m_conv, c_conv, g_s.clk); },
                     reps);
  r.clock_mhz = read_clock_mhz();
  r.work = 2.0 * FmaT<T>::lanes * (double)nthreads * FMA_CHAINS * (double)iters * FMA_UNROLL;
  {
    std::vector<T> h(nthreads * FMA_CHAINS);
    CK(cudaMemcpy(h.data(), out, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (auto &v : h) {
      float a, b;
      if constexpr (FmaT<T>::lanes == 2) {
        float2 f;
        if constexpr (sizeof(T) == 4 && std::is_same<T, __half2>::value)
          f = __half22float2(v);
        else
          f = __bfloat1622float2(v);
        a = f.x;
        b = f.y;
      } else {
        a = (float)v;
        b = a;
      }
      if (a != 1.0f || b != 1.0f)
        ++bad;
    }
    check += std::string(tname) + " timed launch: " + std::to_string(h.size() * FmaT<T>::lanes) +
             " lanes converge to 1.0: " + std::to_string(bad) + " wrong";
    ok = ok && bad == 0;
  }
  r.verified = ok;
  r.check = check;
  return r;
}

Bench bench_fma(FmaType t, double target_ms, int reps) {
  switch (t) {
  case FmaType::f64:
    return bench_fma_t<double>(target_ms, reps, 0.5, 0.5, 0.9990234375, 0.0009765625, "f64");
  case FmaType::f32:
    return bench_fma_t<float>(target_ms, reps, 0.5f, 0.5f, 0.99902344f, 0.00097656f, "f32");
  case FmaType::f16x2: {
    __half2 h = __floats2half2_rn(0.5f, 0.5f);
    return bench_fma_t<__half2>(target_ms, reps, h, h, h, h, "half2");
  }
  case FmaType::bf16x2: {
    __nv_bfloat162 h = __floats2bfloat162_rn(0.5f, 0.5f);
    return bench_fma_t<__nv_bfloat162>(target_ms, reps, h, h, h, h, "bf162");
  }
  }
  throw CudaError("bad FmaType");
}

} // namespace ert
