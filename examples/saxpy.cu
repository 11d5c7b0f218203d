// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// saxpy: y[i] = a*x[i] + y[i] for i < n (guarded 1D elementwise, f32).
#include "common.h"

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  const float a = 2.0f;
  float *hx = (float *)malloc(n * sizeof(float));
  float *hy = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)(i % 1000) * 0.5f;
    hy[i] = (float)(i % 7);
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice));
  const int block = 256;
  saxpy<<<(n + block - 1) / block, block>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float ref = a * ((float)(i % 1000) * 0.5f) + (float)(i % 7);
    if (hy[i] != ref && ++bad < 5)
      fprintf(stderr, "mismatch at %d: %f vs %f\n", i, hy[i], ref);
  }
  timeLaunches("saxpy", [&] { saxpy<<<(n + block - 1) / block, block>>>(n, a, dx, dy); });
  cudaFree(dx);
  cudaFree(dy);
  free(hx);
  free(hy);
  if (bad) {
    printf("FAILED (%d mismatches)\n", bad);
    return 1;
  }
  printf("OK\n");
  return 0;
}
