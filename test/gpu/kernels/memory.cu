// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Memory spaces: shared-memory tiled SGEMM, a block reduction (shared memory
// + one global float atomic per block), a shared-atomic histogram, float4
// vector loads, and a per-thread local-memory array.
#include "harness.h"

#define TS 16
// Tiled SGEMM C[MxN] = A[MxK] * B[KxN], row-major, 16x16 tiles, 16x16
// threads per block, grid (ceil(N/16), ceil(M/16)). Every thread (in range or
// not) takes part in every tile step: gx*gy*256 = T threads, nt = ceil(K/16)
// steps. Out-of-range tile elements are zero-filled without a global load.
//   global load  = 4*(gx*M*K + gy*K*N)   (each A element once per block column)
//   shared store = T*nt*2*4               (As and Bs element per thread)
//   shared load  = T*nt*16*2*4            (As[ty][k] and Bs[k][tx], 16 k)
//   flops.f32    = T*nt*16*2              (acc += a*b contracted to fma)
//   global store = 4*M*N
extern "C" __global__ void sgemm_tiled(int M, int N, int K, const float *__restrict__ A,
                                       const float *__restrict__ B, float *__restrict__ C) {
  __shared__ float As[TS][TS], Bs[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
  float acc = 0.f;
  for (int t = 0; t < K; t += TS) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TS; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

// Block sum of x into *out. 256 threads per block, nb blocks.
//   global load  = 4n                    (threads i < n; others store 0)
//   shared store = nb*(256 + 255)*4      (initial value + one per tree step)
//   shared load  = nb*(255*2 + 1)*4      (tree: 128+64+...+1 = 255 steps of
//                                         2 loads; thread 0 reads sh[0])
//   flops.f32    = nb*255                (one fadd per tree step)
//   global atomic= nb*4                  (atomicAdd, result unused: RED)
extern "C" __global__ void reduce_sum(int n, const float *__restrict__ x, float *__restrict__ out) {
  __shared__ float sh[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  sh[t] = i < n ? x[i] : 0.f;
  __syncthreads();
#pragma unroll
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s)
      sh[t] += sh[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, sh[0]);
}

// 64-bin histogram of key & 63 with shared atomics, merged with global
// atomics. 256 threads per block, nb blocks.
//   shared store  = nb*64*4   (bins zeroed by threads t < 64)
//   global load   = 4n
//   shared atomic = 4n        (one int atomicAdd per key)
//   shared load   = nb*64*4   (threads t < 64 read their bin)
//   global atomic = nb*64*4
extern "C" __global__ void histogram64(int n, const int *__restrict__ key,
                                       unsigned *__restrict__ hist) {
  __shared__ unsigned bins[64];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  if (t < 64)
    bins[t] = 0;
  __syncthreads();
  if (i < n)
    atomicAdd(&bins[key[i] & 63], 1u);
  __syncthreads();
  if (t < 64)
    atomicAdd(&hist[t], bins[t]);
}

// float4: y4 = a*x4 + y4 component-wise, 4 fma = 8 FLOPs; loads 2 x 16 B,
// store 16 B.   n4 vectors: flops.f32 = 8*n4, load 32*n4, store 16*n4.
extern "C" __global__ void axpy_float4(int n4, float a, const float4 *__restrict__ x,
                                       float4 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 u = x[i], v = y[i];
    v.x = a * u.x + v.x;
    v.y = a * u.y + v.y;
    v.z = a * u.z + v.z;
    v.w = a * u.w + v.w;
    y[i] = v;
  }
}

// Per-thread array indexed by a run-time value: stays an alloca in the IR
// (checked by build.sh) and in local memory in SASS. x is laid out
// column-wise (x[k*n + i]) so the loads coalesce. Per thread i < n:
//   16 global loads of x (64 B), 15 fmul (k = 0 multiplies by 1.0f, which
//   the optimizer folds away: 15 FLOPs), 16 local stores (64 B),
//   one 4 B global load of idx[i], one 4 B local load, one 4 B global store.
//   flops.f32 = 15n, global load 68n, local store 64n, local load 4n,
//   global store 4n.
extern "C" __global__ void local_array(int n, const float *__restrict__ x,
                                       const int *__restrict__ idx, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float buf[16];
#pragma unroll
    for (int k = 0; k < 16; ++k)
      buf[k] = x[k * n + i] * (float)(k + 1);
    y[i] = buf[idx[i] & 15];
  }
}

