//===- printf_bytes.cu - what does device printf add to the counters? -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Two kernels do the same global load and store per thread; the first also
// calls printf with an int and a double (clang and nvcc pack them into a
// local-memory buffer and call vprintf, which the driver implements).
// Under Nsight Compute (test/gpu/counters/printf-bytes.sh) the SASS byte and
// instruction counters and the LSU sector counters show what vprintf adds
// beyond the buffer's local stores: the counting model's question of
// whether a call to vprintf may count nothing (docs/counting-model.md).
// 4 blocks of 64 threads, every thread prints once.
//
// Build: nvcc -gencode arch=compute_90,code=sm_90 -O2 -o printf_bytes printf_bytes.cu
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cuda_runtime.h>

__global__ void with_printf(float *Out, const float *In) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  float V = In[I];
  printf("%d %f\n", I, double(V));
  Out[I] = V;
}

__global__ void without_printf(float *Out, const float *In) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  Out[I] = In[I];
}

int main() {
  const int N = 256;
  float *In = nullptr, *Out = nullptr;
  if (cudaMalloc(&In, N * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&Out, N * sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "printf_bytes: cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(In, 0, N * sizeof(float));
  with_printf<<<N / 64, 64>>>(Out, In);
  without_printf<<<N / 64, 64>>>(Out, In);
  cudaError_t E = cudaDeviceSynchronize();
  fprintf(stderr, "printf_bytes: %s\n", cudaGetErrorString(E));
  return E == cudaSuccess ? 0 : 1;
}
