; An inline-asm add predicated by its shuffle's lane predicate (CUB's warp
; reduction step): the instrumentation adds its FLOP where the predicate
; holds, computed from %laneid and the shuffle's b and c operands as the PTX
; ISA defines it (passes/ShflPredicate.h), not on every lane; the static
; model multiplies it by the same predicate as an expression of the lane.
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts=false -hroof-instrument-exact -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%hroof -passes='print<hroof-kernels>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MODEL
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @step(
; CHECK: call float asm sideeffect "{ .reg .f32 r0; .reg .pred p; shfl.sync.down.b32 r0|p
; CHECK-NEXT: %[[LANE:.*]] = call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; c = 10 | 16 << 8: segment mask 16, last lane 10; b = 4.
; CHECK: %[[OK:.*]] = icmp sle i32 %{{.*}}, %{{.*}}
; CHECK-NEXT: %[[ONE:.*]] = zext i1 %[[OK]] to i64
; CHECK: add i64 {{.*}}%[[ONE]]
; CHECK: redux.sync
; MODEL-LABEL: kernel step
; MODEL: exact: yes
; MODEL: term step:%entry: flops.f32=1 x [(urem((tid.x + ntid.x*(tid.y + ntid.y*tid.z)), 32) + and(4, 31)) sle or(
define ptx_kernel void @step(ptr %x, ptr %out) {
entry:
  %v = load float, ptr %x
  %r = call float asm sideeffect "{ .reg .f32 r0; .reg .pred p; shfl.sync.down.b32 r0|p, $1, $2, $3, $5; @p add.f32 r0, r0, $4; mov.f32 $0, r0; }", "=f,f,r,r,f,r"(float %v, i32 4, i32 4106, float %v, i32 -1)
  store float %r, ptr %out
  ret void
}
