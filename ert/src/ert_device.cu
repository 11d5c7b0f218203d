// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert: the device, the scratch every benchmark uses, and the small helpers of
// ert_kernels.h (random fill, allocation, the ncu probe launches). Compiled by clang 22 in
// CUDA mode with the other kernel files (ert/CMakeLists.txt).
#include "ert_common.cuh"

#include <dlfcn.h>

namespace ert {

DeviceInfo g_dev;
static int g_device = 0;

DeviceInfo open_device(int device) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e == cudaErrorInsufficientDriver && !dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD) &&
      !dlopen("libcuda.so.1", RTLD_LAZY)) // the static runtime's name for no driver at all
    throw CudaError(std::string("no CUDA driver here (libcuda.so.1: ") + dlerror() +
                    "); run hroof-ert on a machine with an NVIDIA GPU and its driver");
  if (e != cudaSuccess || n == 0)
    throw CudaError(std::string("no CUDA device found (") +
                    (e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0") + ")");
  if (device < 0 || device >= n)
    throw CudaError("device " + std::to_string(device) + " does not exist (" + std::to_string(n) +
                    " device(s))");
  CK(cudaSetDevice(device));
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, device));
  DeviceInfo d;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = p.l2CacheSize;
  d.global_mem = p.totalGlobalMem;
  d.smem_per_block_optin = (int)p.sharedMemPerBlockOptin;
  d.smem_per_sm = (int)p.sharedMemPerMultiprocessor;
  cudaDeviceGetAttribute(&d.clock_khz_attr, cudaDevAttrClockRate, device);
  cudaDeviceGetAttribute(&d.mem_clock_khz_attr, cudaDevAttrMemoryClockRate, device);
  cudaDeviceGetAttribute(&d.mem_bus_width, cudaDevAttrGlobalMemoryBusWidth, device);
  CK(cudaFree(nullptr));
  g_dev = d;
  g_device = device;
  return d;
}

Scratch g_s;
void ensure_scratch(size_t out_bytes) {
  if (!g_s.clk) {
    CK(cudaMalloc(&g_s.clk, 16));
    CK(cudaMalloc(&g_s.cnt, 32));
  }
  if (g_s.out_bytes < out_bytes) {
    if (g_s.out)
      CK(cudaFree(g_s.out));
    CK(cudaMalloc(&g_s.out, out_bytes));
    g_s.out_bytes = out_bytes;
  }
}
double g_last_ms = 0;
double read_clock_mhz() {
  unsigned long long h[2];
  CK(cudaMemcpy(h, g_s.clk, 16, cudaMemcpyDeviceToHost));
  return h[1] ? (double)h[0] / (double)h[1] * 1e3 : 0.0;
}
void zero_counters() { CK(cudaMemset(g_s.cnt, 0, 32)); }
void read_counters(unsigned long long *h) {
  CK(cudaMemcpy(h, g_s.cnt, 32, cudaMemcpyDeviceToHost));
}

__global__ void k_fill_random(void *p, size_t n, int kind, uint32_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    uint32_t h = mix32((uint32_t)i * 2654435761u ^ seed ^ (uint32_t)(i >> 32));
    float f = (float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
    switch (kind) {
    case 0:
      ((double *)p)[i] = f;
      break;
    case 1:
      ((float *)p)[i] = f;
      break;
    case 2:
      ((__half *)p)[i] = __float2half(f);
      break;
    case 3:
      ((__nv_bfloat16 *)p)[i] = __float2bfloat16(f);
      break;
    default:
      ((uint8_t *)p)[i] = (uint8_t)(h & 0xBF);
      break; // exponent <= 7: |x| < 1
    }
  }
}
void fill_random(void *p, size_t n, int kind, uint32_t seed) {
  k_fill_random<<<g_dev.sm_count * 4, 1024>>>(p, n, kind, seed);
  CK(cudaGetLastError());
}
void *device_alloc(size_t bytes) {
  void *p = nullptr;
  CK(cudaMalloc(&p, bytes));
  return p;
}
void device_free(void *p) { cudaFree(p); }
void device_sync() { CK(cudaDeviceSynchronize()); }

void probe_kernels() {
  bench_fma(FmaType::f32, 1, 1);
  bench_fma(FmaType::f64, 1, 1);
  bench_l1(64 << 10, 1, 1);
  bench_global_read(8 << 20, 1, 1, 0);
  CK(cudaDeviceSynchronize());
}

} // namespace ert
