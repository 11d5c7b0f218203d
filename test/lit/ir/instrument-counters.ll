; hroof-instrument: per-thread accumulators in registers, a hot loop with a
; computable trip count counted once at its preheader (no counting code left in
; the loop), generic accesses classified with isspacep, device functions
; returning their counts through a buffer, one redux.sync + one atomic per warp
; per counter at kernel exit, and the static model embedded as __hroof_model.
; The warp-level counts add code at every access (instrument-warp-counts.ll):
; off here, to see the thread-level counting alone.
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts=false -hroof-instrument-exact -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-mode=static -S %s | FileCheck %s --check-prefix=STATIC
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__hroof_model = addrspace(1) constant [{{[0-9]+}} x i8] c"{\22arch\22
; CHECK: @__hroof_counters_dot = addrspace(1) global [1024 x [57 x i64]] zeroinitializer
; STATIC: @__hroof_model = addrspace(1) constant
; STATIC-NOT: __hroof_counters_
; STATIC-NOT: redux.sync

; for (i = 0; i < n; ++i) s += x[i] * y[i];  -- 2 FLOPs (fma) and 8 bytes per iteration
define ptx_kernel void @dot(i32 %n, ptr %x, ptr %y, ptr %out) {
entry:
  %guard = icmp sgt i32 %n, 0
  br i1 %guard, label %loop, label %exit
; The loop's counting point (2 FLOPs, 8 bytes per iteration) is added once,
; trip count (n) times, before the loop ...
; CHECK-LABEL: define ptx_kernel void @dot(
; CHECK: %hroof.trips = add i64 %{{.*}}, 1
; CHECK-NEXT: add i64 0, %hroof.trips
; ... and the loop body has no counting instruction.
; CHECK: loop:
; CHECK-NOT: hroof
; CHECK: br i1 %again, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %px = getelementptr float, ptr %x, i32 %i
  %py = getelementptr float, ptr %y, i32 %i
  %vx = load float, ptr %px
  %vy = load float, ptr %py
  %s.next = call float @llvm.fma.f32(float %vx, float %vy, float %s)
  %i.next = add nsw i32 %i, 1
  %again = icmp slt i32 %i.next, %n
  br i1 %again, label %loop, label %exit
; Exit: 7 counting points for 6 counters, so per-counter totals (loop point x2
; FLOPs, loop point x8 + exit point x8 + callee bytes for the global load, ...),
; a warp whose lanes counted nothing skips the rest (vote.any), warp sums (one
; redux.sync each when every lane's values are below 2^27, else three 27/27/10-bit
; chunks), one atomic per counter by the leader lane, into the copy of the array
; of the warp's SM and warp slot.
; CHECK: exit:
; Generic pointer loaded from memory: classified at run time.
; CHECK: call i1 @llvm.nvvm.isspacep.global(ptr %pp)
; CHECK: call i1 @llvm.nvvm.isspacep.shared(ptr %pp)
; The device function reports through the buffer the caller passes.
; CHECK: call void @helper(ptr %x, i32 %n, ptr %hroof.callee)
; CHECK: call float @twice(float %r)
; CHECK: mul i64 %hroof.acc.0.0, 2
; CHECK: mul i64 %hroof.acc.0.0, 8
; CHECK: call i32 @llvm.nvvm.activemask()
; CHECK: call i1 @llvm.nvvm.vote.any.sync(
; CHECK: call i1 @llvm.nvvm.vote.all.sync(
; CHECK: call i32 @llvm.nvvm.redux.sync.add(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.smid()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.warpid()
; CHECK: %[[SLOT:[0-9]+]] = and i32 %{{[0-9]+}}, 1023
; CHECK: getelementptr inbounds [1024 x [57 x i64]], ptr addrspace(1) @__hroof_counters_dot, i32 0, i32 %[[SLOT]], i32 1
; CHECK-NEXT: atomicrmw add
; CHECK: getelementptr inbounds [1024 x [57 x i64]], ptr addrspace(1) @__hroof_counters_dot, i32 0, i32 %[[SLOT]], i32 34
; CHECK: getelementptr inbounds [1024 x [57 x i64]], ptr addrspace(1) @__hroof_counters_dot, i32 0, i32 %[[SLOT]], i32 35
exit:
  %r = phi float [ 0.0, %entry ], [ %s.next, %loop ]
  %pp = load ptr, ptr %out
  store float %r, ptr %pp
  call void @helper(ptr %x, i32 %n)
  %t = call float @twice(float %r)
  ret void
}


define internal void @helper(ptr %p, i32 %n) noinline {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %body, label %done
body:
  %v = load volatile float, ptr %p
  br label %done
done:
  ret void
}

; Same counts on every call: counted by the caller's block, left untouched.
; CHECK-LABEL: define internal float @twice(float %a)
; CHECK-NEXT: fmul float %a, 2.0
; CHECK-NEXT: ret float
define internal float @twice(float %a) noinline {
  %r = fmul float %a, 2.0
  ret float %r
}

declare float @llvm.fma.f32(float, float, float)

; A guarded straight-line kernel has one counting point, at most 1 per thread
; (no loop): no idle-warp check (every warp that runs counts), no overflow
; check, one warp sum, and the leader multiplies it by each counter's count
; (2 FLOPs, 8 and 4 bytes).
; CHECK-LABEL: define ptx_kernel void @saxpy(
; CHECK-NOT: vote.any.sync
; CHECK-NOT: vote.all.sync
; CHECK: call i32 @llvm.nvvm.redux.sync.add(
; CHECK-NOT: call i32 @llvm.nvvm.redux.sync.add(
; CHECK: br i1
; CHECK: mul i64 %[[SUM:[0-9]+]], 2
; CHECK: atomicrmw add
; CHECK: mul i64 %[[SUM]], 8
; CHECK: atomicrmw add
; CHECK: mul i64 %[[SUM]], 4
; CHECK: atomicrmw add
define ptx_kernel void @saxpy(i32 %n, float %a, ptr %x, ptr %y) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp slt i32 %tid, %n
  br i1 %c, label %body, label %done
body:
  %px = getelementptr float, ptr %x, i32 %tid
  %py = getelementptr float, ptr %y, i32 %tid
  %vx = load float, ptr %px
  %vy = load float, ptr %py
  %r = call float @llvm.fma.f32(float %a, float %vx, float %vy)
  store float %r, ptr %py
  br label %done
done:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; The rewritten device function comes last in the module.
; CHECK-LABEL: define internal void @helper(ptr %p, i32 %n, ptr %hroof.counts)
; CHECK: store i64 {{.*}}, ptr
