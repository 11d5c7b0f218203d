; hroof-instrument, warp-level counts: the fast path (passes/WarpInstrument.cpp).
; Each request branches, on a warp-uniform condition, between
; - a shuffle-and-vote path: active lanes contiguous (mask >> cttz, then
;   x & (x+1) == 0), the address compared with the next lane's
;   (shfl.sync.down of both halves), monotonic in every lane (vote.all of
;   next >= addr or next <= addr); distinct addresses and sectors are
;   1 + popc(ballot(next != addr)) resp. of the sectors, added by the lowest
;   active lane; a shared request of at most 4 bytes also needs the first and
;   last lanes' words (shfl.sync.idx) less than 32 apart, and adds one
;   wavefront;
; - the match.any path of instrument-warp-counts.ll.
; Both join in a phi before the access, which the split leaves after them;
; the block's own counts and its return stay in the last part (the flush).
; -hroof-instrument-exact: the kernel's models are exact and complete, which
; would leave it uninstrumented (instrument-exact-by-model.ll).
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts \
; RUN:   -hroof-instrument-exact -S %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 16

define ptx_kernel void @k(ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %[[MASK:[0-9]+]] = call i32 @llvm.nvvm.activemask()
; CHECK: %[[A:hroof.warp.addr[0-9]*]] = ptrtoint ptr addrspace(1) %pa to i64
; CHECK: %[[FIRST:[0-9]+]] = call i32 @llvm.cttz.i32(i32 %[[MASK]], i1 true)
; CHECK: call i32 @llvm.ctlz.i32(i32 %[[MASK]], i1 true)
; CHECK: call i32 @llvm.nvvm.shfl.sync.down.i32(i32 %[[MASK]], i32 %{{[0-9]+}}, i32 1, i32 31)
; CHECK: call i32 @llvm.nvvm.shfl.sync.down.i32(i32 %[[MASK]], i32 %{{[0-9]+}}, i32 1, i32 31)
; CHECK: icmp uge i64
; CHECK: call i1 @llvm.nvvm.vote.all.sync(i32 %[[MASK]],
; CHECK: icmp ule i64
; CHECK: call i1 @llvm.nvvm.vote.all.sync(i32 %[[MASK]],
; CHECK: br i1 %{{[0-9]+}}, label %[[FAST:[0-9a-z.]+]], label %[[SLOW:[0-9a-z.]+]]
; The fast path: distinct addresses, then sectors, by ballot and popc.
; CHECK: [[FAST]]:
; CHECK: call i32 @llvm.nvvm.vote.ballot.sync(i32 %[[MASK]],
; CHECK: call {{.*}}i32 @llvm.ctpop.i32(
; CHECK: mul i64 %{{[0-9]+}}, 4
; CHECK: lshr i64 %[[A]], 5
; CHECK: call i32 @llvm.nvvm.vote.ballot.sync(i32 %[[MASK]],
; CHECK-NOT: match.any
; CHECK: br label %[[JOIN:[0-9a-z.]+]]
; CHECK: [[SLOW]]:
; CHECK: call i32 @llvm.nvvm.match.any.sync.i64(i32 %[[MASK]], i64 %[[A]])
; CHECK: br label %[[JOIN]]
; CHECK: [[JOIN]]:
; CHECK: phi i64
; CHECK: phi i64
; CHECK: %va = load float, ptr addrspace(1) %pa
  %pa = getelementptr float, ptr addrspace(1) %in, i64 %i
  %va = load float, ptr addrspace(1) %pa, align 4
; A shared 4-byte store: the words of the first and last active lanes.
; CHECK: ptrtoint ptr addrspace(3) %ps to i64
; CHECK: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %{{[0-9]+}}, i32 %[[W:[0-9]+]], i32 %{{[0-9]+}}, i32 31)
; CHECK: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %{{[0-9]+}}, i32 %[[W]], i32 %{{[0-9]+}}, i32 31)
; CHECK: icmp ult i32 %{{[0-9]+}}, 32
; CHECK: br i1
; CHECK: call i32 @llvm.nvvm.redux.sync.umax(
; CHECK: phi i64
; CHECK: store float %va, ptr addrspace(3) %ps
  %ps = getelementptr float, ptr addrspace(3) @tile, i64 %i
  store float %va, ptr addrspace(3) %ps, align 4
; The flush at the return, in the block that ends the split chain.
; CHECK: call i32 @llvm.nvvm.redux.sync.add
; CHECK: atomicrmw add ptr addrspace(1)
; CHECK: ret void
  ret void
}

; With warp counts on, a kernel without launch bounds is capped at 64
; registers (1024-thread blocks must still launch); one with them keeps them.
; CHECK-LABEL: define ptx_kernel void @bounded(
define ptx_kernel void @bounded(ptr addrspace(1) %in) #0 {
  store float 1.0, ptr addrspace(1) %in, align 4
  ret void
}
attributes #0 = { "nvvm.maxntid"="256" }
; CHECK-DAG: attributes #{{[0-9]+}} = { "nvvm.maxnreg"="64" }
; CHECK-DAG: attributes #{{[0-9]+}} = { "nvvm.maxntid"="256" }

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
