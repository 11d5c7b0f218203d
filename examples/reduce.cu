// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// reduce_sum: *out += sum(in[0..n)) in f32.
// Each thread accumulates a grid-stride loop over the input, the block then
// reduces its BLOCK partial sums in shared memory (tree, 8 levels for 256
// threads) and thread 0 adds the block's sum to *out with one atomicAdd.
#include "common.h"
#include <cmath>

#define BLOCK 256

__global__ void reduce_sum(const float *__restrict__ in, float *__restrict__ out, int n) {
  __shared__ float partial[BLOCK];
  unsigned tid = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += in[i];
  partial[tid] = acc;
  __syncthreads();
#pragma unroll
  for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, partial[0]);
}

int main() {
  const int n = 1000003;
  const int grid = 120;
  float *h = (float *)malloc(n * sizeof(float));
  double ref = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (float)((i % 17) - 8) * 0.25f;
    ref += h[i];
  }
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, sizeof(float)));
  CHECK(cudaMemcpy(din, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, sizeof(float)));
  reduce_sum<<<grid, BLOCK>>>(din, dout, n);
  CHECK(cudaGetLastError());
  float got = 0;
  CHECK(cudaMemcpy(&got, dout, sizeof(float), cudaMemcpyDeviceToHost));
  timeLaunches("reduce_sum", [&] { reduce_sum<<<grid, BLOCK>>>(din, dout, n); });
  cudaFree(din);
  cudaFree(dout);
  free(h);
  if (fabs(got - ref) > 1e-3 * (fabs(ref) + 1.0)) {
    printf("FAILED: got %f, expected %f\n", got, ref);
    return 1;
  }
  printf("OK\n");
  return 0;
}
