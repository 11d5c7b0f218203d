; Address spaces proved for generic pointers (docs/counting-model.md, "Memory
; spaces"): a pointer (or an i64 made a pointer) loaded from a kernel's byval
; struct that the kernel never writes is global; null in a select is left
; out; a pointer slot (alloca or __shared__ variable holding whole pointers,
; its address not escaping) takes the space of what is stored into it; inline
; asm whose output is `cvta.shared.u64 $0` is shared; a generic-space variable
; is global. The negative cases stay generic: a byval struct the kernel writes,
; a slot holding pointers of two spaces, asm that is not cvta.shared.
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Params = type { ptr, ptr, i32 }

@tile = internal addrspace(3) global [64 x float] undef
@slot = internal addrspace(3) global ptr undef, align 8
@mixed = internal addrspace(3) global ptr undef, align 8
@table = private unnamed_addr constant [4 x i8] c"abc\00", align 1

; CHECK-LABEL: kernel byval_params
; Reads of the struct are parameter reads (not counted); through the two
; pointers in it: global load 4 (ptr field) + global store 4 (i64 field).
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term byval_params:%entry: bytes.global.load=4 bytes.global.store=4 x 1
define ptx_kernel void @byval_params(ptr byval(%struct.Params) align 8 %p) {
entry:
  %in = load ptr, ptr %p, align 8
  %f1 = getelementptr inbounds i8, ptr %p, i64 8
  %outi = load i64, ptr %f1, align 8
  %out = inttoptr i64 %outi to ptr
  %x = load float, ptr %in, align 4
  store float %x, ptr %out, align 4
  ret void
}

; CHECK-LABEL: kernel byval_written
; The kernel stores a shared address into its struct (a local store of 8):
; the pointer loaded back stays generic.
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: generic access whose address space is not provable statically (counted under bytes.generic) in byval_written:%entry
; CHECK-NEXT: term byval_written:%entry: bytes.local.store=8 bytes.generic.load=4 x 1
define ptx_kernel void @byval_written(ptr byval(%struct.Params) align 8 %p) {
entry:
  store ptr addrspacecast (ptr addrspace(3) @tile to ptr), ptr %p, align 8
  %in = load ptr, ptr %p, align 8
  %x = load float, ptr %in, align 4
  ret void
}

; CHECK-LABEL: kernel null_or_arg
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term null_or_arg:%entry: bytes.global.load=4 x 1
define ptx_kernel void @null_or_arg(ptr %a, i1 %c) {
entry:
  %q = select i1 %c, ptr null, ptr %a
  %x = load float, ptr %q, align 4
  ret void
}

; CHECK-LABEL: kernel shared_slot
; The slot: shared store 8 + shared load 8; through it, @tile: shared load 4.
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term shared_slot:%entry: bytes.shared.load=12 bytes.shared.store=8 x 1
define ptx_kernel void @shared_slot(i32 %i) {
entry:
  store ptr addrspacecast (ptr addrspace(3) @tile to ptr), ptr addrspacecast (ptr addrspace(3) @slot to ptr), align 8
  %s = load ptr, ptr addrspacecast (ptr addrspace(3) @slot to ptr), align 8
  %e = getelementptr inbounds float, ptr %s, i32 %i
  %x = load float, ptr %e, align 4
  ret void
}

; CHECK-LABEL: kernel shared_slot_mixed
; Stored: a shared address and a global one: the load through it stays generic.
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: generic access whose address space is not provable statically (counted under bytes.generic) in shared_slot_mixed:%entry
; CHECK-NEXT: term shared_slot_mixed:%entry: bytes.shared.load=8 bytes.shared.store=16 bytes.generic.load=4 x 1
define ptx_kernel void @shared_slot_mixed(ptr %a) {
entry:
  store ptr addrspacecast (ptr addrspace(3) @tile to ptr), ptr addrspacecast (ptr addrspace(3) @mixed to ptr), align 8
  store ptr %a, ptr addrspacecast (ptr addrspace(3) @mixed to ptr), align 8
  %s = load ptr, ptr addrspacecast (ptr addrspace(3) @mixed to ptr), align 8
  %x = load float, ptr %s, align 4
  ret void
}

; CHECK-LABEL: kernel cvta_shared_asm
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term cvta_shared_asm:%entry: bytes.shared.load=4 x 1
define ptx_kernel void @cvta_shared_asm() {
entry:
  %a = tail call i64 asm "{\0A\09 .reg .u64 extended;\0A\09 mov.u64 extended, 0;\0A\09 cvta.shared.u64 $0, extended;\0A\09}", "=l"()
  %p = inttoptr i64 %a to ptr
  %x = load float, ptr %p, align 4
  ret void
}

; CHECK-LABEL: kernel mov_asm
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: generic access whose address space is not provable statically (counted under bytes.generic) in mov_asm:%entry
; CHECK-NEXT: term mov_asm:%entry: bytes.generic.load=4 x 1
define ptx_kernel void @mov_asm() {
entry:
  %a = tail call i64 asm "mov.u64 $0, 0;", "=l"()
  %p = inttoptr i64 %a to ptr
  %x = load float, ptr %p, align 4
  ret void
}

; CHECK-LABEL: kernel generic_variable
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term generic_variable:%entry: bytes.global.load=1 x 1
define ptx_kernel void @generic_variable(i32 %i) {
entry:
  %e = getelementptr inbounds [4 x i8], ptr @table, i32 0, i32 %i
  %x = load i8, ptr %e, align 1
  ret void
}

; CHECK-LABEL: kernel alloca_slot
; The slot: local store 8 + local load 8; through it, %a: global load 4.
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term alloca_slot:%entry: bytes.global.load=4 bytes.local.load=8 bytes.local.store=8 x 1
define ptx_kernel void @alloca_slot(ptr %a) {
entry:
  %slot = alloca ptr, align 8
  store ptr %a, ptr %slot, align 8
  %s = load volatile ptr, ptr %slot, align 8
  %x = load float, ptr %s, align 4
  ret void
}

; The helper's argument or null: each call site gives its own space.
; CHECK-LABEL: kernel helper_from_global
; CHECK-NEXT: exact: yes
; CHECK: term helper_or_null:%entry: bytes.global.load=4 x 1
define ptx_kernel void @helper_from_global(ptr %a) {
entry:
  call void @helper_or_null(ptr %a, i1 false)
  ret void
}
; CHECK-LABEL: kernel helper_from_shared
; CHECK-NEXT: exact: yes
; CHECK: term helper_or_null:%entry: bytes.shared.load=4 x 1
define ptx_kernel void @helper_from_shared() {
entry:
  call void @helper_or_null(ptr addrspacecast (ptr addrspace(3) @tile to ptr), i1 false)
  ret void
}
define internal void @helper_or_null(ptr %p, i1 %c) noinline {
entry:
  %q = select i1 %c, ptr null, ptr %p
  %x = load volatile float, ptr %q, align 4
  ret void
}
