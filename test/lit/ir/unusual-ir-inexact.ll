; Negative tests: constructs the static model cannot make exact are reported
; as "exact: no" with the reason, and never crash the pass: indirect calls,
; recursion, irreducible control flow, data-dependent branches and loops,
; calls to external functions, unparsed inline asm.
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel indirect
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: indirect call in indirect:%entry
define ptx_kernel void @indirect(ptr %fp) {
entry:
  call void %fp()
  ret void
}

; CHECK-LABEL: kernel recursive
; CHECK-NEXT: exact: no
; CHECK: unknown: recursive call to rec
define ptx_kernel void @recursive(i32 %n) {
entry:
  call void @rec(i32 %n)
  ret void
}
define internal void @rec(i32 %n) noinline {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %again, label %done
again:
  %m = add i32 %n, -1
  call void @rec(i32 %m)
  br label %done
done:
  ret void
}

; CHECK-LABEL: kernel irreducible
; CHECK-NEXT: exact: no
; CHECK: unknown: irreducible control flow
define ptx_kernel void @irreducible(i32 %n, ptr %p) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %a, label %b
a:
  %x = load volatile float, ptr %p
  br label %b
b:
  %y = load volatile float, ptr %p
  %d = fcmp olt float %y, 0.0
  br i1 %d, label %a, label %exit
exit:
  ret void
}

; CHECK-LABEL: kernel data_dependent
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: call to external function external_fn in data_dependent:%loop
; CHECK-NEXT: unknown: branch on data loaded from memory in data_dependent:%entry
; CHECK-NEXT: unknown: loop at data_dependent:%loop has a trip count hroof cannot express
; CHECK-NEXT: unknown: unparsed inline asm 'sust.b.1d.b32.trap [$0, {$1}], {$2' in data_dependent:%exit
define ptx_kernel void @data_dependent(ptr %p) {
entry:
  %v = load float, ptr %p
  %c = fcmp ogt float %v, 0.0
  br i1 %c, label %loop, label %exit
loop:
  %x = load volatile float, ptr %p
  %r = call i32 @external_fn(ptr null, ptr null)
  %d = fcmp olt float %x, 1.0
  br i1 %d, label %loop, label %exit
exit:
  call void asm sideeffect "sust.b.1d.b32.trap [$0, {$1}], {$2};", ""()
  ret void
}
declare i32 @external_fn(ptr, ptr)
