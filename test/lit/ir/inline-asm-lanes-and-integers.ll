; Inline asm that CUB and libdevice use: the lane index read with
; "mov.u32 $0, %laneid;" is an expression (lane 0 of each warp: 1 in 32
; threads here), integer PTX (mad.lo.cc.u32) counts nothing and is not
; "unparsed", and a predicated FP instruction is counted as executed but makes
; the kernel not exact.
; RUN: %opt-hroof -passes=hroof-static-json -hroof-static-json=%t.json %s
; RUN: %hroof-static %t.json --grid 2 --block 96 --kernel lane0 | FileCheck %s --check-prefix=LANE
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; 2 blocks x 96 threads = 6 warps; lane 0 of each stores 4 bytes.
; LANE: kernel lane0  [exact]
; LANE: bytes.global.store                24
define ptx_kernel void @lane0(ptr %out) {
entry:
  %lane = call i32 asm "mov.u32 $0, %laneid;", "=r"()
  %first = icmp eq i32 %lane, 0
  br i1 %first, label %store, label %done
store:
  store float 1.0, ptr %out
  br label %done
done:
  ret void
}

; CHECK-LABEL: kernel ints_and_predicates
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: predicated inline asm 'add.f32 r0, r0, $1' counted as always executed in ints_and_predicates:%entry
; CHECK-NEXT: term ints_and_predicates:%entry: flops.f32=1 x 1
define ptx_kernel void @ints_and_predicates(i32 %a, float %f) {
entry:
  %m = call i32 asm "mad.lo.cc.u32 $0, $1, $2, $3;", "=r,r,r,r"(i32 %a, i32 %a, i32 %a)
  %s = call float asm "{ .reg .f32 r0; .reg .pred p; setp.ne.u32 p, $2, 0; mov.f32 r0, $1; @p add.f32 r0, r0, $1; mov.f32 $0, r0; }", "=f,f,r"(float %f, i32 %m)
  ret void
}

; CUB's bit mask, the SIMD video instructions and packed 16-bit integer
; arithmetic count nothing and are not "unparsed": the kernel stays exact
; with its one 4-byte store per thread (2 x 32 threads: 256 bytes).
; INTS: kernel packed_ints  [exact]
; INTS: bytes.global.store                256
; INTS-NOT: unparsed
; RUN: %hroof-static %t.json --grid 2 --block 32 --kernel packed_ints | FileCheck %s --check-prefix=INTS
define ptx_kernel void @packed_ints(ptr addrspace(1) %out, i32 %a, i32 %b) {
entry:
  %m = call i32 asm "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r"(i32 %a, i32 %b)
  %v = call i32 asm "vmax4.s32.s32.s32 $0,$1,$2,$3;", "=r,r,r,r"(i32 %m, i32 %b, i32 %a)
  %p = call i32 asm "min.u16x2 $0, $1, $2;", "=r,r,r"(i32 %v, i32 %a)
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = mul i32 %ctaid, 32
  %i = add i32 %base, %tid
  %idx = zext i32 %i to i64
  %addr = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 %p, ptr addrspace(1) %addr
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
