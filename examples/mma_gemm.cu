// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// mma_gemm: C = A * B on Tensor Cores with inline PTX
//   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// A is MxK half (row-major), B is given as Bt = B^T, NxK half (row-major, i.e.
// B column-major), C is MxN float (row-major). M % 16 == 0, N % 32 == 0,
// K % 16 == 0. One warp computes one 16x8 tile of C, looping over K in steps
// of 16; a block of 32x4 threads holds 4 warps side by side along N.
#include "common.h"
#include <cmath>
#include <cstdint>
#include <cuda_fp16.h>

#define WARPS_N 4

__global__ void mma_gemm(int M, int N, int K, const __half *__restrict__ A,
                         const __half *__restrict__ Bt, float *__restrict__ C) {
  int lane = threadIdx.x;                              // 0..31
  int row0 = blockIdx.y * 16;                          // tile row
  int col0 = (blockIdx.x * WARPS_N + threadIdx.y) * 8; // tile column
  int g = lane >> 2, t = lane & 3;                     // groupID, thread in group
  float c0 = 0.f, c1 = 0.f, c2 = 0.f, c3 = 0.f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    const __half *a = A + (size_t)(row0 + g) * K + k0 + 2 * t;
    const __half *b = Bt + (size_t)(col0 + g) * K + k0 + 2 * t;
    uint32_t a0 = *(const uint32_t *)(a);             // row g,   k 2t..2t+1
    uint32_t a1 = *(const uint32_t *)(a + 8 * K);     // row g+8, k 2t..2t+1
    uint32_t a2 = *(const uint32_t *)(a + 8);         // row g,   k 2t+8..
    uint32_t a3 = *(const uint32_t *)(a + 8 * K + 8); // row g+8, k 2t+8..
    uint32_t b0 = *(const uint32_t *)(b);             // col g,   k 2t..2t+1
    uint32_t b1 = *(const uint32_t *)(b + 8);         // col g,   k 2t+8..
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  float *c = C + (size_t)(row0 + g) * N + col0 + 2 * t;
  c[0] = c0;
  c[1] = c1;
  c[8 * N] = c2;
  c[8 * N + 1] = c3;
}

int main() {
  const int M = 128, N = 192, K = 320;
  __half *hA = (__half *)malloc(M * K * sizeof(__half));
  __half *hB = (__half *)malloc(N * K * sizeof(__half));
  float *hC = (float *)malloc(M * N * sizeof(float));
  for (int i = 0; i < M * K; ++i)
    hA[i] = __float2half((float)((i % 7) - 3) * 0.5f);
  for (int i = 0; i < N * K; ++i)
    hB[i] = __float2half((float)((i % 5) - 2) * 0.25f);
  __half *dA, *dB;
  float *dC;
  CHECK(cudaMalloc(&dA, M * K * sizeof(__half)));
  CHECK(cudaMalloc(&dB, N * K * sizeof(__half)));
  CHECK(cudaMalloc(&dC, M * N * sizeof(float)));
  CHECK(cudaMemcpy(dA, hA, M * K * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, hB, N * K * sizeof(__half), cudaMemcpyHostToDevice));
  dim3 block(32, WARPS_N), grid(N / (8 * WARPS_N), M / 16);
  mma_gemm<<<grid, block>>>(M, N, K, dA, dB, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hC, dC, M * N * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k)
        ref += (double)__half2float(hA[i * K + k]) * __half2float(hB[j * K + k]);
      if (fabs(hC[i * N + j] - ref) > 1e-3 * (fabs(ref) + 1.0) && ++bad < 5)
        fprintf(stderr, "mismatch at (%d,%d): %f vs %f\n", i, j, hC[i * N + j], ref);
    }
  timeLaunches("mma_gemm", [&] { mma_gemm<<<grid, block>>>(M, N, K, dA, dB, dC); });
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
