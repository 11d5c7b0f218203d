// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Expansion model of special operations: one kernel per operation, each
// thread doing exactly one of it on a normal input (no slow paths). Nsight
// Compute's thread-level FLOP metrics of the plain build, minus the FLOPs the
// IR itself has (hroof static at the same launch), divided by the number of
// operations, is the operation's expansion in executed FLOPs.
//
//   build here:   bash test/gpu/expansion/build.sh
//   On the machine with the GPU:  bash test/gpu/expansion/run.sh   (writes $OUT/expansion.json)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define K(name, T, expr)                                                                           \
  __global__ void name(int n, const T *__restrict__ a, const T *__restrict__ b,                    \
                       T *__restrict__ y) {                                                        \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) {                                                                                   \
      T x = a[i], z = b[i];                                                                        \
      (void)z;                                                                                     \
      y[i] = (expr);                                                                               \
    }                                                                                              \
  }

K(div_f32, float, x / z)
K(sqrt_f32, float, sqrtf(x))
K(rcp_f32, float, __frcp_rn(x))
K(rsqrt_f32, float, rsqrtf(x))
K(ex2_f32, float, exp2f(x))
K(div_f64, double, x / z)
K(sqrt_f64, double, sqrt(x))
K(rcp_f64, double, __drcp_rn(x))

template <typename T> static void run(void (*k)(int, const T *, const T *, T *), int n) {
  T *h = (T *)malloc(sizeof(T) * n);
  for (int i = 0; i < n; ++i)
    h[i] = T(1.25) + T(i % 1000) / T(1000); // normal values in [1.25, 2.25)
  T *a, *b, *y;
  cudaMalloc(&a, sizeof(T) * n);
  cudaMalloc(&b, sizeof(T) * n);
  cudaMalloc(&y, sizeof(T) * n);
  cudaMemcpy(a, h, sizeof(T) * n, cudaMemcpyHostToDevice);
  cudaMemcpy(b, h, sizeof(T) * n, cudaMemcpyHostToDevice);
  k<<<(n + 255) / 256, 256>>>(n, a, b, y);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    fprintf(stderr, "expansion: %s\n", cudaGetErrorString(e));
    exit(1);
  }
  cudaFree(a);
  cudaFree(b);
  cudaFree(y);
  free(h);
}

int main() {
  const int n = 1000003; // launch: grid 3907, block 256
  run(div_f32, n);
  run(sqrt_f32, n);
  run(rcp_f32, n);
  run(rsqrt_f32, n);
  run(ex2_f32, n);
  run(div_f64, n);
  run(sqrt_f64, n);
  run(rcp_f64, n);
  printf("expansion: OK\n");
  return 0;
}
