// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// conv2d: 2D convolution, 3x3 filter, stride 1, padding 1 (output P=H, Q=W),
// the convolution layers of the seed papers (Yang et al., Wang et al.), as four
// kernels, each at three sizes (the template tag Z = 1, 2, 3 names the size so
// that hroof keeps the sizes apart; the sizes are in `kSizes` below):
//
//   conv2d_direct_f32<Z>  naive direct convolution, NCHW, one thread per
//                         output element, every operand from global memory.
//   conv2d_tiled_f32<Z>   THE OPTIMIZATION of the case study: the same
//                         arithmetic, with a shared-memory input tile (halo
//                         included) and KT=8 output channels per thread
//                         (register blocking): fewer L1/L2 requests per FLOP.
//   conv2d_igemm_wmma<__half,Z>, conv2d_igemm_wmma<__nv_bfloat16,Z>:
//                         implicit GEMM on Tensor Cores (nvcuda::wmma
//                         m16n16k16, f32 accumulate), NHWC input, KRSC
//                         weights, f32 NHWC output.
//
// FLOPs (hand-derived, all kernels): 2*N*K*C*R*S*P*Q with R=S=3, P=H, Q=W.
// The padding taps are multiplied by zero, not skipped, so this nominal count
// is also the executed one:
//   f32 kernels: flops.f32 = 2*N*K*C*9*H*W  (one fma per tap; clang -O2
//                contracts nothing else: the only float op is fmaf)
//   wmma kernels: tensor_flops.{f16,bf16} = 2*(N*H*W)*K*(9*C)  (one 16x16x16
//                mma = 8192 FLOPs per warp), and no CUDA-core FLOPs.
// Bytes requested (per launch), for reading the dynamic counts:
//   direct:  global load = 4 B per in-bounds tap + 4 B per weight tap:
//            4*N*K*C*(3H-2)*(3W-2) + 4*N*K*C*9*H*W; store 4*N*K*H*W
//            (hroof static, size 2: 14.45 GB load: AI 0.26 FLOP/B requested).
//   tiled:   per block and channel: 4 B per in-bounds element of the 10x34
//            halo + 4*72 B of weights (global load, same to shared store);
//            per active thread and channel 4*(9 + 9*KT) = 324 B shared load
//            (9 scalar loads of x, 18 float4 broadcast loads of weights);
//            store 4*N*K*H*W (size 2: 216 MB global load: AI 16.6).
//   wmma:    per warp step: the 16x16 A tile staged by the block (4 B per
//            thread, only where in bounds) + the B fragment (16 B per
//            thread); shared 4 B store + 16 B load per thread and step.
// Usage: conv2d [REPS] [--list-launches]   (default 3 launches per kernel and size)
#include "case.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

struct Size {
  int N, C, K, H, W;
};
static const Size kSizes[4] = {{0, 0, 0, 0, 0},
                               {8, 64, 64, 56, 56},    // Z=1
                               {16, 128, 128, 28, 28}, // Z=2
                               {32, 64, 128, 28, 28}}; // Z=3

// ---- naive direct convolution, NCHW ----------------------------------------
template <int Z>
__global__ void conv2d_direct_f32(int N, int C, int K, int H, int W, const float *__restrict__ x,
                                  const float *__restrict__ wt, float *__restrict__ y) {
  long idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
  long total = (long)N * K * H * W;
  if (idx >= total)
    return;
  int q = idx % W, p = (idx / W) % H, k = (idx / ((long)W * H)) % K;
  int n = idx / ((long)W * H * K);
  float acc = 0.f;
  for (int c = 0; c < C; ++c) {
    const float *xc = x + ((long)n * C + c) * H * W;
    const float *wc = wt + ((long)k * C + c) * 9;
#pragma unroll
    for (int r = 0; r < 3; ++r)
#pragma unroll
      for (int s = 0; s < 3; ++s) {
        int h = p + r - 1, w = q + s - 1;
        float v = (h >= 0 && h < H && w >= 0 && w < W) ? xc[h * W + w] : 0.f;
        acc = fmaf(v, wc[r * 3 + s], acc);
      }
  }
  y[idx] = acc;
}

