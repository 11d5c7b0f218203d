; hroof-instrument -hroof-warp-counts on inline-asm loads and stores
; (passes/WarpInstrument.cpp, asmWarpRequest): an ld/st in the global or
; shared space whose [address] is a pointer operand of the asm (clang's
; __ldcs, hroof/cuda_compat.h) is one warp request of the instruction's
; width, counted before the asm statement; an address with a displacement,
; a 32-bit shared-window address and a predicated instruction are not
; counted at warp level.
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr %in, ptr %out, i32 %sh) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %p = getelementptr <4 x i32>, ptr %in, i64 %i
  %q = getelementptr float, ptr %out, i64 %i
; ld.global.cs.v4.s32: 16 bytes a lane at %p, bytes and sectors.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %[[MASK:[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK: %[[A:hroof.warp.addr[0-9]*]] = ptrtoint ptr %p to i64
; CHECK: call i32 @llvm.nvvm.match.any.sync.i64(i32 %[[MASK]], i64 %[[A]])
; CHECK: select i1 %{{[0-9]+}}, i64 16, i64 0
; CHECK: lshr i64 %[[A]], 5
; CHECK: call { i32, i32, i32, i32 } asm "ld.global.cs.v4.s32
  %v = call { i32, i32, i32, i32 } asm "ld.global.cs.v4.s32 {$0,$1,$2,$3}, [$4];", "=r,=r,=r,=r,l"(ptr %p)
  %x = extractvalue { i32, i32, i32, i32 } %v, 0
  %f = bitcast i32 %x to float
; st.global.wt.f32: 4 bytes a lane at %q.
; CHECK: ptrtoint ptr %q to i64
; CHECK: select i1 %{{[0-9]+}}, i64 4, i64 0
; CHECK: call void asm sideeffect "st.global.wt.f32
  call void asm sideeffect "st.global.wt.f32 [$0], $1;", "l,f,~{memory}"(ptr %q, float %f)
; Not counted: a displacement, a 32-bit shared address, a predicate.
; CHECK-NOT: hroof.warp.addr
; CHECK: call float asm "ld.global.cs.f32 $0, [$1+4];"
; CHECK-NOT: hroof.warp.addr
; CHECK: call float asm "ld.shared.f32 $0, [$1];"
; CHECK-NOT: hroof.warp.addr
; CHECK: call float asm "{ .reg .pred p; setp.ne.s32 p, $2, 0; @p ld.global.f32 $0, [$1]; }"
; CHECK: ret void
  %d = call float asm "ld.global.cs.f32 $0, [$1+4];", "=f,l"(ptr %p)
  %s = call float asm "ld.shared.f32 $0, [$1];", "=f,r"(i32 %sh)
  %g = call float asm "{ .reg .pred p; setp.ne.s32 p, $2, 0; @p ld.global.f32 $0, [$1]; }", "=f,l,r"(ptr %p, i32 %tid)
  %t1 = fadd float %d, %s
  %t2 = fadd float %t1, %g
  store float %t2, ptr %q, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
