// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// lstm_fused: the LSTM cell step of lstm.cu with the pointwise gate update
// fused into the epilogue of the Tensor-Core GEMM (the second optimization of
// the case study: removes the gates' round trip through global memory, 4*B*H
// floats written then read, and one launch per step).
//
//   before: lstm_gemm_wmma<__half, Z> + lstm_pointwise_f32<Z>   (lstm.cu)
//   after:  lstm_fused_wmma<Z>                                   (this file)
//
// Same sizes as lstm.cu (Z = 1, 2, 3: B=64/H=512, B=128/H=1024, B=256/H=1024).
// Block = 4 warps; warp g (0..3 = gates i, f, g, o) computes the 16x16 tile
// rows b0..b0+15, columns g*H + j0 .. +15 of gates = [x,h] * Wt (wmma
// m16n16k16, f16 in, f32 accumulate, fragments from global as in lstm.cu),
// stores it to shared memory; then the block's 128 threads apply bias,
// sigmoid/tanh and the c/h update to its 16x16 (b, j) cells, 2 per thread.
// Grid (H/16, B/16).
// FLOPs (hand-derived): tensor_flops.f16 = 2*B*(4H)*(2H) = 16*B*H^2 (as the
// unfused GEMM) + the pointwise part, nominally 11*B*H f32 FLOPs + 3 div +
// 3 expf + 2 tanhf per cell (libdevice inlines expf/tanhf: the dynamic f32
// count is higher, see lstm.cu). The CASE line reports 16*B*H^2 + 11*B*H.
// Usage: lstm_fused [REPS] [--list-launches]
#include "case.h"
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

struct Size {
  int B, H;
};
static const Size kSizes[4] = {{0, 0}, {64, 512}, {128, 1024}, {256, 1024}};

__device__ __forceinline__ float sigmoidf_(float x) { return 1.f / (1.f + expf(-x)); }

template <int Z>
__global__ void lstm_fused_wmma(int Bn, int H, const __half *__restrict__ A,
                                const __half *__restrict__ Wt, const float *__restrict__ bias,
                                float *__restrict__ c, float *__restrict__ h) {
  __shared__ __align__(32) float G[4][16 * 16];
  int warp = threadIdx.x / 32, K = 2 * H, N = 4 * H;
  int b0 = blockIdx.y * 16, j0 = blockIdx.x * 16;
  int col0 = warp * H + j0;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    wmma::load_matrix_sync(fa, A + (long)b0 * K + k0, K);
    wmma::load_matrix_sync(fb, Wt + (long)k0 * N + col0, N);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(G[warp], fc, 16, wmma::mem_row_major);
  __syncthreads();
#pragma unroll
  for (int e = threadIdx.x; e < 256; e += 128) {
    int r = e / 16, j = j0 + e % 16;
    long idx = (long)(b0 + r) * H + j;
    float ig = sigmoidf_(G[0][e] + bias[j]);
    float fg = sigmoidf_(G[1][e] + bias[H + j]);
    float gg = tanhf(G[2][e] + bias[2 * H + j]);
    float og = sigmoidf_(G[3][e] + bias[3 * H + j]);
    float cn = fg * c[idx] + ig * gg;
    c[idx] = cn;
    h[idx] = og * tanhf(cn);
  }
}

static double sig(double x) { return 1.0 / (1.0 + exp(-x)); }

template <int Z> static void run_size() {
  const Size S = kSizes[Z];
  const int M = S.B, N = 4 * S.H, K = 2 * S.H;
  char sz[64];
  snprintf(sz, sizeof sz, "B=%d H=%d (GEMM %dx%dx%d)", S.B, S.H, M, N, K);
  double flops = 2.0 * M * N * K + 11.0 * S.B * S.H;
  dim3 grid(S.H / 16, S.B / 16), block(128);
  if (g_list) {
    char args[64], kn[64];
    snprintf(args, sizeof args, "\"Bn\":%d,\"H\":%d", S.B, S.H);
    snprintf(kn, sizeof kn, "lstm_fused_wmma<%d>", Z);
    launch_line(kn, sz, grid, block, args, flops, 1);
    return;
  }
  // Same data as lstm.cu (seed 77+Z), rounded to half.
  std::vector<float> A((long)M * K), Bm((long)K * N), bias(N), c0((long)S.B * S.H);
  uint64_t seed = 77 + Z;
  for (auto &v : A)
    v = urand(seed);
  for (auto &v : Bm)
    v = urand(seed) * 0.05f;
  for (auto &v : bias)
    v = urand(seed) * 0.1f;
  for (auto &v : c0)
    v = urand(seed);
  std::vector<__half> Ah(A.size()), Bh(Bm.size());
  for (size_t i = 0; i < A.size(); ++i) {
    Ah[i] = __float2half(A[i]);
    A[i] = __half2float(Ah[i]);
  }
  for (size_t i = 0; i < Bm.size(); ++i) {
    Bh[i] = __float2half(Bm[i]);
    Bm[i] = __half2float(Bh[i]);
  }
  __half *dA, *dB;
  float *dbias, *dc, *dh;
  CHECK(cudaMalloc(&dA, Ah.size() * 2));
  CHECK(cudaMalloc(&dB, Bh.size() * 2));
  CHECK(cudaMalloc(&dbias, N * 4));
  CHECK(cudaMalloc(&dc, c0.size() * 4));
  CHECK(cudaMalloc(&dh, c0.size() * 4));
  CHECK(cudaMemcpy(dA, Ah.data(), Ah.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, Bh.data(), Bh.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dbias, bias.data(), N * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c0.data(), c0.size() * 4, cudaMemcpyHostToDevice));
  float ms =
      time_launches([&] { lstm_fused_wmma<Z><<<grid, block>>>(S.B, S.H, dA, dB, dbias, dc, dh); });
  // c is updated in place: one more launch from c0 for the check.
  CHECK(cudaMemcpy(dc, c0.data(), c0.size() * 4, cudaMemcpyHostToDevice));
  lstm_fused_wmma<Z><<<grid, block>>>(S.B, S.H, dA, dB, dbias, dc, dh);
  CHECK(cudaGetLastError());
  int n = S.B * S.H;
  std::vector<float> cn(n), hn(n);
  CHECK(cudaMemcpy(cn.data(), dc, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hn.data(), dh, n * 4, cudaMemcpyDeviceToHost));
  Checker ck("lstm_fused_wmma");
  uint64_t s = 3;
  for (int t = 0; t < 300; ++t) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    int b = (int)((s >> 20) % S.B), j = (int)((s >> 40) % S.H);
    double g[4];
    for (int q = 0; q < 4; ++q) {
      double acc = 0;
      for (int k = 0; k < K; ++k)
        acc += (double)A[(long)b * K + k] * Bm[(long)k * N + q * S.H + j];
      g[q] = acc + bias[q * S.H + j];
    }
    double c1 = sig(g[1]) * c0[(long)b * S.H + j] + sig(g[0]) * tanh(g[2]);
    ck.near((long)b * S.H + j, cn[(long)b * S.H + j], c1, 1e-3, 1e-3);
    ck.near((long)b * S.H + j, hn[(long)b * S.H + j], sig(g[3]) * tanh(c1), 1e-3, 1e-3);
  }
  case_line("lstm_fused", "lstm_fused_wmma", sz, flops, 1, ms, ck);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dbias));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dh));
}

int main(int argc, char **argv) {
  case_init(argc, argv);
  run_size<1>();
  run_size<2>();
  run_size<3>();
  return case_exit("lstm_fused");
}
