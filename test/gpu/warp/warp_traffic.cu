// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The kernels of the warp-level lit tests (test/lit/cuda/warp-*.cu), launched
// on the GPU so that Nsight Compute's counters can be set beside the static
// model's predictions for the same binary (test/gpu/warp/run.sh,
// test/gpu/warp/compare.py). For each launch the program prints one line
//   LAUNCH <kernel> grid=X,Y,Z block=X,Y,Z <name>=<value> ...
// with every argument, pointers included, so `hroof static` can evaluate
// exactly that launch. Launch order = ncu's profiling order.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(X)                                                                                   \
  do {                                                                                             \
    cudaError_t E_ = (X);                                                                          \
    if (E_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s: %s\n", #X, cudaGetErrorString(E_));                                \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

__global__ void copy_f32(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
__global__ void copy_f4(const float4 *__restrict__ in, float4 *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(v.x + 1, v.y + 1, v.z + 1, v.w + 1);
}
__global__ void bcast(const float *__restrict__ in, float *__restrict__ out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[0];
}
__global__ void strided(const float *__restrict__ in, float *__restrict__ out, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * s];
}
__global__ void transpose(const float *__restrict__ in, float *__restrict__ out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x * 4 + threadIdx.y;
  out[x * h + y] = in[y * w + x];
}
__global__ void rows2d(const float *__restrict__ in, float *__restrict__ out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * w + x] = in[y * w + x] * 2.0f;
}
__global__ void strides(float *out, int s) {
  __shared__ float sm[128 * 33];
  sm[threadIdx.x * s] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = sm[threadIdx.x] + sm[0];
}
__global__ void colsum(const float *__restrict__ a, float *__restrict__ out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int r = 0; r < n; ++r)
    s += a[r * n + c];
  out[c] = s;
}
__global__ void window(const float *__restrict__ in, float *__restrict__ out, int k) {
  float s = 0;
  for (int j = 0; j < k; ++j)
    s += in[j + threadIdx.x];
  out[threadIdx.x] = s;
}
__global__ void gridstride(const float *__restrict__ in, float *__restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + 1.0f;
}
__global__ void gather(const int *__restrict__ idx, const float *__restrict__ in,
                       float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}

static void line(const char *K, dim3 G, dim3 B, const char *Args) {
  std::printf("LAUNCH %s grid=%u,%u,%u block=%u,%u,%u %s\n", K, G.x, G.y, G.z, B.x, B.y, B.z,
              Args);
}

int main() {
  const size_t N = 1 << 22; // floats per buffer: large enough for every launch
  float *A, *B;
  int *Idx;
  CHECK(cudaMalloc(&A, N * sizeof(float)));
  CHECK(cudaMalloc(&B, N * sizeof(float)));
  CHECK(cudaMalloc(&Idx, 4096 * sizeof(int)));
  CHECK(cudaMemset(A, 0, N * sizeof(float)));
  int HostIdx[4096];
  for (int I = 0; I < 4096; ++I)
    HostIdx[I] = (I * 37) % 4096;
  CHECK(cudaMemcpy(Idx, HostIdx, sizeof HostIdx, cudaMemcpyHostToDevice));
  char Buf[512];
  auto P = [](const void *X) { return (unsigned long long)X; };

  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx n=1000000", P(A), P(B));
  line("copy_f32", 2, 128, Buf);
  copy_f32<<<2, 128>>>(A, B, 1000000);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx n=1000000", P(A + 1), P(B));
  line("copy_f32", 2, 128, Buf); // base 4 bytes past a sector boundary
  copy_f32<<<2, 128>>>(A + 1, B, 1000000);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx n=100", P(A), P(B));
  line("copy_f32", 1, 128, Buf);
  copy_f32<<<1, 128>>>(A, B, 100);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx", P(A), P(B));
  line("copy_f4", 2, 128, Buf);
  copy_f4<<<2, 128>>>((const float4 *)A, (float4 *)B);
  line("bcast", 2, 128, Buf);
  bcast<<<2, 128>>>(A, B);
  for (int S : {2, 32}) {
    std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx s=%d", P(A), P(B), S);
    line("strided", 2, 128, Buf);
    strided<<<2, 128>>>(A, B, S);
  }
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx w=32 h=32", P(A), P(B));
  line("transpose", 2, 128, Buf);
  transpose<<<2, 128>>>(A, B, 32, 32);
  struct { dim3 Block; int W; } Rows[] = {{dim3(8, 16), 64}, {dim3(8, 16), 65}, {dim3(16, 8), 65}};
  for (auto R : Rows) {
    std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx w=%d", P(A), P(B), R.W);
    line("rows2d", dim3(1, 1), R.Block, Buf);
    rows2d<<<dim3(1, 1), R.Block>>>(A, B, R.W);
  }
  for (int S : {1, 2, 32, 33}) {
    std::snprintf(Buf, sizeof Buf, "out=%#llx s=%d", P(B), S);
    line("strides", 1, 128, Buf);
    strides<<<1, 128>>>(B, S);
  }
  std::snprintf(Buf, sizeof Buf, "a=%#llx out=%#llx n=64", P(A), P(B));
  line("colsum", 1, 64, Buf);
  colsum<<<1, 64>>>(A, B, 64);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx k=16", P(A), P(B));
  line("window", 1, 64, Buf);
  window<<<1, 64>>>(A, B, 16);
  std::snprintf(Buf, sizeof Buf, "in=%#llx out=%#llx n=1000", P(A), P(B));
  line("gridstride", 2, 128, Buf);
  gridstride<<<2, 128>>>(A, B, 1000);
  std::snprintf(Buf, sizeof Buf, "idx=%#llx in=%#llx out=%#llx", P(Idx), P(A), P(B));
  line("gather", 1, 64, Buf);
  gather<<<1, 64>>>(Idx, A, B);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGetLastError());
  std::printf("done\n");
  return 0;
}
