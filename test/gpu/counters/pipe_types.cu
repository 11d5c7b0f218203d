//===- pipe_types.cu - which tensor pipe issues each Tensor Core type ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One kernel per Tensor Core instruction kind: mma.sync of f16 (f32 and f16
// accumulators), bf16, tf32, f64, s8 and e4m3, and wgmma of f16 (both
// accumulators), s8 and e4m3 (sm_90a), plus a kernel
// with no tensor work. Run under Nsight Compute with the tensor pipe
// counters (sm__inst_executed_pipe_tensor_op_{hmma,gmma,dmma,imma}.sum) and
// the type counters (sm__ops_path_tensor_src_*.sum), it shows which pipes
// issue each type: the rule application replay uses to infer a type zero
// from idle pipes (runtime/src/metrics/HwMetrics.cpp, typesIdleByPipes). The values
// computed are garbage (inputs are uninitialized registers and shared
// memory); only the instructions matter.
//
// Build: nvcc -gencode arch=compute_90a,code=sm_90a -O2 -o pipe_types pipe_types.cu
// Run:   test/gpu/counters/pipe-types.sh (ncu, one launch per kernel)
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

constexpr int Iters = 64;

__global__ void mma_f16(float *Out, unsigned Seed) {
  unsigned A0 = Seed, A1 = Seed + 1, A2 = Seed + 2, A3 = Seed + 3, B0 = Seed + 4, B1 = Seed + 5;
  float D0 = 0, D1 = 0, D2 = 0, D3 = 0;
  for (int I = 0; I < Iters; ++I)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(D0), "+f"(D1), "+f"(D2), "+f"(D3)
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  Out[threadIdx.x] = D0 + D1 + D2 + D3;
}

/// mma.sync f16 with an f16 accumulator (dst fp16; mma_f16 has dst fp32).
__global__ void mma_f16_f16acc(float *Out, unsigned Seed) {
  unsigned A0 = Seed, A1 = Seed + 1, A2 = Seed + 2, A3 = Seed + 3, B0 = Seed + 4, B1 = Seed + 5;
  unsigned D0 = 0, D1 = 0;
  for (int I = 0; I < Iters; ++I)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, "
                 "{%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                 : "+r"(D0), "+r"(D1)
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  Out[threadIdx.x] = float(D0 ^ D1);
}

__global__ void mma_bf16(float *Out, unsigned Seed) {
  unsigned A0 = Seed, A1 = Seed + 1, A2 = Seed + 2, A3 = Seed + 3, B0 = Seed + 4, B1 = Seed + 5;
  float D0 = 0, D1 = 0, D2 = 0, D3 = 0;
  for (int I = 0; I < Iters; ++I)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(D0), "+f"(D1), "+f"(D2), "+f"(D3)
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  Out[threadIdx.x] = D0 + D1 + D2 + D3;
}

__global__ void mma_tf32(float *Out, unsigned Seed) {
  unsigned A0 = Seed, A1 = Seed + 1, A2 = Seed + 2, A3 = Seed + 3, B0 = Seed + 4, B1 = Seed + 5;
  float D0 = 0, D1 = 0, D2 = 0, D3 = 0;
  for (int I = 0; I < Iters; ++I)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(D0), "+f"(D1), "+f"(D2), "+f"(D3)
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  Out[threadIdx.x] = D0 + D1 + D2 + D3;
}

__global__ void mma_f64(float *Out, unsigned Seed) {
  double A = Seed, B = Seed + 1, D0 = 0, D1 = 0;
  for (int I = 0; I < Iters; ++I)
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(D0), "+d"(D1)
                 : "d"(A), "d"(B));
  Out[threadIdx.x] = float(D0 + D1);
}

__global__ void mma_s8(float *Out, unsigned Seed) {
  unsigned A0 = Seed, A1 = Seed + 1, A2 = Seed + 2, A3 = Seed + 3, B0 = Seed + 4, B1 = Seed + 5;
  int D0 = 0, D1 = 0, D2 = 0, D3 = 0;
  for (int I = 0; I < Iters; ++I)
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(D0), "+r"(D1), "+r"(D2), "+r"(D3)
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  Out[threadIdx.x] = float(D0 + D1 + D2 + D3);
}

__global__ void mma_e4m3(float *Out, unsigned Seed) {
  unsigned A0 = Seed, A1 = Seed + 1, A2 = Seed + 2, A3 = Seed + 3, B0 = Seed + 4, B1 = Seed + 5;
  float D0 = 0, D1 = 0, D2 = 0, D3 = 0;
  for (int I = 0; I < Iters; ++I)
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(D0), "+f"(D1), "+f"(D2), "+f"(D3)
                 : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  Out[threadIdx.x] = D0 + D1 + D2 + D3;
}

/// A wgmma shared-memory matrix descriptor for \p Smem: start address,
/// leading and stride byte offsets (in 16-byte units), no swizzle.
__device__ uint64_t descriptor(const void *Smem) {
  uint64_t Addr = (uint64_t)__cvta_generic_to_shared(Smem);
  return ((Addr >> 4) & 0x3FFF) | (uint64_t(8) << 16) | (uint64_t(16) << 32);
}

