// Scalar __half / __nv_bfloat16 arithmetic through cuda_fp16.h / cuda_bf16.h.
// For sm_90 the headers implement __hadd/__hmul with inline PTX
// ("{add.f16 $0,$1,$2;}", "{ mul.bf16 $0,$1,$2; }"), so these FLOPs are only
// visible by parsing the asm string: add/sub/mul.{f16,bf16} = 1 FLOP,
// fma.rn.{f16,bf16} = 2 FLOPs. Launch 3 x 50 = 150 threads, n = 131 pass.
//
// RUN: %hroof-static %s --grid 3 --block 50 --arg n=131 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// add.f16 + mul.f16 + fma.rn.f16 = 1 + 1 + 2 = 4 f16 FLOPs; x loaded (2 B),
// y stored (2 B).
__global__ void hk(int n, const __half *__restrict__ x, __half *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half v = __hmul(__hadd(x[i], x[i]), x[i]);
    y[i] = __hfma(v, v, x[i]);
  }
}

// Same on bf16: 4 bf16 FLOPs, 2 B load, 2 B store.
__global__ void bk(int n, const __nv_bfloat16 *__restrict__ x,
                   __nv_bfloat16 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __nv_bfloat16 v = __hmul(__hadd(x[i], x[i]), x[i]);
    y[i] = __hfma(v, v, x[i]);
  }
}

// hk x 131: 524 f16 FLOPs, 262 B each way.
// CHECK-LABEL: kernel hk(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=262
// CHECK-NEXT: bytes.global.store=262
// CHECK-NEXT: flops.f16=524
// CHECK-NEXT: end
// bk x 131: 524 bf16 FLOPs, 262 B each way.
// CHECK-LABEL: kernel bk(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=262
// CHECK-NEXT: bytes.global.store=262
// CHECK-NEXT: flops.bf16=524
// CHECK-NEXT: end
