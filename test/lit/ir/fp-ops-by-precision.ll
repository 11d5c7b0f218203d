; Counting rule: fadd/fsub/fmul are 1 FLOP per lane, fma/fmuladd 2, by
; precision; packed <2 x half>/<2 x bfloat> count per lane; fneg, fcmp,
; conversions and min/max are "other", not FLOPs.
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel scalar_ops
; CHECK-NEXT: exact: yes
; f64: fadd+fsub+fmul = 3, llvm.fma 2 -> 5; f32: fmuladd 2 + nvvm fma 2 = 4
; f16: fmul 1; bf16: fadd 1. Other: fneg(f64), fcmp(f32), fpext(f16), minnum(f32).
; CHECK-NEXT: term scalar_ops:%entry: flops.f64=5 flops.f32=4 flops.f16=1 flops.bf16=1 other.f64=1 other.f32=2 other.f16=1 x 1
define ptx_kernel void @scalar_ops(double %a, float %b, half %c, bfloat %d) {
entry:
  %1 = fadd double %a, %a
  %2 = fsub double %1, %a
  %3 = fmul double %2, %a
  %4 = call double @llvm.fma.f64(double %3, double %3, double %3)
  %5 = fneg double %4
  %6 = call float @llvm.fmuladd.f32(float %b, float %b, float %b)
  %7 = call float @llvm.nvvm.fma.rn.f(float %6, float %6, float %6)
  %8 = fcmp olt float %7, %b
  %9 = fmul half %c, %c
  %10 = fpext half %9 to float
  %11 = fadd bfloat %d, %d
  %12 = call float @llvm.minnum.f32(float %10, float %7)
  ret void
}

; CHECK-LABEL: kernel packed_ops
; <2 x half> fma: 2 lanes x 2 = 4; <2 x bfloat> fmul: 2; <4 x float> fadd: 4
; CHECK: term packed_ops:%entry: flops.f32=4 flops.f16=4 flops.bf16=2 x 1
define ptx_kernel void @packed_ops(<2 x half> %h, <2 x bfloat> %b, <4 x float> %f) {
entry:
  %1 = call <2 x half> @llvm.fma.v2f16(<2 x half> %h, <2 x half> %h, <2 x half> %h)
  %2 = fmul <2 x bfloat> %b, %b
  %3 = fadd <4 x float> %f, %f
  ret void
}

declare double @llvm.fma.f64(double, double, double)
declare float @llvm.fmuladd.f32(float, float, float)
declare float @llvm.nvvm.fma.rn.f(float, float, float)
declare float @llvm.minnum.f32(float, float)
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)
