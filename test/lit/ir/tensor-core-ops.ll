; Counting rule: Tensor Core FLOPs are 2*M*N*K per warp-level mma (per lane:
; /32) or per warpgroup wgmma (per lane: /128), by input type, from NVVM
; intrinsics and from inline-asm strings. ldmatrix and cp.async move bytes.
; RUN: %opt-hroof -passes='print<hroof-kernels>' %s | FileCheck %s
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: kernel asm_mma
; CHECK-NEXT: exact: yes
; mma m16n8k16 f16: 2*16*8*16/32 = 128; bf16 same shape: 128;
; m16n8k8 tf32: 64; m16n8k32 s8: 256; m16n8k32 e4m3: 256; m8n8k4 f64: 16;
; wgmma m64n128k16 bf16: 2*64*128*16/128 = 2048.
; ldmatrix x4: 16 shared bytes per lane; cp.async 16: 16 global load + 16 shared store.
; CHECK-NEXT: term asm_mma:%entry: tensor_flops.f16=128 tensor_flops.bf16=2176 tensor_flops.tf32=64 tensor_flops.fp8=256 tensor_flops.int8=256 tensor_flops.f64=16 bytes.global.load=16 bytes.shared.load=16 bytes.shared.store=16 x 1
define ptx_kernel void @asm_mma() {
entry:
  call void asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", ""()
  call void asm sideeffect "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", ""()
  call void asm sideeffect "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", ""()
  call void asm sideeffect "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", ""()
  call void asm sideeffect "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", ""()
  call void asm sideeffect "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {$0,$1}, {$2}, {$3}, {$4,$5};", ""()
  call void asm sideeffect "wgmma.fence.sync.aligned;\0A wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0}, $1, $2, 1, 1, 1, 0, 0;\0A wgmma.commit_group.sync.aligned;", ""()
  call void asm sideeffect "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];", ""()
  call void asm sideeffect "cp.async.cg.shared.global [$0], [$1], 16;", ""()
  ret void
}

; CHECK-LABEL: kernel nvvm_mma
; CHECK-NEXT: exact: yes
; wmma m16n16k16 f16 mma: 2*16*16*16/32 = 256; mma.m16n8k16 bf16: 128.
; wmma load.a f16 from global: 16*16*2/32 = 16 bytes per lane; store.d f32 to global: 16*16*4/32 = 32.
; CHECK-NEXT: term nvvm_mma:%entry: tensor_flops.f16=256 tensor_flops.bf16=128 bytes.global.load=16 bytes.global.store=32 x 1
define ptx_kernel void @nvvm_mma(ptr %a, ptr %d) {
entry:
  %fa = call { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr %a, i32 16)
  %r = call { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32(<2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, <2 x half> undef, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0)
  call void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr %d, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, float 0.0, i32 16)
  %m = call { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, float 0.0, float 0.0, float 0.0, float 0.0)
  ret void
}

; CHECK-LABEL: kernel bulk_copy
; CHECK-NEXT: exact: no
; CHECK-NEXT: unknown: bulk tensor (TMA) or reducing copy 'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4]': its bytes are set by the tensor map or the reduction, not visible to the compiler in bulk_copy:%entry
define ptx_kernel void @bulk_copy() {
entry:
  call void asm sideeffect "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];", ""()
  ret void
}

declare { <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half> } @llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p0(ptr, i32)
declare { float, float, float, float, float, float, float, float } @llvm.nvvm.wmma.m16n16k16.mma.row.row.f32.f32(<2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, <2 x half>, float, float, float, float, float, float, float, float)
declare void @llvm.nvvm.wmma.m16n16k16.store.d.row.stride.f32.p0(ptr, float, float, float, float, float, float, float, float, i32)
declare { float, float, float, float } @llvm.nvvm.mma.m16n8k16.row.col.bf16(i32, i32, i32, i32, i32, i32, float, float, float, float)
