// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// sgemm_tiled: C = A * B in f32, A is MxK, B is KxN, C is MxN (row-major),
// M, N and K multiples of TILE. One TILE x TILE thread block per TILE x TILE
// block of C; the loop over K stages one tile of A and one of B in shared
// memory per step (K/TILE steps, bound by the argument K).
#include "common.h"
#include <cmath>

#define TILE 16

__global__ void sgemm_tiled(int M, int N, int K, const float *__restrict__ A,
                            const float *__restrict__ B, float *__restrict__ C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

int main() {
  const int M = 512, N = 384, K = 256;
  float *hA = (float *)malloc(M * K * sizeof(float));
  float *hB = (float *)malloc(K * N * sizeof(float));
  float *hC = (float *)malloc(M * N * sizeof(float));
  for (int i = 0; i < M * K; ++i)
    hA[i] = (float)((i % 13) - 6) * 0.125f;
  for (int i = 0; i < K * N; ++i)
    hB[i] = (float)((i % 7) - 3) * 0.5f;
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, M * K * sizeof(float)));
  CHECK(cudaMalloc(&dB, K * N * sizeof(float)));
  CHECK(cudaMalloc(&dC, M * N * sizeof(float)));
  CHECK(cudaMemcpy(dA, hA, M * K * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, K * N * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid(N / TILE, M / TILE);
  sgemm_tiled<<<grid, block>>>(M, N, K, dA, dB, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hC, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k)
        ref += (double)hA[i * K + k] * hB[k * N + j];
      if (fabs(hC[i * N + j] - ref) > 1e-3 * (fabs(ref) + 1.0) && ++bad < 5)
        fprintf(stderr, "mismatch at (%d,%d): %f vs %f\n", i, j, hC[i * N + j], ref);
    }
  timeLaunches("sgemm_tiled", [&] { sgemm_tiled<<<grid, block>>>(M, N, K, dA, dB, dC); });
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  free(hA);
  free(hB);
  free(hC);
  if (bad) {
    printf("FAILED\n");
    return 1;
  }
  printf("OK\n");
  return 0;
}
