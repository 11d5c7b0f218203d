// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Special operations (division, square root, transcendentals), counted apart
// under `special`; the FLOPs are those the -O2 IR contains. libdevice is
// inlined before counting, so expf appears as its expansion. Derived from
//   clang++-22 -O2 -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -S -emit-llvm
// (see the comment of each kernel). Nsight Compute sees the GPU's expansion
// of div/sqrt/ex2 into FFMA/MUFU sequences, so FLOPs are not compared
// exactly against ncu here.
#include "harness.h"

// expf (libdevice __nv_expf, inlined): fma (2), nvvm.saturate.f (other),
// nvvm.fma.rm.f (2), fadd (1), fneg (other), fma (2), fma (2),
// nvvm.ex2.approx.ftz.f32 (transcendental), fmul (1): 10 FLOPs, 2 other,
// 1 transcendental per thread i < n; 4 B load, 4 B store.
extern "C" __global__ void sp_expf(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = expf(x[i]);
}

// sqrtf(x) / z + x: sqrt (llvm.nvvm.sqrt.approx.f: clang's libdevice reflect
// __CUDA_PREC_SQRT is 0 by default), fdiv (IEEE div.rn), fadd (1 FLOP). Loads x, z (8 B), store 4
// B.
extern "C" __global__ void sp_sqrt_div(int n, const float *__restrict__ x,
                                       const float *__restrict__ z, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = sqrtf(x[i]) / z[i] + x[i];
}

// f64: 1.0/x (rcp: fdiv with numerator 1.0) + sqrt(x) (sqrt) : one fadd (1 f64 FLOP); 8 B load, 8 B
// store.
extern "C" __global__ void sp_f64(int n, const double *__restrict__ x, double *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 1.0 / x[i] + sqrt(x[i]);
}

int main(int argc, char **argv) {
  Harness H(argc, argv);
  unsigned s = 31337;
  const int n = 8000001;
  const unsigned B = 256;
  dim3 g(ceil_div(n, B));
  const u64 N = n;
  std::vector<float> hx(n), hz(n), out(n);
  for (int i = 0; i < n; ++i)
    hx[i] = 4.0f * frand(s), hz[i] = 1.5f + frand(s);
  float *x = H.alloc<float>(n), *z = H.alloc<float>(n), *y = H.alloc<float>(n);
  H.h2d(x, hx);
  H.h2d(z, hz);
  H.launch("sp_expf", g, B, {{"n", n}},
           Counts()
               .add("flops.f32", 10 * N)
               .add("other.f32", 2 * N)
               .add("special.f32.transcendental", N)
               .add("bytes.global.load", 4 * N)
               .add("bytes.global.store", 4 * N),
           [=] { sp_expf<<<g, B>>>(n, x, y); });
  H.d2h(out, y);
  for (int i = 0; i < n; i += 101)
    H.near("sp_expf", i, out[i], std::exp((double)hx[i]), 2e-6);

  std::vector<float> ax(n);
  for (int i = 0; i < n; ++i)
    ax[i] = std::fabs(hx[i]);
  H.h2d(x, ax);
  H.launch("sp_sqrt_div", g, B, {{"n", n}},
           Counts()
               .add("flops.f32", N)
               .add("special.f32.sqrt", N)
               .add("special.f32.div", N)
               .add("bytes.global.load", 8 * N)
               .add("bytes.global.store", 4 * N),
           [=] { sp_sqrt_div<<<g, B>>>(n, x, z, y); });
  H.d2h(out, y);
  for (int i = 0; i < n; i += 101)
    H.near("sp_sqrt_div", i, out[i], std::sqrt((double)ax[i]) / hz[i] + ax[i], 1e-5, 1e-5);

  std::vector<double> dx(n), dout(n);
  for (int i = 0; i < n; ++i)
    dx[i] = 0.25 + std::fabs(frand(s));
  double *xd = H.alloc<double>(n), *yd = H.alloc<double>(n);
  H.h2d(xd, dx);
  H.launch("sp_f64", g, B, {{"n", n}},
           Counts()
               .add("flops.f64", N)
               .add("special.f64.rcp", N)
               .add("special.f64.sqrt", N)
               .add("bytes.global.load", 8 * N)
               .add("bytes.global.store", 8 * N),
           [=] { sp_f64<<<g, B>>>(n, xd, yd); });
  H.d2h(dout, yd);
  for (int i = 0; i < n; i += 101)
    H.near("sp_f64", i, dout[i], 1.0 / dx[i] + std::sqrt(dx[i]), 1e-14);
  return H.finish("special");
}
