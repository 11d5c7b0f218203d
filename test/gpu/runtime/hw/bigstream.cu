// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Working sets far larger than the H100's 50 MB L2, so L2 and HBM traffic
// are set by the kernel, not by what a profiler's replay leaves in cache:
// the cross-check of hroof's L2/DRAM counters against Nsight Compute.
//   saxpy_big:  y = a*x + y over 2^26 floats (512 MB moved)
//   copy_big:   y = x over 2^26 floats
#include <cstdio>
#include <cuda_runtime.h>

__global__ void saxpy_big(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
__global__ void copy_big(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i];
}

int main() {
  const int n = 1 << 26;
  float *x, *y;
  if (cudaMalloc(&x, sizeof(float) * n) || cudaMalloc(&y, sizeof(float) * n)) {
    fprintf(stderr, "bigstream: cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(x, 0, sizeof(float) * n);
  cudaMemset(y, 0, sizeof(float) * n);
  saxpy_big<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  copy_big<<<(n + 255) / 256, 256>>>(n, x, y);
  cudaError_t e = cudaDeviceSynchronize();
  printf("bigstream: %s\n", e == cudaSuccess ? "OK" : cudaGetErrorString(e));
  return e != cudaSuccess;
}
