; Counting rule: ldmatrix/stmatrix move X matrices of shared memory per warp
; (per lane: X * matrix bytes / 32) in every spelling, including CUTLASS's
; count-before-shape order (ldmatrix.sync.aligned.x4.m8n8...); non-tensor bulk
; copies (cp.async.bulk) move their size operand from the source space to the
; destination space, counted for the issuing thread; the size may be an asm
; operand bound to a constant argument. Tensor (TMA) copies, packed sub-byte
; ldmatrix and a size that is not a constant make the kernel inexact.
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; ldmatrix x4 m8n8 b16: 4*128/32 = 16; x2.trans: 8; intrinsic x1: 4  -> load 28.
; stmatrix x4 m8n8: 16 -> store 16.
; CHECK-LABEL: kernel matrix_moves
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term matrix_moves:%entry: bytes.shared.load=28 bytes.shared.store=16 x 1
define ptx_kernel void @matrix_moves(ptr addrspace(3) %s) {
entry:
  call void asm sideeffect "ldmatrix.sync.aligned.x4.m8n8.shared.b16 {$0,$1,$2,$3}, [$4];", ""()
  call void asm sideeffect "ldmatrix.sync.aligned.x2.trans.m8n8.shared.b16 {$0,$1}, [$2];", ""()
  call void asm sideeffect "stmatrix.sync.aligned.x4.m8n8.shared.b16 [$0], {$1,$2,$3,$4};", ""()
  %r = call i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16(ptr addrspace(3) %s)
  ret void
}

; Global -> shared 1024 B (size from operand $2 = constant argument), shared
; -> global 256 B (literal size), intrinsic global -> shared::cluster 512 B.
; CHECK-LABEL: kernel bulk_copies
; CHECK-NEXT: exact: yes
; CHECK-NEXT: term bulk_copies:%entry: bytes.global.load=1536 bytes.global.store=256 bytes.shared.load=256 bytes.shared.store=1536 x 1
define ptx_kernel void @bulk_copies(ptr addrspace(7) %d, ptr addrspace(3) %m, ptr addrspace(1) %g) {
entry:
  call void asm sideeffect "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r"(i32 0, i64 0, i32 1024, i32 0)
  call void asm sideeffect "cp.async.bulk.global.shared::cta.bulk_group [$0], [$1], 256;", "l,r"(i64 0, i32 0)
  call void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7) %d, ptr addrspace(3) %m, ptr addrspace(1) %g, i32 512, i16 0, i64 0, i1 false, i1 false)
  ret void
}

; CHECK-LABEL: kernel not_modelled
; CHECK-NEXT: exact: no
; CHECK-DAG: unknown: bulk tensor (TMA) or reducing copy 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4]': its bytes are set by the tensor map or the reduction, not visible to the compiler in not_modelled:%entry
; CHECK-DAG: unknown: bulk copy 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3]': spaces or size not a constant in not_modelled:%entry
; CHECK-DAG: unknown: unmodeled matrix move 'ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32 {$0,$1,$2,$3}, [$4]' in not_modelled:%entry
define ptx_kernel void @not_modelled(i32 %n) {
entry:
  call void asm sideeffect "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", ""()
  call void asm sideeffect "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1], $2, [$3];", "r,l,r,r"(i32 0, i64 0, i32 %n, i32 0)
  call void asm sideeffect "ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32 {$0,$1,$2,$3}, [$4];", ""()
  ret void
}

declare i32 @llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.b16(ptr addrspace(3))
declare void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7), ptr addrspace(3), ptr addrspace(1), i32, i16, i64, i1, i1)
