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
