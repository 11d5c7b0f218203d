// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The install test's CUDA program: built with the installed plugin, not run.
#include <cstdio>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int N = 1 << 20;
  float *X, *Y;
  cudaMalloc(&X, N * sizeof(float));
  cudaMalloc(&Y, N * sizeof(float));
  saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, X, Y);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
