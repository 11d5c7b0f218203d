// Packed __half2 / __nv_bfloat162 arithmetic from cuda_fp16.h / cuda_bf16.h.
// For sm_90 the headers implement it with inline PTX, one instruction for two
// lanes: "{fma.rn.f16x2 ...}", "{mul.f16x2 ...}", "{add.f16x2 ...}",
// "{ mul.bf16x2 ... }", "{fma.rn.bf16x2 ...}". Per the counting model packed
// ops count per lane: add/sub/mul x2 = 2 FLOPs, fma x2 = 4 FLOPs.
// (The scalar->pair broadcasts are cvt asm: conversions, not FLOPs; `other`
// is not checked here, see the filter below.)
// Launch 4 x 128 = 512 threads, n2 = 500 packed pairs pass the guard.
//
// RUN: %hroof-static %s --grid 4 --block 128 --arg n2=500 --json \
// RUN:   | python3 %S/Inputs/totals.py | grep -v '^other\.' | FileCheck %s

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// __hfma2(a, x, y) then __hadd2 and __hmul2: 4 + 2 + 2 = 8 f16 FLOPs;
// loads x, y (4 B each), store y (4 B).
__global__ void h2ops(int n2, float alpha, const __half2 *__restrict__ x,
                      __half2 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __half2 a = __float2half2_rn(alpha);
    __half2 v = __hfma2(a, x[i], y[i]);
    y[i] = __hmul2(__hadd2(v, x[i]), v);
  }
}

// __hmul2 + __hfma2 on bf16: 2 + 4 = 6 bf16 FLOPs; 8 B load, 4 B store.
__global__ void bf2ops(int n2, float alpha, const __nv_bfloat162 *__restrict__ x,
                       __nv_bfloat162 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) {
    __nv_bfloat162 a = __float2bfloat162_rn(alpha);
    y[i] = __hfma2(a, x[i], __hmul2(a, y[i]));
  }
}

// h2ops x 500: 4000 f16 FLOPs, 4000 B load, 2000 B store.
// CHECK-LABEL: kernel h2ops(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=4000
// CHECK-NEXT: bytes.global.store=2000
// CHECK-NEXT: flops.f16=4000
// CHECK-NEXT: end
// bf2ops x 500: 3000 bf16 FLOPs, 4000 B load, 2000 B store.
// CHECK-LABEL: kernel bf2ops(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=4000
// CHECK-NEXT: bytes.global.store=2000
// CHECK-NEXT: flops.bf16=3000
// CHECK-NEXT: end
