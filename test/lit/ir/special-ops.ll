; Counting rule: div, sqrt, rcp, rsqrt and transcendentals are counted apart
; as "special", per precision, never as FLOPs.
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel specials
; CHECK: term specials:%entry: special.f64.div=1 special.f64.sqrt=1 special.f32.div=2 special.f32.sqrt=1 special.f32.rcp=1 special.f32.rsqrt=1 special.f32.transcendental=4 x 1
define ptx_kernel void @specials(float %x, double %d) {
entry:
  %1 = fdiv float %x, 3.0
  %2 = call float @llvm.nvvm.div.approx.f(float %1, float %x)
  %3 = call float @llvm.sqrt.f32(float %2)
  %4 = call float @llvm.nvvm.rcp.rn.f(float %3)
  %5 = call float @llvm.nvvm.rsqrt.approx.f(float %4)
  %6 = call float @llvm.nvvm.ex2.approx.f(float %5)
  %7 = call float @llvm.nvvm.lg2.approx.f(float %6)
  %8 = call float @llvm.nvvm.sin.approx.f(float %7)
  %9 = call float @llvm.exp.f32(float %8)
  %10 = fdiv double %d, %d
  %11 = call double @llvm.sqrt.f64(double %10)
  ret void
}
declare float @llvm.nvvm.div.approx.f(float, float)
declare float @llvm.sqrt.f32(float)
declare double @llvm.sqrt.f64(double)
declare float @llvm.nvvm.rcp.rn.f(float)
declare float @llvm.nvvm.rsqrt.approx.f(float)
declare float @llvm.nvvm.ex2.approx.f(float)
declare float @llvm.nvvm.lg2.approx.f(float)
declare float @llvm.nvvm.sin.approx.f(float)
declare float @llvm.exp.f32(float)
