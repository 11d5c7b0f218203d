; hroof-instrument, warp-level counts (passes/WarpInstrument.cpp): every global
; and shared load and store gets match.any.sync on its address (distinct
; bytes), global ones also on address >> 5 (sectors), shared ones the
; bank-conflict count (match.any on the chunk, on its bank among the leaders,
; redux.sync.umax per lane group); four adjacent floats that the backend merges
; into one 16-byte access are counted once, before the first of them; generic
; accesses are classified with isspacep; atomics are not counted at warp level.
; -hroof-warp-counts=false (the default) leaves only the thread-level counting.
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x double] undef, align 16

; CHECK: @__hroof_counters_k = addrspace(1) global [1024 x [57 x i64]] zeroinitializer
; OFF: @__hroof_counters_k = addrspace(1) global [1024 x [57 x i64]] zeroinitializer
; OFF-NOT: match.any
; OFF-NOT: redux.sync.umax

define ptx_kernel void @k(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %pp) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
; A global 4-byte load: bytes on the address, sectors on address >> 5.
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %[[MASK:[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK: %[[A:hroof.warp.addr[0-9]*]] = ptrtoint ptr addrspace(1) %pa to i64
; CHECK: call i32 @llvm.nvvm.match.any.sync.i64(i32 %[[MASK]], i64 %[[A]])
; CHECK: select i1 %{{[0-9]+}}, i64 4, i64 0
; CHECK: %[[S:[0-9]+]] = lshr i64 %[[A]], 5
; CHECK: call i32 @llvm.nvvm.match.any.sync.i64(i32 %[[MASK]], i64 %[[S]])
; CHECK: %va = load float, ptr addrspace(1) %pa
  %pa = getelementptr float, ptr addrspace(1) %in, i64 %i
  %va = load float, ptr addrspace(1) %pa, align 4
; Four adjacent floats at a 16-byte aligned address: one 16-byte request,
; counted before the first load, nothing between the four.
; CHECK: ptrtoint ptr addrspace(1) %p0 to i64
; CHECK: select i1 %{{[0-9]+}}, i64 16, i64 0
; CHECK: %v0 = load float
; CHECK-NEXT: %p1 = getelementptr
; CHECK-NEXT: %v1 = load float
; CHECK-NEXT: %p2 = getelementptr
; CHECK-NEXT: %v2 = load float
; CHECK-NEXT: %p3 = getelementptr
; CHECK-NEXT: %v3 = load float
  %i4 = shl i64 %i, 2
  %p0 = getelementptr float, ptr addrspace(1) %in, i64 %i4
  %v0 = load float, ptr addrspace(1) %p0, align 16
  %p1 = getelementptr float, ptr addrspace(1) %p0, i64 1
  %v1 = load float, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr float, ptr addrspace(1) %p0, i64 2
  %v2 = load float, ptr addrspace(1) %p2, align 8
  %p3 = getelementptr float, ptr addrspace(1) %p0, i64 3
  %v3 = load float, ptr addrspace(1) %p3, align 4
; A shared 8-byte store: bytes, then the wavefronts: 16-lane groups (lane >>
; 4), the chunk (address >> 3) and its bank among 16, one umax per group.
; CHECK: ptrtoint ptr addrspace(3) %ps to i64
; CHECK: select i1 %{{[0-9]+}}, i64 8, i64 0
; CHECK: lshr i64 %{{[0-9a-z.]+}}, 3
; CHECK: lshr i32 %{{[0-9]+}}, 4
; CHECK: call i32 @llvm.nvvm.match.any.sync.i32(
; CHECK: call i32 @llvm.ctpop.i32(
; CHECK: call i32 @llvm.nvvm.redux.sync.umax(
; CHECK: call i32 @llvm.nvvm.redux.sync.umax(
; CHECK: store double
  %s = fpext float %va to double
  %ps = getelementptr double, ptr addrspace(3) @tile, i64 %i
  store double %s, ptr addrspace(3) %ps, align 8
; A shared 4-byte load: one group of 32 lanes, one umax.
; CHECK: ptrtoint ptr addrspace(3) %pl to i64
; CHECK: select i1 %{{[0-9]+}}, i64 4, i64 0
; CHECK: lshr i64 %{{[0-9a-z.]+}}, 2
; CHECK: lshr i32 %{{[0-9]+}}, 5
; CHECK: call i32 @llvm.nvvm.match.any.sync.i32(
; CHECK: call i32 @llvm.nvvm.redux.sync.umax(
; CHECK-NOT: call i32 @llvm.nvvm.redux.sync.umax(
; CHECK: %vl = load float, ptr addrspace(3) %pl
  %j = xor i64 %i, 1
  %pl = getelementptr float, ptr addrspace(3) @tile, i64 %j
  %vl = load float, ptr addrspace(3) %pl, align 4
; A global 4-byte store: bytes and sectors, no wavefronts.
; CHECK: ptrtoint ptr addrspace(1) %pst to i64
; CHECK: call i32 @llvm.nvvm.match.any.sync.i64(
; CHECK: lshr i64 %{{.*}}, 5
; CHECK: call i32 @llvm.nvvm.match.any.sync.i64(
; CHECK-NOT: redux.sync.umax
; CHECK: store float %vl, ptr addrspace(1) %pst
  %pst = getelementptr float, ptr addrspace(1) %out, i64 %j
  store float %vl, ptr addrspace(1) %pst, align 4
; A generic pointer loaded from memory: its space at run time.
; CHECK: call i1 @llvm.nvvm.isspacep.global(ptr %g)
; CHECK: call i1 @llvm.nvvm.isspacep.shared(ptr %g)
; CHECK: call i32 @llvm.nvvm.match.any.sync.i64(
; CHECK: store float
  %g = load ptr, ptr addrspace(1) %pp, align 8
  %sum = fadd float %v0, %v3
  store float %sum, ptr %g, align 4
; An atomic: thread-level bytes only.
; CHECK: atomicrmw fadd
; CHECK-NOT: match.any
; CHECK: ret void
  %po = getelementptr float, ptr addrspace(1) %out, i64 %i
  %old = atomicrmw fadd ptr addrspace(1) %po, float %v1 monotonic, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
