//===- tex_bytes.cu - do texture fetches count as global bytes? ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One kernel reads a 2D float4 texture (tex2D, a TEX instruction) and
// writes what it read with a plain global store; a second reads the same
// floats with plain global loads. Under Nsight Compute
// (test/gpu/counters/tex-bytes.sh) the SASS byte counters
// (sm__sass_data_bytes_mem_global_op_{ld,st}.sum) and the LSU sector
// counters (l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum) show whether
// a texture fetch is part of the quantities hroof compares (bytes.*,
// sectors.*), or only of the texture pipe's (l1tex__t_sectors_pipe_tex*).
// W x H = 1024 x 1024 texels of 16 bytes, one thread a texel.
//
// Build: nvcc -gencode arch=compute_90,code=sm_90 -O2 -o tex_bytes tex_bytes.cu
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cuda_runtime.h>

constexpr int W = 1024, H = 1024;

__global__ void tex_read(float4 *Out, cudaTextureObject_t Tex) {
  int X = blockIdx.x * blockDim.x + threadIdx.x, Y = blockIdx.y;
  Out[Y * W + X] = tex2D<float4>(Tex, X + 0.5f, Y + 0.5f);
}

__global__ void global_read(float4 *Out, const float4 *In) {
  int X = blockIdx.x * blockDim.x + threadIdx.x, Y = blockIdx.y;
  Out[Y * W + X] = In[Y * W + X];
}

int main() {
  cudaChannelFormatDesc Desc = cudaCreateChannelDesc<float4>();
  cudaArray_t Arr = nullptr;
  float4 *In = nullptr, *Out = nullptr;
  if (cudaMallocArray(&Arr, &Desc, W, H) != cudaSuccess ||
      cudaMalloc(&In, sizeof(float4) * W * H) != cudaSuccess ||
      cudaMalloc(&Out, sizeof(float4) * W * H) != cudaSuccess) {
    fprintf(stderr, "tex_bytes: allocation failed\n");
    return 1;
  }
  cudaMemset(In, 0, sizeof(float4) * W * H);
  cudaMemcpy2DToArray(Arr, 0, 0, In, W * sizeof(float4), W * sizeof(float4), H,
                      cudaMemcpyDeviceToDevice);
  cudaResourceDesc Res = {};
  Res.resType = cudaResourceTypeArray;
  Res.res.array.array = Arr;
  cudaTextureDesc TD = {};
  TD.addressMode[0] = TD.addressMode[1] = cudaAddressModeClamp;
  TD.filterMode = cudaFilterModePoint;
  TD.readMode = cudaReadModeElementType;
  cudaTextureObject_t Tex = 0;
  if (cudaCreateTextureObject(&Tex, &Res, &TD, nullptr) != cudaSuccess) {
    fprintf(stderr, "tex_bytes: cudaCreateTextureObject failed\n");
    return 1;
  }
  dim3 Grid(W / 256, H), Block(256);
  tex_read<<<Grid, Block>>>(Out, Tex);
  global_read<<<Grid, Block>>>(Out, In);
  cudaError_t E = cudaDeviceSynchronize();
  printf("tex_bytes: %d x %d texels of 16 B (%d B), %s\n", W, H, W * H * 16,
         cudaGetErrorString(E));
  return E == cudaSuccess ? 0 : 1;
}
