// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The CUDA runtime calls of a host-only build (clang --cuda-host-only) of
// test/gpu/warp/warp_traffic.cu, so its host side runs without a GPU
// (warp-expectations-host.test): device pointers are fake addresses, 1 MiB
// apart and aligned (as cudaMalloc's), copies and launches do nothing.
#include <cstddef>
#include <cstdint>
typedef int cudaError_t;
struct dim3s { unsigned x, y, z; };
static uint64_t Next = 0x7f0000000000ull;
extern "C" {
cudaError_t cudaMalloc(void **P, size_t N) { *P = (void *)Next; Next += (N + 0xfffff) & ~size_t(0xfffff); return 0; }
cudaError_t cudaMemcpy(void *, const void *, size_t, int) { return 0; }
cudaError_t cudaMemset(void *, int, size_t) { return 0; }
cudaError_t cudaDeviceSynchronize() { return 0; }
cudaError_t cudaGetLastError() { return 0; }
const char *cudaGetErrorString(cudaError_t) { return "stub"; }
cudaError_t cudaLaunchKernel(const void *, dim3s, dim3s, void **, size_t, void *) { return 0; }
unsigned __cudaPushCallConfiguration(dim3s, dim3s, size_t, void *) { return 0; }
cudaError_t __cudaPopCallConfiguration(dim3s *, dim3s *, size_t *, void *) { return 0; }
}
