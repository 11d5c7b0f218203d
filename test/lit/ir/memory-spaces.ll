; Counting rule: requested bytes by space and direction. Kernel pointer
; arguments are global; addrspacecast of shared/constant globals keeps their
; space; allocas are local; vector accesses count their full width; a pointer
; passed to a local device function is followed to its call sites; a pointer
; loaded from memory stays "generic" (unresolved statically).
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef
@coef = internal addrspace(4) global [4 x float] zeroinitializer

; CHECK-LABEL: kernel spaces
; global: load <4 x float> 16 + store float 4; shared: store 4 + load 4 (through a generic cast);
; constant: load 4; local: store 8 (i64 through a cast alloca) + load 8; generic: the load through %q 4;
; global load also has the 8-byte pointer load from %pp: 16 + 8 = 24
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: generic access whose address space is not provable statically (counted under bytes.generic) in spaces:%entry
; CHECK-NEXT: term spaces:%entry: bytes.global.load=24 bytes.global.store=4 bytes.shared.load=4 bytes.shared.store=4 bytes.local.load=8 bytes.local.store=8 bytes.constant.load=4 bytes.generic.load=4 x 1
define ptx_kernel void @spaces(ptr %in, ptr %out, ptr %pp) {
entry:
  %buf = alloca i64, align 8, addrspace(5)
  %v = load <4 x float>, ptr %in, align 16
  store float 1.0, ptr %out, align 4
  store float 2.0, ptr addrspace(3) @tile, align 4
  %g = addrspacecast ptr addrspace(3) @tile to ptr
  %s = load float, ptr %g, align 4
  %c = load float, ptr addrspace(4) @coef, align 4
  %lb = addrspacecast ptr addrspace(5) %buf to ptr
  store i64 7, ptr %lb, align 8
  %l = load i64, ptr %lb, align 8
  %q = load ptr, ptr %pp, align 8
  %x = load float, ptr %q, align 4
  ret void
}

; CHECK-LABEL: kernel atomics
; atomicrmw fadd f32 4 + cmpxchg i64 8 on global; atomicrmw add i32 on shared 4
; CHECK: term atomics:%entry: bytes.global.atomic=12 bytes.shared.atomic=4 x 1
define ptx_kernel void @atomics(ptr %p, ptr %q) {
entry:
  %1 = atomicrmw fadd ptr %p, float 1.0 seq_cst
  %2 = cmpxchg ptr %q, i64 0, i64 1 seq_cst seq_cst
  %3 = atomicrmw add ptr addrspace(3) @tile, i32 1 monotonic
  ret void
}

; CHECK-LABEL: kernel calls_helper
; CHECK: calls: helper
; The helper's generic pointer argument is global at its only call site.
; CHECK: term helper:%entry: bytes.global.load=4 x 1
define ptx_kernel void @calls_helper(ptr %p) {
entry:
  call void @helper(ptr %p)
  ret void
}
define internal void @helper(ptr %p) noinline {
entry:
  %x = load volatile float, ptr %p, align 4
  ret void
}

; CHECK-LABEL: kernel memcpys
; memcpy 32 bytes global -> shared: 32 global load + 32 shared store;
; memset 16 bytes local.
; CHECK: term memcpys:%entry: bytes.global.load=32 bytes.shared.store=32 bytes.local.store=16 x 1
define ptx_kernel void @memcpys(ptr %src) {
entry:
  %buf = alloca [4 x i32], align 4, addrspace(5)
  call void @llvm.memcpy.p3.p0.i64(ptr addrspace(3) @tile, ptr %src, i64 32, i1 false)
  call void @llvm.memset.p5.i64(ptr addrspace(5) %buf, i8 0, i64 16, i1 false)
  ret void
}
declare void @llvm.memcpy.p3.p0.i64(ptr addrspace(3), ptr, i64, i1)
declare void @llvm.memset.p5.i64(ptr addrspace(5), i8, i64, i1)
