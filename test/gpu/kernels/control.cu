// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Control flow: a grid-stride loop, divergent branches with early returns,
// a __noinline__ device function called from a (C++-mangled) kernel, a
// CUB warp reduction whose adds are predicated by its shuffles, and a
// triangular loop nest with a remainder test (summed over its iterations).
#include "harness.h"

#include <cub/warp/warp_reduce.cuh>

// Grid-stride loop, fewer threads than elements: every element i < n is
// visited exactly once. Per element: fma (2 f32 FLOPs), loads x, y (8 B),
// store y (4 B).   flops.f32 = 2n, global load 8n, store 4n.
extern "C" __global__ void gridstride(int n, float a, const float *__restrict__ x,
                                      float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

// Divergent branches and early returns. Each arm stores to its own array,
// so the optimizer cannot merge the arms into selects (which would execute
// every arm's FLOPs). Threads i >= n return at once (no FP work).
//   every thread i < n: load x (4 B), fcmp v > 0 (1 other.f32), one 4 B store
//   P threads (v > 0):             v*v*v           2 FLOPs
//   Q threads (v <= 0, i%4 == 0):  v + 1           1 FLOP
//   R = n-P-Q threads:             fmaf(v,2,3)*v   3 FLOPs (fma + fmul)
// flops.f32 = 2P + Q + 3R, other.f32 = n, load 4n, store 4n.
extern "C" __global__ void branchy(int n, const float *__restrict__ x, float *__restrict__ pos,
                                   float *__restrict__ neg, float *__restrict__ rest) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  if (v > 0.f) {
    pos[i] = v * v * v;
    return;
  }
  if ((i & 3) == 0) {
    neg[i] = v + 1.0f;
    return;
  }
  rest[i] = fmaf(v, 2.f, 3.f) * v;
}

// Degree-4 Horner polynomial: 4 contracted fma = 8 f32 FLOPs per call. Kept
// out of line (a .func in PTX), so the pass instruments it separately.
__device__ __noinline__ float horner(float x) {
  return (((0.5f * x + 0.25f) * x - 1.5f) * x + 2.0f) * x + 0.125f;
}

// y = horner(x) + horner(y): 2*8 + 1 fadd = 17 FLOPs; load 8 B, store 4 B.
//   flops.f32 = 17n, global load 8n, store 4n.
__global__ void poly_noinline(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = horner(x[i]) + horner(y[i]);
}

// CUB WarpReduce<float, 16>::Sum(x, valid): per 16-lane segment, offsets
// o = 1, 2, 4, 8; its inline asm `@p add.f32` runs on the lanes l with
// l + o <= valid - 1 (the shuffle's predicate), max(0, valid - o) of them.
// Every lane stores its value: were only lane 0's stored, ptxas would sink
// the last add past the other lanes' exit and run it on lane 0 alone (seen
// in the SASS on the H100), which no IR-level count can know.
//   flops.f32 = segments * sum_o max(0, valid - o), load and store 4 per
//   thread (lane 0 of a segment holds the segment's sum).
extern "C" __global__ void cub_segment_sum(int valid, const float *__restrict__ x,
                                           float *__restrict__ out) {
  using WR = cub::WarpReduce<float, 16>;
  __shared__ typename WR::TempStorage tmp[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = WR(tmp[threadIdx.x / 16]).Sum(x[i], valid);
}

// A triangular nest with a remainder test of both loop variables: thread
// g < n runs i < g % 16 and, inside, j < i; the branch (i + j) % 3 == 0 does
// a load and an fma. The static model sums over i and j (a sum per thread);
// the loops stay rolled (an unrolled loop's remainder is another shape).
//   T = sum over g < n of #{(i, j): j < i < g % 16, (i + j) % 3 == 0}:
//   flops.f32 = 2T, global load 4T, store 4n.
extern "C" __global__ void triangular_remainder(int n, const float *__restrict__ x,
                                                float *__restrict__ y) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= n)
    return;
  float acc = 0.f;
  int m = g % 16;
#pragma unroll 1
  for (int i = 0; i < m; ++i)
#pragma unroll 1
    for (int j = 0; j < i; ++j)
      if ((i + j) % 3 == 0)
        acc = fmaf(acc, 0.5f, x[(g + 16 * i + j) % n]);
  y[g] = acc;
}

static float hhorner(float x) {
  return fmaf(fmaf(fmaf(fmaf(0.5f, x, 0.25f), x, -1.5f), x, 2.0f), x, 0.125f);
}

// The triangular nest with a remainder test, against a host count of its
// iterations.
static void triangularRemainder(Harness &H, unsigned &s) {
  const int n = 1000003;
  const unsigned B = 256;
  dim3 g(ceil_div(n, B));
  std::vector<float> hx(n), out(n), ref(n);
  for (int i = 0; i < n; ++i)
    hx[i] = frand(s);
  u64 T = 0;
  for (int t = 0; t < n; ++t) {
    float acc = 0.f;
    for (int i = 0; i < t % 16; ++i)
      for (int j = 0; j < i; ++j)
        if ((i + j) % 3 == 0) {
          acc = fmaf(acc, 0.5f, hx[(t + 16 * i + j) % n]);
          ++T;
        }
    ref[t] = acc;
  }
  float *x = H.alloc<float>(n), *y = H.alloc<float>(n);
  H.h2d(x, hx);
  const u64 N = n;
  H.launch("triangular_remainder", g, B, {{"n", n}},
           Counts()
               .add("flops.f32", 2 * T)
               .add("bytes.global.load", 4 * T)
               .add("bytes.global.store", 4 * N),
           [=] { triangular_remainder<<<g, B>>>(n, x, y); });
  H.d2h(out, y);
  for (int i = 0; i < n; i += 101)
    H.near("triangular_remainder", i, out[i], ref[i], 1e-5, 1e-6);
}

