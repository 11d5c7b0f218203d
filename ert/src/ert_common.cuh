// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert: what the benchmark kernels share (ert_fma.cu, ert_tensor.cu, ert_memory.cu,
// ert_device.cu): the CUDA error check, the device helpers (hash, timer, clock probe),
// the device-side scratch, and the launch timing and calibration templates.
// Internal to the CUDA sources; the host interface is ert_kernels.h.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ert_kernels.h"

namespace ert {

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess)                                                                         \
      throw CudaError(std::string(#x) + ": " + cudaGetErrorName(e_) + ": " +                       \
                      cudaGetErrorString(e_));                                                     \
  } while (0)

// The device open_device opened (ert_device.cu).
extern DeviceInfo g_dev;

// ---------------------------------------------------------------------------------------
// Shared device helpers
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
__device__ __forceinline__ uint64_t gtimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
// Clock probe: thread 0 of every block reads clock64() and %globaltimer at its start and
// end; clk[0] = the longest block's duration in SM cycles, clk[1] = the longest in ns.
// (Warp schedulers favour older warps, so with several blocks per SM the first blocks finish
// early: only the longest-running block spans the whole launch.)
struct ClockProbe {
  long long c0;
  uint64_t g0;
  __device__ __forceinline__ void start() {
    c0 = clock64();
    g0 = gtimer();
  }
  __device__ __forceinline__ void stop(unsigned long long *clk) {
    long long c1 = clock64();
    uint64_t g1 = gtimer();
    if (threadIdx.x == 0) {
      atomicMax(clk, (unsigned long long)(c1 - c0));
      atomicMax(clk + 1, (unsigned long long)(g1 - g0));
    }
  }
};

// Device-side scratch shared by all benchmarks.
struct Scratch {
  unsigned long long *clk = nullptr; // [2]
  unsigned long long *cnt = nullptr; // [4] counters (mismatches, sums)
  void *out = nullptr;               // per-thread outputs
  size_t out_bytes = 0;
};
extern Scratch g_s;
void ensure_scratch(size_t out_bytes);
extern double g_last_ms; // event time of the last launch time_median timed
// SM clock during the timed launches: the longest block's clock64() cycles over its
// %globaltimer nanoseconds (MHz = cycles / us).
double read_clock_mhz();
void zero_counters();
void read_counters(unsigned long long *h);

// Times `launch` (one kernel launch per call): one warm-up, then `reps` launches timed one
// by one with events; returns the median in ms.
template <class F> inline double time_median(F &&launch, int reps) {
  if (g_s.clk)
    CK(cudaMemset(g_s.clk, 0, 16));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<double> v;
  for (int r = 0; r < reps; ++r) {
    CK(cudaEventRecord(a));
    launch();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    v.push_back(ms);
  }
  g_last_ms = v.back();
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Picks an iteration count so that one launch lasts about target_ms, from a probe launch.
template <class F>
inline long long calibrate(F &&launch_iters, long long probe_iters, double target_ms) {
  launch_iters(probe_iters); // warm-up (module load)
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a));
  launch_iters(probe_iters);
  CK(cudaEventRecord(b));
  CK(cudaEventSynchronize(b));
  CK(cudaGetLastError());
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, a, b));
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  double scale = target_ms / std::max(ms, 0.001f);
  long long it = (long long)(probe_iters * scale);
  return std::max<long long>(it, 1);
}

// The host copy of mix32 (the FMA check recomputes the kernel's seeds).
inline uint32_t host_mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

} // namespace ert
