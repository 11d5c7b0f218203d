; A failure inside the modeler (here injected with the hidden test option
; -hroof-test-fail-on) must not abort the compile: that kernel is "not
; modelled" with the reason, a remark is printed, and the other kernels of the
; module keep their exact model. The instrumenting pass must still produce a
; module (the kernel without a model is left uninstrumented or counted).
; RUN: %opt-hroof -passes='print<hroof-kernels>' -hroof-test-fail-on=broken %s \
; RUN:   2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: %opt -load-pass-plugin=%hroof -passes=hroof-instrument \
; RUN:   -hroof-test-fail-on=broken %s -S -o - 2>/dev/null | FileCheck %s --check-prefix=INSTR
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel broken
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: not modelled: hroof failed on this function (failure injected by -hroof-test-fail-on); please report it
define ptx_kernel void @broken(ptr %p, float %x) {
entry:
  %y = fadd float %x, 1.0
  store float %y, ptr %p
  ret void
}

; CHECK-LABEL: kernel fine
; CHECK-NEXT: exact: yes
define ptx_kernel void @fine(ptr %p, float %x) {
entry:
  %y = fmul float %x, 2.0
  store float %y, ptr %p
  ret void
}

; REMARK: remark: hroof: broken: not modelled: hroof failed on this function
; INSTR: @__hroof_model = {{.*}}constant
; INSTR-LABEL: define ptx_kernel void @fine(