// ---- shared-memory tiled direct convolution, NCHW ---------------------------
// Block 32x8 threads = one 8-row x 32-column output tile for KT output
// channels. Grid: (tilesW*tilesH, K/KT, N). Per input channel: the 10x34
// halo tile and the KT*9 weights go to shared memory (weights as ws[tap][j],
// so a thread reads the KT weights of a tap with two 16-byte broadcast loads),
// then each active thread does KT*9 fma: per channel 9 scalar + 18 vector
// shared loads for 72 fma.
#define TX 32
#define TY 8
#define KT 8
template <int Z>
__global__ void conv2d_tiled_f32(int N, int C, int K, int H, int W, const float *__restrict__ x,
                                 const float *__restrict__ wt, float *__restrict__ y) {
  __shared__ float xs[TY + 2][TX + 2];
  __shared__ __align__(16) float ws[9][KT];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  int tilesW = (W + TX - 1) / TX;
  int p0 = (blockIdx.x / tilesW) * TY, q0 = (blockIdx.x % tilesW) * TX;
  int k0 = blockIdx.y * KT, n = blockIdx.z;
  int p = p0 + ty, q = q0 + tx;
  bool active = p < H && q < W;
  float acc[KT];
#pragma unroll
  for (int j = 0; j < KT; ++j)
    acc[j] = 0.f;
  for (int c = 0; c < C; ++c) {
    const float *xc = x + ((long)n * C + c) * H * W;
    for (int i = tid; i < (TY + 2) * (TX + 2); i += TX * TY) {
      int r = i / (TX + 2), s = i % (TX + 2);
      int h = p0 + r - 1, w = q0 + s - 1;
      xs[r][s] = (h >= 0 && h < H && w >= 0 && w < W) ? xc[h * W + w] : 0.f;
    }
    if (tid < KT * 9)
      ws[tid % 9][tid / 9] = wt[((long)(k0 + tid / 9) * C + c) * 9 + tid % 9];
    __syncthreads();
    if (active) {
#pragma unroll
      for (int r = 0; r < 3; ++r)
#pragma unroll
        for (int s = 0; s < 3; ++s) {
          float v = xs[ty + r][tx + s];
          float4 w0 = *(const float4 *)&ws[r * 3 + s][0];
          float4 w1 = *(const float4 *)&ws[r * 3 + s][4];
          acc[0] = fmaf(v, w0.x, acc[0]);
          acc[1] = fmaf(v, w0.y, acc[1]);
          acc[2] = fmaf(v, w0.z, acc[2]);
          acc[3] = fmaf(v, w0.w, acc[3]);
          acc[4] = fmaf(v, w1.x, acc[4]);
          acc[5] = fmaf(v, w1.y, acc[5]);
          acc[6] = fmaf(v, w1.z, acc[6]);
          acc[7] = fmaf(v, w1.w, acc[7]);
        }
    }
    __syncthreads();
  }
  if (active) {
#pragma unroll
    for (int j = 0; j < KT; ++j)
      y[(((long)n * K + k0 + j) * H + p) * W + q] = acc[j];
  }
}

// ---- implicit GEMM on Tensor Cores, NHWC / KRSC ------------------------------
// GEMM view: M = N*H*W output pixels, Ncols = K, reduction = 9*C ordered
// (r, s, c). Block 32x4 threads = 4 warps: one 16-pixel tile (blockIdx.x) x
// 4 channel tiles of 16 (warp w: blockIdx.y*64 + 16*w). Per step (r, s, c0):
// the block stages the 16x16 A tile (im2col, zeros for padding) in shared
// memory, 4 bytes (2 elements) per thread; B is loaded from global directly
// (column-major, leading dimension 9*C). Needs C%16 == 0, K%64 == 0,
// (N*H*W)%16 == 0.
template <typename T, int Z>
__global__ void conv2d_igemm_wmma(int N, int C, int K, int H, int W, const T *__restrict__ x,
                                  const T *__restrict__ wt, float *__restrict__ y) {
  __shared__ __align__(32) T As[16 * 16];
  int tid = threadIdx.y * 32 + threadIdx.x;
  int row = tid >> 3, col2 = (tid & 7) * 2;
  int m0 = blockIdx.x * 16, n0 = (blockIdx.y * 4 + threadIdx.y) * 16;
  int m = m0 + row, n = m / (H * W), pq = m % (H * W), p = pq / W, q = pq % W;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int rs = 0; rs < 9; ++rs) {
    int h = p + rs / 3 - 1, w = q + rs % 3 - 1;
    bool inb = h >= 0 && h < H && w >= 0 && w < W;
    const T *xp = x + (((long)n * H + h) * W + w) * C + col2;
    for (int c0 = 0; c0 < C; c0 += 16) {
      unsigned v = inb ? *(const unsigned *)(xp + c0) : 0u;
      ((unsigned *)As)[tid] = v;
      __syncthreads();
      wmma::load_matrix_sync(fa, As, 16);
      wmma::load_matrix_sync(fb, wt + (long)n0 * 9 * C + rs * C + c0, 9 * C);
      wmma::mma_sync(fc, fa, fb, fc);
      __syncthreads();
    }
  }
  wmma::store_matrix_sync(y + (long)m0 * K + n0, fc, K, wmma::mem_row_major);
}

