; Counting rule: a warp shuffle moves a register between lanes; it is no FP
; operation whatever its type (docs/counting-model.md), so shfl.sync on f32
; counts nothing while the fadd next to it counts one f32 FLOP (and the
; store 4 global bytes).
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel shuffle_sum
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term shuffle_sum:%entry: flops.f32=1 bytes.global.store=4 x 1
; CHECK-NOT: other.f32
define ptx_kernel void @shuffle_sum(float %x, ptr %out) {
entry:
  %y = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %x, i32 16, i32 31)
  %s = fadd float %x, %y
  store float %s, ptr addrspace(1) null
  ret void
}

declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