int main(int argc, char **argv) {
  Harness H(argc, argv);
  unsigned s = 4242;
  { // SGEMM
    const int M = 1001, N = 999, K = 1003;
    dim3 b(TS, TS), g(ceil_div(N, TS), ceil_div(M, TS));
    std::vector<float> hA((size_t)M * K), hB((size_t)K * N), hC((size_t)M * N);
    for (auto &v : hA)
      v = frand(s);
    for (auto &v : hB)
      v = frand(s);
    float *A = H.alloc<float>(hA.size()), *Bm = H.alloc<float>(hB.size()),
          *C = H.alloc<float>(hC.size());
    H.h2d(A, hA);
    H.h2d(Bm, hB);
    const u64 T = (u64)g.x * g.y * TS * TS, nt = ceil_div(K, TS);
    H.launch("sgemm_tiled", g, b, {{"M", M}, {"N", N}, {"K", K}},
             Counts()
                 .add("flops.f32", T * nt * 16 * 2)
                 .add("bytes.global.load", 4 * ((u64)g.x * M * K + (u64)g.y * K * N))
                 .add("bytes.global.store", 4ull * M * N)
                 .add("bytes.shared.store", T * nt * 2 * 4)
                 .add("bytes.shared.load", T * nt * 16 * 2 * 4),
             [=] { sgemm_tiled<<<g, b>>>(M, N, K, A, Bm, C); });
    H.d2h(hC, C);
    for (int r = 0; r < M; r += 37)
      for (int c = 0; c < N; c += 41) {
        double ref = 0;
        for (int k = 0; k < K; ++k)
          ref += (double)hA[(size_t)r * K + k] * hB[(size_t)k * N + c];
        H.near("sgemm", r * N + c, hC[(size_t)r * N + c], ref, 1e-4, 1e-4);
      }
    double ref = 0;
    for (int k = 0; k < K; ++k)
      ref += (double)hA[(size_t)(M - 1) * K + k] * hB[(size_t)k * N + N - 1];
    H.near("sgemm corner", M * N - 1, hC[(size_t)M * N - 1], ref, 1e-4, 1e-4);
  }
  { // reduction
    const int n = 33554433;
    const u64 nb = ceil_div(n, 256);
    dim3 g((unsigned)nb);
    std::vector<float> hx(n);
    double ref = 0;
    for (int i = 0; i < n; ++i)
      hx[i] = 0.5f * (frand(s) + 1.0f), ref += hx[i];
    float *x = H.alloc<float>(n), *out = H.alloc<float>(1);
    H.h2d(x, hx);
    const u64 Nn = n;
    H.launch("reduce_sum", g, 256, {{"n", n}},
             Counts()
                 .add("flops.f32", nb * 255)
                 .add("bytes.global.load", 4 * Nn)
                 .add("bytes.shared.store", nb * (256 + 255) * 4)
                 .add("bytes.shared.load", nb * (255 * 2 + 1) * 4)
                 .add("bytes.global.atomic", nb * 4),
             [=] { reduce_sum<<<g, 256>>>(n, x, out); });
    std::vector<float> o(1);
    H.d2h(o, out);
    H.near("reduce_sum", 0, o[0], ref, 1e-4);
  }
  { // histogram
    const int n = 20000001;
    const u64 nb = ceil_div(n, 256);
    dim3 g((unsigned)nb);
    std::vector<int> hk(n);
    std::vector<unsigned> ref(64, 0), hh(64);
    for (int i = 0; i < n; ++i) {
      s = s * 1664525u + 1013904223u;
      hk[i] = (int)(s >> 7);
      ref[hk[i] & 63]++;
    }
    int *k = H.alloc<int>(n);
    unsigned *hist = H.alloc<unsigned>(64);
    H.h2d(k, hk);
    const u64 Nn = n;
    H.launch("histogram64", g, 256, {{"n", n}},
             Counts()
                 .add("bytes.shared.store", nb * 64 * 4)
                 .add("bytes.global.load", 4 * Nn)
                 .add("bytes.shared.atomic", 4 * Nn)
                 .add("bytes.shared.load", nb * 64 * 4)
                 .add("bytes.global.atomic", nb * 64 * 4),
             [=] { histogram64<<<g, 256>>>(n, k, hist); });
    H.d2h(hh, hist);
    for (int b2 = 0; b2 < 64; ++b2)
      H.check(hh[b2] == ref[b2], "histogram64", b2, hh[b2], ref[b2]);
  }
  { // float4
    const int n4 = 4000001;
    const unsigned B = 256;
    dim3 g(ceil_div(n4, B));
    std::vector<float4> hx(n4), hy(n4), out(n4);
    for (int i = 0; i < n4; ++i) {
      hx[i] = make_float4(frand(s), frand(s), frand(s), frand(s));
      hy[i] = make_float4(frand(s), frand(s), frand(s), frand(s));
    }
    float a = -0.75f;
    float4 *x = H.alloc<float4>(n4), *y = H.alloc<float4>(n4);
    H.h2d(x, hx);
    H.h2d(y, hy);
    const u64 N4 = n4;
    H.launch("axpy_float4", g, B, {{"n4", n4}},
             Counts()
                 .add("flops.f32", 8 * N4)
                 .add("bytes.global.load", 32 * N4)
                 .add("bytes.global.store", 16 * N4),
             [=] { axpy_float4<<<g, B>>>(n4, a, x, y); });
    H.d2h(out, y);
    for (int i = 0; i < n4; i += 333) {
      H.near("axpy_float4.x", i, out[i].x, a * hx[i].x + hy[i].x, 1e-5, 1e-6);
      H.near("axpy_float4.w", i, out[i].w, a * hx[i].w + hy[i].w, 1e-5, 1e-6);
    }
  }
  { // local memory
    const int n = 1000001;
    const unsigned B = 128;
    dim3 g(ceil_div(n, B));
    std::vector<float> hx((size_t)16 * n), out(n);
    std::vector<int> hi(n);
    for (auto &v : hx)
      v = frand(s);
    for (int i = 0; i < n; ++i)
      s = s * 1664525u + 1013904223u, hi[i] = (int)(s >> 9);
    float *x = H.alloc<float>(hx.size()), *y = H.alloc<float>(n);
    int *idx = H.alloc<int>(n);
    H.h2d(x, hx);
    H.h2d(idx, hi);
    const u64 Nn = n;
    H.launch("local_array", g, B, {{"n", n}},
             Counts()
                 .add("flops.f32", 15 * Nn)
                 .add("bytes.global.load", 68 * Nn)
                 .add("bytes.local.store", 64 * Nn)
                 .add("bytes.local.load", 4 * Nn)
                 .add("bytes.global.store", 4 * Nn),
             [=] { local_array<<<g, B>>>(n, x, idx, y); });
    H.d2h(out, y);
    for (int i = 0; i < n; i += 17) {
      int k = hi[i] & 15;
      H.near("local_array", i, out[i], hx[(size_t)k * n + i] * (float)(k + 1), 1e-6);
    }
  }
  return H.finish("memory");
}
