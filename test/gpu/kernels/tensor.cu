// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Tensor-core GEMMs C[MxN] = A[MxK] * B[KxN] with f16 inputs and f32
// accumulation; A row-major, B given column-major (Bt[n*K + k]). One warp per
// output tile; the tile count is not a multiple of the warps per block, so
// the last block has idle warps that return at once (warp-uniform guard).
#include "harness.h"
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// mma.sync.m16n8k16 from inline PTX, one 16x8 tile per warp, K/16 steps.
// Per thread and step: 6 x 4 B fragment loads (A: 4 regs, B: 2 regs) = 24 B,
// one mma = 2*16*8*16 = 4096 tensor FLOPs per warp. Store 4 floats (16 B).
// W = mt*nt active warps, S = K/16 steps:
//   tensor_flops.f16 = 4096*W*S, global load = 32*W*S*24, store = 32*W*16.
extern "C" __global__ void mma_m16n8k16(int mt, int nt, int K, const __half *__restrict__ A,
                                        const __half *__restrict__ Bt, float *__restrict__ C) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp >= mt * nt)
    return;
  int tm = warp / nt, tn = warp % nt, g = lane >> 2, q = lane & 3;
  const unsigned *a0p = (const unsigned *)(A + (size_t)(tm * 16 + g) * K + q * 2);
  const unsigned *a1p = (const unsigned *)(A + (size_t)(tm * 16 + g + 8) * K + q * 2);
  const unsigned *bp = (const unsigned *)(Bt + (size_t)(tn * 8 + g) * K + q * 2);
  float c0 = 0.f, c1 = 0.f, c2 = 0.f, c3 = 0.f;
  for (int k = 0; k < K; k += 16) {
    int w = k >> 1; // 32-bit words
    unsigned a0 = a0p[w], a1 = a1p[w], a2 = a0p[w + 4], a3 = a1p[w + 4];
    unsigned b0 = bp[w], b1 = bp[w + 4];
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  int N = nt * 8, row = tm * 16 + g, col = tn * 8 + q * 2;
  C[(size_t)row * N + col] = c0;
  C[(size_t)row * N + col + 1] = c1;
  C[(size_t)(row + 8) * N + col] = c2;
  C[(size_t)(row + 8) * N + col + 1] = c3;
}

// nvcuda::wmma m16n16k16, one 16x16 tile per warp, K/16 steps. The model
// counts a fragment load/store as the tile it moves: a 16x16 f16 tile is
// 512 B per warp = 16 B per thread, a 16x16 f32 tile 32 B per thread; one
// mma = 2*16*16*16 = 8192 per warp = 256 per thread.
//   tensor_flops.f16 = 8192*W*S, global load = 32*W*S*32, store = 32*W*32.
__global__ void wmma_gemm(int mt, int nt, int K, const half *__restrict__ A,
                          const half *__restrict__ Bt, float *__restrict__ C) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (warp >= mt * nt)
    return;
  int tm = warp / nt, tn = warp % nt, N = nt * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, A + (size_t)tm * 16 * K + k, K);
    wmma::load_matrix_sync(fb, Bt + (size_t)tn * 16 * K + k, K);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(C + (size_t)tm * 16 * N + tn * 16, fc, N, wmma::mem_row_major);
}

static void gemm_check(Harness &H, const char *what, int M, int N, int K,
                       const std::vector<__half> &A, const std::vector<__half> &Bt,
                       const std::vector<float> &C) {
  for (int r = 0; r < M; r += 13)
    for (int c = 0; c < N; c += 7) {
      double ref = 0;
      for (int k = 0; k < K; ++k)
        ref += (double)__half2float(A[(size_t)r * K + k]) * __half2float(Bt[(size_t)c * K + k]);
      H.near(what, (long)r * N + c, C[(size_t)r * N + c], ref, 1e-3, 1e-3);
    }
}

int main(int argc, char **argv) {
  Harness H(argc, argv);
  unsigned s = 99;
  const int K = 1024;
  const u64 S = K / 16;
  { // mma.sync
    const int mt = 63, nt = 125, M = mt * 16, N = nt * 8;
    const unsigned B = 128; // 4 warps per block; 7875 tiles -> last block 3 warps
    dim3 g(ceil_div(mt * nt, B / 32));
    std::vector<__half> hA((size_t)M * K), hB((size_t)N * K);
    std::vector<float> hC((size_t)M * N);
    for (auto &v : hA)
      v = __float2half(frand(s));
    for (auto &v : hB)
      v = __float2half(frand(s));
    __half *A = H.alloc<__half>(hA.size()), *Bt = H.alloc<__half>(hB.size());
    float *C = H.alloc<float>(hC.size());
    H.h2d(A, hA);
    H.h2d(Bt, hB);
    const u64 W = (u64)mt * nt;
    H.launch("mma_m16n8k16", g, B, {{"mt", mt}, {"nt", nt}, {"K", K}},
             Counts()
                 .add("tensor_flops.f16", 4096 * W * S)
                 .add("bytes.global.load", 32 * W * S * 24)
                 .add("bytes.global.store", 32 * W * 16),
             [=] { mma_m16n8k16<<<g, B>>>(mt, nt, K, A, Bt, C); });
    H.d2h(hC, C);
    gemm_check(H, "mma_m16n8k16", M, N, K, hA, hB, hC);
  }
  { // wmma
    const int mt = 63, nt = 63, M = mt * 16, N = nt * 16;
    const unsigned B = 128; // 3969 tiles -> last block 1 warp
    dim3 g(ceil_div(mt * nt, B / 32));
    std::vector<__half> hA((size_t)M * K), hB((size_t)N * K);
    std::vector<float> hC((size_t)M * N);
    for (auto &v : hA)
      v = __float2half(frand(s));
    for (auto &v : hB)
      v = __float2half(frand(s));
    __half *A = H.alloc<__half>(hA.size()), *Bt = H.alloc<__half>(hB.size());
    float *C = H.alloc<float>(hC.size());
    H.h2d(A, hA);
    H.h2d(Bt, hB);
    const u64 W = (u64)mt * nt;
    H.launch("wmma_gemm", g, B, {{"mt", mt}, {"nt", nt}, {"K", K}},
             Counts()
                 .add("tensor_flops.f16", 8192 * W * S)
                 .add("bytes.global.load", 32 * W * S * 32)
                 .add("bytes.global.store", 32 * W * 32)
                 .why("wmma fragments: the model counts the tile's bytes; the "
                      "SASS loads may fetch each element in more than one lane"),
             [=] { wmma_gemm<<<g, B>>>(mt, nt, K, A, Bt, C); });
    H.d2h(hC, C);
    gemm_check(H, "wmma_gemm", M, N, K, hA, hB, hC);
  }
  return H.finish("tensor");
}
