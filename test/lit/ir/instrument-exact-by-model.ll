; By default a kernel whose static model is exact gets no counting code: the
; runtime evaluates the model at each launch, which gives the same counts at
; no kernel time. The embedded model marks it "counted_by_model"; a kernel
; that is not exact is instrumented as before. -hroof-instrument-exact
; instruments every kernel (the cross-check of the model). With the opt-in
; warp-level counts, a kernel is left to the model only where the warp model
; also reads every access: "warp_counted_by_model" (scale); one whose address
; is loaded from memory (indirect) is instrumented there, though its
; thread-level model is exact.
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts=false -S %s \
; RUN:   | FileCheck %s
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts=false \
; RUN:   -hroof-instrument-exact -S %s | FileCheck %s --check-prefix=ALL
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts -S %s \
; RUN:   | FileCheck %s --check-prefix=WARP
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__hroof_model = {{.*}}\22counted_by_model\22:true{{.*}}\22mangled\22:\22scale\22
; CHECK-NOT: warp_counted_by_model
; CHECK-NOT: @__hroof_counters_scale
; CHECK-NOT: @__hroof_counters_indirect
; CHECK: @__hroof_counters_gather
; CHECK-NOT: @__hroof_counters_scale
; CHECK-NOT: @__hroof_counters_indirect
; ALL-NOT: counted_by_model
; ALL-DAG: @__hroof_counters_scale
; ALL-DAG: @__hroof_counters_gather
; ALL-DAG: @__hroof_counters_indirect
; WARP: @__hroof_model = {{.*}}\22counted_by_model\22:true{{.*}}\22mangled\22:\22scale\22{{.*}}\22warp_counted_by_model\22:true
; WARP-NOT: @__hroof_counters_scale
; WARP-DAG: @__hroof_counters_gather
; WARP-DAG: @__hroof_counters_indirect
; WARP-NOT: @__hroof_counters_scale

; out[i] = 2 * x[i], i = tid.x: exact.
; CHECK-LABEL: define ptx_kernel void @scale(
; CHECK-NOT: redux.sync
; CHECK: ret void
define ptx_kernel void @scale(ptr %x, ptr %out) {
entry:
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr float, ptr %x, i32 %i
  %v = load float, ptr %p
  %r = fmul float %v, 2.0
  %q = getelementptr float, ptr %out, i32 %i
  store float %r, ptr %q
  ret void
}

; A branch on data: not exact, instrumented.
; CHECK-LABEL: define ptx_kernel void @gather(
; CHECK: redux.sync
define ptx_kernel void @gather(ptr %x, ptr %out) {
entry:
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr float, ptr %x, i32 %i
  %v = load float, ptr %p
  %c = fcmp ogt float %v, 0.0
  br i1 %c, label %then, label %exit
then:
  %r = fmul float %v, 2.0
  %q = getelementptr float, ptr %out, i32 %i
  store float %r, ptr %q
  br label %exit
exit:
  ret void
}

; out[i] = x[idx[i]]: exact at thread level, but the load's address is
; loaded from memory: the warp model cannot read it.
; CHECK-LABEL: define ptx_kernel void @indirect(
; CHECK-NOT: redux.sync
; CHECK: ret void
; WARP-LABEL: define ptx_kernel void @indirect(
; WARP: match.any.sync
define ptx_kernel void @indirect(ptr %x, ptr %idx, ptr %out) {
entry:
  %i = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pi = getelementptr i32, ptr %idx, i32 %i
  %j = load i32, ptr %pi
  %p = getelementptr float, ptr %x, i32 %j
  %v = load float, ptr %p
  %q = getelementptr float, ptr %out, i32 %i
  store float %v, ptr %q
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
