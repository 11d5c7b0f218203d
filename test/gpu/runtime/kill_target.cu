// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// kill_target.cu - the target of test/gpu/runtime/kill_test.sh: launches one
// small kernel again and again (synchronizing after each) and prints
// "completed N at T ms" to stdout every 100 launches, T measured from the
// first launch, so the test knows how many launches had completed by any
// moment. Modes (argv[1]): "run" (until killed or 600 s), "fault" (after
// argv[2] launches, a kernel writes through a null pointer: a device fault).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void axpy(float *y, const float *x, float a, int n, int *fault) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
  if (fault && i == 0)
    *(volatile int *)nullptr = *fault; // device fault: illegal address
}

int main(int argc, char **argv) {
  bool Fault = argc > 1 && !std::strcmp(argv[1], "fault");
  long FaultAt = argc > 2 ? std::atol(argv[2]) : 3000;
  const int N = 1 << 14;
  float *X, *Y;
  int *F;
  cudaMalloc(&X, N * sizeof(float));
  cudaMalloc(&Y, N * sizeof(float));
  cudaMalloc(&F, sizeof(int));
  cudaMemset(X, 0, N * sizeof(float));
  cudaMemset(Y, 0, N * sizeof(float));
  cudaMemset(F, 0, sizeof(int));
  auto T0 = std::chrono::steady_clock::now();
  for (long L = 1;; ++L) {
    bool Now = Fault && L == FaultAt;
    axpy<<<N / 256, 256>>>(Y, X, 1.5f, N, Now ? F : nullptr);
    cudaError_t E = cudaDeviceSynchronize();
    double Ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
    if (E != cudaSuccess) {
      std::printf("failed at launch %ld at %.0f ms: %s\n", L, Ms, cudaGetErrorString(E));
      std::fflush(stdout);
      return 3;
    }
    if (L % 100 == 0) {
      std::printf("completed %ld at %.0f ms\n", L, Ms);
      std::fflush(stdout);
    }
    if (Ms > 600000)
      return 0;
  }
}