// ---- host ------------------------------------------------------------------
static double ref_nchw(const std::vector<float> &x, const std::vector<float> &wt, const Size &S,
                       int n, int k, int p, int q) {
  double acc = 0;
  for (int c = 0; c < S.C; ++c)
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s) {
        int h = p + r - 1, w = q + s - 1;
        if (h < 0 || h >= S.H || w < 0 || w >= S.W)
          continue;
        acc += (double)x[(((long)n * S.C + c) * S.H + h) * S.W + w] *
               wt[(((long)k * S.C + c) * 3 + r) * 3 + s];
      }
  return acc;
}

static const int kSamples = 400;

template <class Conv>
static void check_f32(const char *what, const Size &S, const std::vector<float> &x,
                      const std::vector<float> &wt, const float *dY, Checker &ck) {
  long total = (long)S.N * S.K * S.H * S.W;
  std::vector<float> y(total);
  CHECK(cudaMemcpy(y.data(), dY, total * 4, cudaMemcpyDeviceToHost));
  uint64_t seed = 99;
  for (int i = 0; i < kSamples; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    long idx = (long)((seed >> 17) % (uint64_t)total);
    if (i < 4)
      idx = i == 0 ? 0 : i == 1 ? total - 1 : i == 2 ? S.W - 1 : (long)S.H * S.W - S.W;
    int q = idx % S.W, p = (idx / S.W) % S.H, k = (idx / ((long)S.W * S.H)) % S.K;
    int n = idx / ((long)S.W * S.H * S.K);
    ck.near(idx, y[idx], ref_nchw(x, wt, S, n, k, p, q), 1e-4, 1e-3);
  }
  (void)what;
}

template <typename T> static T to_t(float f);
template <> __half to_t<__half>(float f) { return __float2half(f); }
template <> __nv_bfloat16 to_t<__nv_bfloat16>(float f) { return __float2bfloat16(f); }
template <typename T> static float from_t(T v);
template <> float from_t<__half>(__half v) { return __half2float(v); }
template <> float from_t<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