int main(int argc, char **argv) {
  Harness H(argc, argv);
  unsigned s = 777;
  { // grid-stride
    const int n = 8000003;
    dim3 g(133), b(192); // 25536 threads, ~313 elements each
    std::vector<float> hx(n), hy(n), out(n);
    for (int i = 0; i < n; ++i)
      hx[i] = frand(s), hy[i] = frand(s);
    float a = 0.5f;
    float *x = H.alloc<float>(n), *y = H.alloc<float>(n);
    H.h2d(x, hx);
    H.h2d(y, hy);
    const u64 N = n;
    H.launch("gridstride", g, b, {{"n", n}},
             Counts()
                 .add("flops.f32", 2 * N)
                 .add("bytes.global.load", 8 * N)
                 .add("bytes.global.store", 4 * N),
             [=] { gridstride<<<g, b>>>(n, a, x, y); });
    H.d2h(out, y);
    for (int i = 0; i < n; i += 101)
      H.near("gridstride", i, out[i], a * hx[i] + hy[i], 1e-5, 1e-6);
    H.near("gridstride last", n - 1, out[n - 1], a * hx[n - 1] + hy[n - 1], 1e-5, 1e-6);
  }
  { // divergent branches
    const int n = 6000001;
    const unsigned B = 128;
    dim3 g(ceil_div(n, B));
    std::vector<float> hx(n), hp(n), hn(n), hr(n);
    u64 P = 0, Q = 0, R = 0;
    for (int i = 0; i < n; ++i) {
      hx[i] = frand(s);
      if (hx[i] > 0.f)
        ++P;
      else if ((i & 3) == 0)
        ++Q;
      else
        ++R;
    }
    float *x = H.alloc<float>(n), *p = H.alloc<float>(n), *q = H.alloc<float>(n),
          *r = H.alloc<float>(n);
    H.h2d(x, hx);
    const u64 N = n;
    H.launch("branchy", g, B, {{"n", n}},
             Counts()
                 .add("flops.f32", 2 * P + Q + 3 * R)
                 .add("other.f32", N)
                 .add("bytes.global.load", 4 * N)
                 .add("bytes.global.store", 4 * N),
             [=] { branchy<<<g, B>>>(n, x, p, q, r); });
    H.d2h(hp, p);
    H.d2h(hn, q);
    H.d2h(hr, r);
    for (int i = 0; i < n; i += 7) {
      float v = hx[i];
      if (v > 0.f)
        H.near("branchy pos", i, hp[i], v * v * v, 1e-5, 1e-7);
      else if ((i & 3) == 0)
        H.near("branchy neg", i, hn[i], v + 1.0f, 1e-6, 1e-7);
      else
        H.near("branchy rest", i, hr[i], fmaf(v, 2.f, 3.f) * v, 1e-5, 1e-7);
    }
  }
  { // noinline device function
    const int n = 7000001;
    const unsigned B = 256;
    dim3 g(ceil_div(n, B));
    std::vector<float> hx(n), hy(n), out(n);
    for (int i = 0; i < n; ++i)
      hx[i] = frand(s), hy[i] = frand(s);
    float *x = H.alloc<float>(n), *y = H.alloc<float>(n);
    H.h2d(x, hx);
    H.h2d(y, hy);
    const u64 N = n;
    H.launch("poly_noinline", g, B, {{"n", n}},
             Counts()
                 .add("flops.f32", 17 * N)
                 .add("bytes.global.load", 8 * N)
                 .add("bytes.global.store", 4 * N),
             [=] { poly_noinline<<<g, B>>>(n, x, y); });
    H.d2h(out, y);
    for (int i = 0; i < n; i += 101)
      H.near("poly_noinline", i, out[i], hhorner(hx[i]) + hhorner(hy[i]), 1e-5, 1e-5);
  }
  { // CUB warp reduction, 16-lane segments, 11 valid items each
    const int valid = 11;
    const unsigned B = 256, nb = 20011;
    const u64 N = u64(nb) * B, segs = N / 16;
    std::vector<float> hx(N), out(N);
    for (u64 i = 0; i < N; ++i)
      hx[i] = frand(s);
    float *x = H.alloc<float>(N), *o = H.alloc<float>(N);
    H.h2d(x, hx);
    u64 adds = 0;
    for (int off = 1; off < 16; off *= 2)
      adds += std::max(0, valid - off);
    H.launch("cub_segment_sum", nb, B, {{"valid", valid}},
             Counts()
                 .add("flops.f32", segs * adds)
                 .add("bytes.global.load", 4 * N)
                 .add("bytes.global.store", 4 * N),
             [=] { cub_segment_sum<<<nb, B>>>(valid, x, o); });
    H.d2h(out, o);
    for (u64 g = 0; g < segs; g += 97) {
      double ref = 0;
      for (int l = 0; l < valid; ++l)
        ref += hx[g * 16 + l];
      H.near("cub_segment_sum", long(g), out[g * 16], ref, 1e-5, 1e-5);
    }
  }
  triangularRemainder(H, s);
  return H.finish("control");
}
