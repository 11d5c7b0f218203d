// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// many_launches.cu - the cost benchmark of docs/validation/deep-learning.md:
// N rounds (default 100) of three small kernels (f32 fma, f64 add/mul, a
// strided copy), 3N launches in all; "exitrace": a second thread calls exit()
// while the main thread is inside a long kernel's launch (hardware-counter
// range open under kernel replay). "N sync": a cudaDeviceSynchronize after
// every launch (a program that waits for each kernel), for the per-launch
// host cost of test/gpu/runtime/launch-cost.sh.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unistd.h>

__global__ void fma_f32(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = y[i];
    for (int k = 0; k < 8; ++k)
      v = a * x[i] + v;
    y[i] = v;
  }
}

__global__ void addmul_f64(double *z, const double *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    z[i] = (x[i] + 1.0) * x[i];
}

__global__ void copy_strided(float *dst, const float *src, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] = src[(size_t(i) * stride) % n];
}

__global__ void spin(unsigned long long cycles, int *out) {
  unsigned long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = 1;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "100";
  const int n = 1 << 20;
  float *x, *y, *d;
  double *xd, *zd;
  int *o;
  cudaMalloc(&x, n * 4);
  cudaMalloc(&y, n * 4);
  cudaMalloc(&d, n * 4);
  cudaMalloc(&xd, n * 8);
  cudaMalloc(&zd, n * 8);
  cudaMalloc(&o, 1024 * 4);
  cudaMemset(x, 0, n * 4);
  cudaMemset(y, 0, n * 4);
  cudaMemset(xd, 0, n * 8);
  if (!strcmp(mode, "exitrace")) {
    std::thread t([] {
      usleep(300 * 1000);
      std::printf("many_launches: exiting while a kernel runs\n");
      std::fflush(stdout);
      exit(0);
    });
    t.detach();
    for (int r = 0; r < 50; ++r)
      spin<<<132, 32>>>(2000000000ull, o); // ~1 s per launch
    cudaDeviceSynchronize();
    return 0;
  }
  int rounds = atoi(mode);
  bool sync = argc > 2 && !strcmp(argv[2], "sync");
  for (int r = 0; r < rounds; ++r) {
    fma_f32<<<n / 256, 256>>>(y, x, 1.5f, n);
    if (sync)
      cudaDeviceSynchronize();
    addmul_f64<<<n / 256, 256>>>(zd, xd, n);
    if (sync)
      cudaDeviceSynchronize();
    copy_strided<<<n / 256, 256>>>(d, x, n, 33);
    if (sync)
      cudaDeviceSynchronize();
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("many_launches: %d launches: %s\n", 3 * rounds, cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
