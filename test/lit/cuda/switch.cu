// A switch on a kernel argument selects a different amount of work; the model
// must weight each case by its (argument-dependent) condition. Launch
// 3 x 100 = 300 threads, n = 250 pass the guard.
//
// RUN: %hroof-static %s --grid 3 --block 100 --arg n=250 --arg mode=0 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=M0
// RUN: %hroof-static %s --grid 3 --block 100 --arg n=250 --arg mode=1 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=M1
// RUN: %hroof-static %s --grid 3 --block 100 --arg n=250 --arg mode=7 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=M7

__global__ void modes(int n, int mode, const float *__restrict__ x,
                      const float *__restrict__ z, float *__restrict__ y,
                      double *__restrict__ w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  switch (mode) {
  case 0: // 1 fadd; load x (4 B), store y (4 B)
    y[i] = x[i] + 1.0f;
    break;
  case 1: // x*z + x -> 1 fma (2 FLOPs) + 1 fmul = 3 FLOPs; load x, z (8 B),
          // store y (4 B)
    y[i] = (x[i] * z[i] + x[i]) * z[i];
    break;
  default: // 1 f64 fadd after conversion; load x (4 B), store w (8 B)
    w[i] = (double)x[i] + 0.5;
    break;
  }
}

// mode 0: 250 FLOPs, 1000 B load, 1000 B store.
// M0-LABEL: kernel modes(
// M0-NEXT: exact=true
// M0-NEXT: bytes.global.load=1000
// M0-NEXT: bytes.global.store=1000
// M0-NEXT: flops.f32=250
// M0-NEXT: end
// mode 1: 750 FLOPs, 2000 B load, 1000 B store.
// M1-LABEL: kernel modes(
// M1-NEXT: exact=true
// M1-NEXT: bytes.global.load=2000
// M1-NEXT: bytes.global.store=1000
// M1-NEXT: flops.f32=750
// M1-NEXT: end
// default: 250 f64 FLOPs, 1000 B load, 2000 B store, and 250 conversions
// (fpext f32 -> f64, counted as `other`; the model does not fix under which
// precision key, so either is accepted).
// M7-LABEL: kernel modes(
// M7-NEXT: exact=true
// M7-NEXT: bytes.global.load=1000
// M7-NEXT: bytes.global.store=2000
// M7-NEXT: flops.f64=250
// M7-NEXT: other.{{f32|f64}}=250
// M7-NEXT: end