__global__ void wgmma_f16(float *Out, unsigned Seed) {
  __shared__ __align__(128) unsigned char Tile[8192];
  uint64_t DA = descriptor(Tile), DB = descriptor(Tile + 4096);
  float D0 = 0, D1 = 0, D2 = 0, D3 = 0;
  for (int I = 0; I < Iters; ++I) {
    asm volatile("wgmma.fence.sync.aligned;");
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, %4, %5, p, "
                 "1, 1, 0, 0;\n}"
                 : "+f"(D0), "+f"(D1), "+f"(D2), "+f"(D3)
                 : "l"(DA), "l"(DB), "r"(int(Seed & 1)));
    asm volatile("wgmma.commit_group.sync.aligned;");
    asm volatile("wgmma.wait_group.sync.aligned 0;");
  }
  Out[threadIdx.x] = D0 + D1 + D2 + D3;
}

/// wgmma f16 with an f16 accumulator (dst fp16).
__global__ void wgmma_f16_f16acc(float *Out, unsigned Seed) {
  __shared__ __align__(128) unsigned char Tile[8192];
  uint64_t DA = descriptor(Tile), DB = descriptor(Tile + 4096);
  unsigned D0 = 0, D1 = 0;
  for (int I = 0; I < Iters; ++I) {
    asm volatile("wgmma.fence.sync.aligned;");
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0,%1}, %2, %3, p, "
                 "1, 1, 0, 0;\n}"
                 : "+r"(D0), "+r"(D1)
                 : "l"(DA), "l"(DB), "r"(int(Seed & 1)));
    asm volatile("wgmma.commit_group.sync.aligned;");
    asm volatile("wgmma.wait_group.sync.aligned 0;");
  }
  Out[threadIdx.x] = float(D0 ^ D1);
}

__global__ void wgmma_s8(float *Out, unsigned Seed) {
  __shared__ __align__(128) unsigned char Tile[8192];
  uint64_t DA = descriptor(Tile), DB = descriptor(Tile + 4096);
  int D0 = 0, D1 = 0, D2 = 0, D3 = 0;
  for (int I = 0; I < Iters; ++I) {
    asm volatile("wgmma.fence.sync.aligned;");
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%0,%1,%2,%3}, %4, %5, p;\n}"
                 : "+r"(D0), "+r"(D1), "+r"(D2), "+r"(D3)
                 : "l"(DA), "l"(DB), "r"(int(Seed & 1)));
    asm volatile("wgmma.commit_group.sync.aligned;");
    asm volatile("wgmma.wait_group.sync.aligned 0;");
  }
  Out[threadIdx.x] = float(D0 + D1 + D2 + D3);
}

__global__ void wgmma_e4m3(float *Out, unsigned Seed) {
  __shared__ __align__(128) unsigned char Tile[8192];
  uint64_t DA = descriptor(Tile), DB = descriptor(Tile + 4096);
  float D0 = 0, D1 = 0, D2 = 0, D3 = 0;
  for (int I = 0; I < Iters; ++I) {
    asm volatile("wgmma.fence.sync.aligned;");
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0,%1,%2,%3}, %4, %5, p, "
                 "1, 1;\n}"
                 : "+f"(D0), "+f"(D1), "+f"(D2), "+f"(D3)
                 : "l"(DA), "l"(DB), "r"(int(Seed & 1)));
    asm volatile("wgmma.commit_group.sync.aligned;");
    asm volatile("wgmma.wait_group.sync.aligned 0;");
  }
  Out[threadIdx.x] = D0 + D1 + D2 + D3;
}

__global__ void no_tensor(float *Out, unsigned Seed) {
  float X = Seed;
  for (int I = 0; I < Iters; ++I)
    X = X * 1.0001f + 0.5f;
  Out[threadIdx.x] = X;
}

int main() {
  float *Out = nullptr;
  if (cudaMalloc(&Out, 128 * sizeof(float)) != cudaSuccess) {
    fprintf(stderr, "pipe_types: cudaMalloc failed\n");
    return 1;
  }
  // One warpgroup (128 threads) per block; 132 blocks (one per H100 SM).
  void (*Kernels[])(float *, unsigned) = {
      mma_f16,   mma_f16_f16acc,   mma_bf16, mma_tf32,   mma_f64,  mma_s8,
      mma_e4m3,  wgmma_f16,        wgmma_f16_f16acc,     wgmma_s8, wgmma_e4m3, no_tensor};
  for (auto K : Kernels)
    K<<<132, 128>>>(Out, 1);
  cudaError_t E = cudaDeviceSynchronize();
  printf("pipe_types: %zu kernels, %s\n", sizeof Kernels / sizeof Kernels[0],
         cudaGetErrorString(E));
  return E == cudaSuccess ? 0 : 1;
}
