; By default a kernel whose static model is exact gets no counting code: the
; runtime evaluates the model at each launch, which gives the same counts at
; no kernel time. The embedded model marks it "counted_by_model"; a kernel
; that is not exact is instrumented as before. -hroof-instrument-exact
; instruments both (the cross-check of the model), and so does the opt-in
; warp-level counting, whose own model may still be bounds.
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts=false -S %s \
; RUN:   | FileCheck %s
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts=false \
; RUN:   -hroof-instrument-exact -S %s | FileCheck %s --check-prefix=ALL
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument -hroof-warp-counts -S %s \
; RUN:   | FileCheck %s --check-prefix=ALL
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__hroof_model = {{.*}}\22counted_by_model\22:true{{.*}}\22mangled\22:\22scale\22
; CHECK-NOT: @__hroof_counters_scale
; CHECK: @__hroof_counters_gather
; CHECK-NOT: @__hroof_counters_scale
; ALL-NOT: counted_by_model
; ALL-DAG: @__hroof_counters_scale
; ALL-DAG: @__hroof_counters_gather

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

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
