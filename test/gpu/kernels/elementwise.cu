// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Elementwise kernels, one per precision, guarded (`if (i < n)`) at an odd n
// so the last block is partial: f64, f32, f16, bf16 scalar and half2 / bf162
// packed. Counts are per thread that passes the guard (n of them); threads
// past n execute only integer code.
#include "harness.h"
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// y = a*x + y: contracted to one fma (2 f64 FLOPs); loads x, y (16 B), stores
// y (8 B).   flops.f64 = 2n, global load 16n, store 8n.
extern "C" __global__ void ew_f64(int n, double a, const double *__restrict__ x,
                                  double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// y = a*x + b*y: fmul + fma = 3 f32 FLOPs (SASS: FMUL + FFMA); 8 B load, 4 B
// store.   flops.f32 = 3n, global load 8n, store 4n.
extern "C" __global__ void ew_f32(int n, float a, float b, const float *__restrict__ x,
                                  float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + b * y[i];
}

// y = x*x + y with __hfma (header inline PTX fma.rn.f16): 2 f16 FLOPs; 4 B
// load, 2 B store.   flops.f16 = 2n, global load 4n, store 2n.
extern "C" __global__ void ew_f16(int n, const __half *__restrict__ x, __half *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma(x[i], x[i], y[i]);
}

// Same on bf16 (fma.rn.bf16): flops.bf16 = 2n, load 4n, store 2n.
extern "C" __global__ void ew_bf16(int n, const __nv_bfloat16 *__restrict__ x,
                                   __nv_bfloat16 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma(x[i], x[i], y[i]);
}

// Packed: y2 = x2*a2 + y2 with __hfma2 (fma.rn.f16x2): 2 lanes x 2 = 4 f16
// FLOPs per thread; 8 B load, 4 B store. The coefficient travels as a 32-bit
// scalar (its bits), not as a by-value __half2 struct: a byval struct
// parameter is a `ptr byval` in IR whose read some pass versions count as a
// memory access (ld.param), which is not what this test is about.   n2 pairs: flops.f16 = 4*n2,
// load 8*n2, store 4*n2.
extern "C" __global__ void ew_h2(int n2, unsigned a2bits, const __half2 *__restrict__ x2,
                                 __half2 *__restrict__ y2) {
  __half2 a2;
  memcpy(&a2, &a2bits, 4);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    y2[i] = __hfma2(x2[i], a2, y2[i]);
}

// Same on bf162 (fma.rn.bf16x2): flops.bf16 = 4*n2, load 8*n2, store 4*n2.
extern "C" __global__ void ew_bf162(int n2, unsigned a2bits, const __nv_bfloat162 *__restrict__ x2,
                                    __nv_bfloat162 *__restrict__ y2) {
  __nv_bfloat162 a2;
  memcpy(&a2, &a2bits, 4);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    y2[i] = __hfma2(x2[i], a2, y2[i]);
}

int main(int argc, char **argv) {
  Harness H(argc, argv);
  const int n = 10000001; // odd: partial last block
  const int n2 = 5000001; // packed pairs
  const unsigned B = 256;
  dim3 g1(ceil_div(n, B)), g2(ceil_div(n2, B));
  const u64 N = n, N2 = n2;
  unsigned s = 12345;

  { // f64
    std::vector<double> hx(n), hy(n), out(n);
    for (int i = 0; i < n; ++i)
      hx[i] = frand(s), hy[i] = frand(s);
    double a = 1.5;
    double *x = H.alloc<double>(n), *y = H.alloc<double>(n);
    H.h2d(x, hx);
    H.h2d(y, hy);
    H.launch("ew_f64", g1, B, {{"n", n}},
             Counts()
                 .add("flops.f64", 2 * N)
                 .add("bytes.global.load", 16 * N)
                 .add("bytes.global.store", 8 * N),
             [=] { ew_f64<<<g1, B>>>(n, a, x, y); });
    H.d2h(out, y);
    for (int i = 0; i < n; i += 997)
      H.near("ew_f64", i, out[i], a * hx[i] + hy[i], 1e-12, 1e-12);
    H.near("ew_f64 last", n - 1, out[n - 1], a * hx[n - 1] + hy[n - 1], 1e-12, 1e-12);
  }
  { // f32
    std::vector<float> hx(n), hy(n), out(n);
    for (int i = 0; i < n; ++i)
      hx[i] = frand(s), hy[i] = frand(s);
    float a = 1.25f, b = -0.5f;
    float *x = H.alloc<float>(n), *y = H.alloc<float>(n);
    H.h2d(x, hx);
    H.h2d(y, hy);
    H.launch("ew_f32", g1, B, {{"n", n}},
             Counts()
                 .add("flops.f32", 3 * N)
                 .add("bytes.global.load", 8 * N)
                 .add("bytes.global.store", 4 * N),
             [=] { ew_f32<<<g1, B>>>(n, a, b, x, y); });
    H.d2h(out, y);
    for (int i = 0; i < n; i += 997)
      H.near("ew_f32", i, out[i], a * hx[i] + b * hy[i], 1e-5, 1e-6);
    H.near("ew_f32 last", n - 1, out[n - 1], a * hx[n - 1] + b * hy[n - 1], 1e-5, 1e-6);
  }
  { // f16 and bf16 scalar
    std::vector<__half> hx(n), hy(n), out(n);
    std::vector<__nv_bfloat16> bx(n), by(n), bout(n);
    for (int i = 0; i < n; ++i) {
      float u = frand(s), v = frand(s);
      hx[i] = __float2half(u), hy[i] = __float2half(v);
      bx[i] = __float2bfloat16(u), by[i] = __float2bfloat16(v);
    }
    __half *x = H.alloc<__half>(n), *y = H.alloc<__half>(n);
    __nv_bfloat16 *xb = H.alloc<__nv_bfloat16>(n), *yb = H.alloc<__nv_bfloat16>(n);
    H.h2d(x, hx);
    H.h2d(y, hy);
    H.h2d(xb, bx);
    H.h2d(yb, by);
    H.launch("ew_f16", g1, B, {{"n", n}},
             Counts()
                 .add("flops.f16", 2 * N)
                 .add("bytes.global.load", 4 * N)
                 .add("bytes.global.store", 2 * N),
             [=] { ew_f16<<<g1, B>>>(n, x, y); });
    H.launch("ew_bf16", g1, B, {{"n", n}},
             Counts()
                 .add("flops.bf16", 2 * N)
                 .add("bytes.global.load", 4 * N)
                 .add("bytes.global.store", 2 * N),
             [=] { ew_bf16<<<g1, B>>>(n, xb, yb); });
    H.d2h(out, y);
    H.d2h(bout, yb);
    for (int i = 0; i < n; i += 997) {
      float u = __half2float(hx[i]), v = __half2float(hy[i]);
      H.near("ew_f16", i, __half2float(out[i]), u * u + v, 2e-3, 2e-3);
      float ub = __bfloat162float(bx[i]), vb = __bfloat162float(by[i]);
      H.near("ew_bf16", i, __bfloat162float(bout[i]), ub * ub + vb, 1e-2, 1e-2);
    }
  }
  { // half2 and bf162 packed
    std::vector<__half2> hx(n2), hy(n2), out(n2);
    std::vector<__nv_bfloat162> bx(n2), by(n2), bout(n2);
    for (int i = 0; i < n2; ++i) {
      float u0 = frand(s), u1 = frand(s), v0 = frand(s), v1 = frand(s);
      hx[i] = __floats2half2_rn(u0, u1), hy[i] = __floats2half2_rn(v0, v1);
      bx[i] = __floats2bfloat162_rn(u0, u1), by[i] = __floats2bfloat162_rn(v0, v1);
    }
    __half2 a2h = __floats2half2_rn(0.75f, -1.25f);
    __nv_bfloat162 ab2h = __floats2bfloat162_rn(0.75f, -1.25f);
    unsigned a2, ab2;
    memcpy(&a2, &a2h, 4);
    memcpy(&ab2, &ab2h, 4);
    __half2 *x = H.alloc<__half2>(n2), *y = H.alloc<__half2>(n2);
    __nv_bfloat162 *xb = H.alloc<__nv_bfloat162>(n2), *yb = H.alloc<__nv_bfloat162>(n2);
    H.h2d(x, hx);
    H.h2d(y, hy);
    H.h2d(xb, bx);
    H.h2d(yb, by);
    H.launch("ew_h2", g2, B, {{"n2", n2}},
             Counts()
                 .lanes(2)
                 .add("flops.f16", 4 * N2)
                 .add("bytes.global.load", 8 * N2)
                 .add("bytes.global.store", 4 * N2),
             [=] { ew_h2<<<g2, B>>>(n2, a2, x, y); });
    H.launch("ew_bf162", g2, B, {{"n2", n2}},
             Counts()
                 .lanes(2)
                 .add("flops.bf16", 4 * N2)
                 .add("bytes.global.load", 8 * N2)
                 .add("bytes.global.store", 4 * N2),
             [=] { ew_bf162<<<g2, B>>>(n2, ab2, xb, yb); });
    H.d2h(out, y);
    H.d2h(bout, yb);
    for (int i = 0; i < n2; i += 997) {
      float u0 = __low2float(hx[i]), u1 = __high2float(hx[i]);
      float v0 = __low2float(hy[i]), v1 = __high2float(hy[i]);
      H.near("ew_h2.lo", i, __low2float(out[i]), u0 * 0.75f + v0, 2e-3, 2e-3);
      H.near("ew_h2.hi", i, __high2float(out[i]), u1 * -1.25f + v1, 2e-3, 2e-3);
      float b0 = __low2float(bx[i]), b1 = __high2float(bx[i]);
      float c0 = __low2float(by[i]), c1 = __high2float(by[i]);
      H.near("ew_bf162.lo", i, __low2float(bout[i]), b0 * 0.75f + c0, 1e-2, 1e-2);
      H.near("ew_bf162.hi", i, __high2float(bout[i]), b1 * -1.25f + c1, 1e-2, 1e-2);
    }
  }
  return H.finish("elementwise");
}
