// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Packed half-precision elementwise kernels (n2 = number of packed pairs):
//   haxpy2:     y[i] = alpha * x[i] + y[i]            on __half2   (__hfma2)
//   bf16_axpby2: y[i] = alpha * x[i] + beta * y[i]    on __nv_bfloat162
//                                                      (__hmul2 + __hfma2)
// cuda_fp16.h / cuda_bf16.h implement these with inline PTX
// (fma.rn.f16x2, mul.bf16x2, fma.rn.bf16x2), one instruction for two lanes.
#include "common.h"
#include <cmath>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void haxpy2(int n2, float alpha, const __half2 *__restrict__ x,
                       __half2 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __half2 a = __float2half2_rn(alpha);
    y[i] = __hfma2(a, x[i], y[i]);
  }
}

__global__ void bf16_axpby2(int n2, float alpha, float beta, const __nv_bfloat162 *__restrict__ x,
                            __nv_bfloat162 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __nv_bfloat162 a = __float2bfloat162_rn(alpha);
    __nv_bfloat162 b = __float2bfloat162_rn(beta);
    y[i] = __hfma2(a, x[i], __hmul2(b, y[i]));
  }
}

int main() {
  const int n2 = 500001; // packed pairs
  const float alpha = 0.5f, beta = 2.0f;
  __half2 *hx = (__half2 *)malloc(n2 * sizeof(__half2));
  __half2 *hy = (__half2 *)malloc(n2 * sizeof(__half2));
  __nv_bfloat162 *bx = (__nv_bfloat162 *)malloc(n2 * sizeof(__nv_bfloat162));
  __nv_bfloat162 *by = (__nv_bfloat162 *)malloc(n2 * sizeof(__nv_bfloat162));
  // Small integers and halves: exact in f16 and bf16, so results are exact.
  for (int i = 0; i < n2; ++i) {
    float u = (float)(i % 9 - 4), v = (float)(i % 5);
    hx[i] = __floats2half2_rn(u, v);
    hy[i] = __floats2half2_rn(v, u);
    bx[i] = __floats2bfloat162_rn(u, v);
    by[i] = __floats2bfloat162_rn(v, u);
  }
  __half2 *dhx, *dhy;
  __nv_bfloat162 *dbx, *dby;
  CHECK(cudaMalloc(&dhx, n2 * sizeof(__half2)));
  CHECK(cudaMalloc(&dhy, n2 * sizeof(__half2)));
  CHECK(cudaMalloc(&dbx, n2 * sizeof(__nv_bfloat162)));
  CHECK(cudaMalloc(&dby, n2 * sizeof(__nv_bfloat162)));
  CHECK(cudaMemcpy(dhx, hx, n2 * sizeof(__half2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dhy, hy, n2 * sizeof(__half2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dbx, bx, n2 * sizeof(__nv_bfloat162), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dby, by, n2 * sizeof(__nv_bfloat162), cudaMemcpyHostToDevice));
  const int block = 256, grid = (n2 + block - 1) / block;
  haxpy2<<<grid, block>>>(n2, alpha, dhx, dhy);
  CHECK(cudaGetLastError());
  bf16_axpby2<<<grid, block>>>(n2, alpha, beta, dbx, dby);
  CHECK(cudaGetLastError());
  __half2 *ry = (__half2 *)malloc(n2 * sizeof(__half2));
  __nv_bfloat162 *rb = (__nv_bfloat162 *)malloc(n2 * sizeof(__nv_bfloat162));
  CHECK(cudaMemcpy(ry, dhy, n2 * sizeof(__half2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rb, dby, n2 * sizeof(__nv_bfloat162), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n2; ++i) {
    float u = (float)(i % 9 - 4), v = (float)(i % 5);
    float h0 = __low2float(ry[i]), h1 = __high2float(ry[i]);
    float b0 = __low2float(rb[i]), b1 = __high2float(rb[i]);
    if ((h0 != alpha * u + v || h1 != alpha * v + u || b0 != alpha * u + beta * v ||
         b1 != alpha * v + beta * u) &&
        ++bad < 5)
      fprintf(stderr, "mismatch at %d: %f %f %f %f\n", i, h0, h1, b0, b1);
  }
  timeLaunches("haxpy2", [&] { haxpy2<<<grid, block>>>(n2, alpha, dhx, dhy); });
  timeLaunches("bf16_axpby2", [&] { bf16_axpby2<<<grid, block>>>(n2, alpha, beta, dbx, dby); });
  cudaFree(dhx);
  cudaFree(dhy);
  cudaFree(dbx);
  cudaFree(dby);
  free(hx);
  free(hy);
  free(bx);
  free(by);
  free(ry);
  free(rb);
  if (bad) {
    printf("FAILED\n");
    return 1;
  }
  printf("OK\n");
  return 0;
}