template <int Z> static void run_size() {
  const Size S = kSizes[Z];
  char sz[96];
  snprintf(sz, sizeof sz, "N=%d C=%d K=%d H=W=%d", S.N, S.C, S.K, S.H);
  long nx = (long)S.N * S.C * S.H * S.W, nw = (long)S.K * S.C * 9;
  long ny = (long)S.N * S.K * S.H * S.W;
  double flops = 2.0 * S.N * S.K * S.C * 9.0 * S.H * S.W;
  if (g_list) {
    char args[128], kn[96];
    snprintf(args, sizeof args, "\"N\":%d,\"C\":%d,\"K\":%d,\"H\":%d,\"W\":%d", S.N, S.C, S.K, S.H,
             S.W);
    snprintf(kn, sizeof kn, "conv2d_direct_f32<%d>", Z);
    launch_line(kn, sz, dim3((unsigned)((ny + 255) / 256)), dim3(256), args, flops, 0);
    snprintf(kn, sizeof kn, "conv2d_tiled_f32<%d>", Z);
    launch_line(kn, sz, dim3(((S.W + TX - 1) / TX) * ((S.H + TY - 1) / TY), S.K / KT, S.N),
                dim3(TX, TY), args, flops, 0);
    dim3 g((unsigned)((long)S.N * S.H * S.W / 16), S.K / 64), b(32, 4);
    snprintf(kn, sizeof kn, "conv2d_igemm_wmma<__half, %d>", Z);
    launch_line(kn, sz, g, b, args, flops, 1);
    snprintf(kn, sizeof kn, "conv2d_igemm_wmma<__nv_bfloat16, %d>", Z);
    launch_line(kn, sz, g, b, args, flops, 1);
    return;
  }
  std::vector<float> x(nx), wt(nw);
  uint64_t seed = 1234 + Z;
  for (auto &v : x)
    v = urand(seed);
  for (auto &v : wt)
    v = urand(seed) * 0.25f;
  float *dx, *dw, *dy;
  CHECK(cudaMalloc(&dx, nx * 4));
  CHECK(cudaMalloc(&dw, nw * 4));
  CHECK(cudaMalloc(&dy, ny * 4));
  CHECK(cudaMemcpy(dx, x.data(), nx * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dw, wt.data(), nw * 4, cudaMemcpyHostToDevice));

  { // naive
    CHECK(cudaMemset(dy, 0, ny * 4));
    int bs = 256;
    unsigned gs = (unsigned)((ny + bs - 1) / bs);
    float ms = time_launches(
        [&] { conv2d_direct_f32<Z><<<gs, bs>>>(S.N, S.C, S.K, S.H, S.W, dx, dw, dy); });
    Checker ck("conv2d_direct_f32");
    check_f32<int>("direct", S, x, wt, dy, ck);
    case_line("conv2d", "conv2d_direct_f32", sz, flops, 0, ms, ck);
  }
  { // tiled
    CHECK(cudaMemset(dy, 0, ny * 4));
    dim3 block(TX, TY);
    dim3 grid(((S.W + TX - 1) / TX) * ((S.H + TY - 1) / TY), S.K / KT, S.N);
    float ms = time_launches(
        [&] { conv2d_tiled_f32<Z><<<grid, block>>>(S.N, S.C, S.K, S.H, S.W, dx, dw, dy); });
    Checker ck("conv2d_tiled_f32");
    check_f32<int>("tiled", S, x, wt, dy, ck);
    case_line("conv2d", "conv2d_tiled_f32", sz, flops, 0, ms, ck);
  }
  CHECK(cudaFree(dy));
  CHECK(cudaMalloc(&dy, ny * 4));
  // Tensor Cores: NHWC input, KRSC weights (same values, rounded to T).
  auto tc = [&](auto tag, const char *name) {
    using T = decltype(tag);
    std::vector<T> xh(nx), wh(nw);
    std::vector<float> xr(nx), wr(nw); // rounded values, NCHW / KCRS for the reference
    for (int n = 0; n < S.N; ++n)
      for (int c = 0; c < S.C; ++c)
        for (int h = 0; h < S.H; ++h)
          for (int w = 0; w < S.W; ++w) {
            long i = (((long)n * S.C + c) * S.H + h) * S.W + w;
            T v = to_t<T>(x[i]);
            xh[(((long)n * S.H + h) * S.W + w) * S.C + c] = v;
            xr[i] = from_t<T>(v);
          }
    for (int k = 0; k < S.K; ++k)
      for (int c = 0; c < S.C; ++c)
        for (int rs = 0; rs < 9; ++rs) {
          long i = ((long)k * S.C + c) * 9 + rs;
          T v = to_t<T>(wt[i]);
          wh[((long)k * 9 + rs) * S.C + c] = v;
          wr[i] = from_t<T>(v);
        }
    T *dxh, *dwh;
    CHECK(cudaMalloc(&dxh, nx * sizeof(T)));
    CHECK(cudaMalloc(&dwh, nw * sizeof(T)));
    CHECK(cudaMemcpy(dxh, xh.data(), nx * sizeof(T), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dwh, wh.data(), nw * sizeof(T), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dy, 0, ny * 4));
    dim3 block(32, 4), grid((unsigned)((long)S.N * S.H * S.W / 16), S.K / 64);
    float ms = time_launches(
        [&] { conv2d_igemm_wmma<T, Z><<<grid, block>>>(S.N, S.C, S.K, S.H, S.W, dxh, dwh, dy); });
    std::vector<float> y(ny);
    CHECK(cudaMemcpy(y.data(), dy, ny * 4, cudaMemcpyDeviceToHost));
    Checker ck(name);
    uint64_t s2 = 7;
    for (int i = 0; i < kSamples; ++i) {
      s2 = s2 * 6364136223846793005ULL + 1442695040888963407ULL;
      long m = (long)((s2 >> 17) % (uint64_t)((long)S.N * S.H * S.W));
      int k = (int)((s2 >> 5) % S.K);
      int n = m / (S.H * S.W), p = (m / S.W) % S.H, q = m % S.W;
      ck.near(m * S.K + k, y[m * S.K + k], ref_nchw(xr, wr, S, n, k, p, q), 1e-3, 2e-3);
    }
    case_line("conv2d", name, sz, flops, 1, ms, ck);
    CHECK(cudaFree(dxh));
    CHECK(cudaFree(dwh));
  };
  tc(__half(), "conv2d_igemm_wmma<__half>");
  tc(__nv_bfloat16(), "conv2d_igemm_wmma<__nv_bfloat16>");
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dw));
  CHECK(cudaFree(dy));
}

int main(int argc, char **argv) {
  case_init(argc, argv);
  run_size<1>();
  run_size<2>();
  run_size<3>();
  return case_exit("conv2d");
}
