// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// stencil2d: one Jacobi sweep of a 5-point stencil on an m x n grid (row-major,
// n columns, m rows); only interior points are written:
//   out[j][i] = a * in[j][i] + b * (in[j][i-1] + in[j][i+1] + in[j-1][i] + in[j+1][i])
#include "common.h"
#include <cmath>

__global__ void stencil2d(int n, int m, float a, float b, const float *__restrict__ in,
                          float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; // column
  int j = blockIdx.y * blockDim.y + threadIdx.y; // row
  if (i > 0 && i < n - 1 && j > 0 && j < m - 1) {
    int c = j * n + i;
    out[c] = a * in[c] + b * (in[c - 1] + in[c + 1] + in[c - n] + in[c + n]);
  }
}

int main() {
  const int n = 1001, m = 999;
  const float a = 0.5f, b = 0.125f;
  float *h = (float *)malloc(n * m * sizeof(float));
  float *r = (float *)malloc(n * m * sizeof(float));
  for (int k = 0; k < n * m; ++k)
    h[k] = (float)(k % 11) - 5.0f;
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * m * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * m * sizeof(float)));
  CHECK(cudaMemcpy(din, h, n * m * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, n * m * sizeof(float)));
  dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
  stencil2d<<<grid, block>>>(n, m, a, b, din, dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(r, dout, n * m * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < n; ++i) {
      int c = j * n + i;
      float ref = 0.0f;
      if (i > 0 && i < n - 1 && j > 0 && j < m - 1)
        ref = a * h[c] + b * (h[c - 1] + h[c + 1] + h[c - n] + h[c + n]);
      if (fabsf(r[c] - ref) > 1e-5f && ++bad < 5)
        fprintf(stderr, "mismatch at (%d,%d): %f vs %f\n", j, i, r[c], ref);
    }
  timeLaunches("stencil2d", [&] { stencil2d<<<grid, block>>>(n, m, a, b, din, dout); });
  cudaFree(din);
  cudaFree(dout);
  free(h);
  free(r);
  if (bad) {
    printf("FAILED\n");
    return 1;
  }
  printf("OK\n");
  return 0;
}
