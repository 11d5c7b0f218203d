// Hopper warpgroup MMA from inline PTX (sm_90a): wgmma.mma_async counts
// 2*M*N*K per warpgroup of 128 threads (2MNK/128 per thread), keyed by input
// type; wgmma.fence / commit_group / wait_group are no work. Operands come
// from shared memory through descriptors, so the asm moves no counted bytes.
// Launch 3 blocks of 256 threads = 6 warpgroups (768 threads).
//
// RUN: %hroof-static %s --arch sm_90a --grid 3 --block 256 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

#include <cstdint>

__global__ void wg(const uint64_t *__restrict__ desc, float *__restrict__ out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  uint64_t da = desc[0], db = desc[1]; // 2 x 8 B global loads per thread
  float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  // f16 m64n8k16: 2*64*8*16 = 16384 per warpgroup
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
               "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "l"(da), "l"(db));
  // bf16 m64n8k16: 16384 per warpgroup
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "l"(da), "l"(db));
  // tf32 m64n8k8: 2*64*8*8 = 8192 per warpgroup
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3}, %4, %5, p, 1, 1;\n}\n"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  out[4 * t] = d0; // 4 x 4 B stores per thread
  out[4 * t + 1] = d1;
  out[4 * t + 2] = d2;
  out[4 * t + 3] = d3;
}

// 6 warpgroups: f16 6*16384 = 98304, bf16 98304, tf32 6*8192 = 49152.
// 768 threads x 16 B load = 12288, x 16 B store = 12288.
// CHECK-LABEL: kernel wg(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=12288
// CHECK-NEXT: bytes.global.store=12288
// CHECK-NEXT: tensor_flops.bf16=98304
// CHECK-NEXT: tensor_flops.f16=98304
// CHECK-NEXT: tensor_flops.tf32=49152
// CHECK-NEXT: end
