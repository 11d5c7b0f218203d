// Asynchronous copies and matrix loads from inline PTX:
//   cp.async.cg.shared.global [dst], [src], 16  -> 16 B global load + 16 B
//                                                  shared store per thread
//   ldmatrix.sync.aligned.m8n8.x4.shared.b16    -> 4 x 8x8 b16 matrices per
//                                  warp = 512 B, i.e. 16 B shared load/thread
//   cp.async.commit_group / wait_group          -> no work
// Launch 3 blocks of 128 threads = 384 threads, no guard.
//
// RUN: %hroof-static %s --grid 3 --block 128 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

#include <cstdint>

__global__ void cpasync(const float4 *__restrict__ g, float *__restrict__ out) {
  __shared__ __align__(16) float4 tile[128];
  int t = threadIdx.x;
  unsigned dst = (unsigned)__cvta_generic_to_shared(&tile[t]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
               "l"(g + blockIdx.x * 128 + t));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group 0;\n" ::);
  __syncthreads();
  uint32_t r0, r1, r2, r3;
  unsigned src = (unsigned)__cvta_generic_to_shared(&tile[t % 32]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(src));
  out[blockIdx.x * 128 + t] = __uint_as_float(r0 ^ r1 ^ r2 ^ r3); // 4 B store
}

// 384 threads: global load 384*16 = 6144, shared store 6144,
// shared load 384*16 = 6144, global store 384*4 = 1536.
// CHECK-LABEL: kernel cpasync(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=6144
// CHECK-NEXT: bytes.global.store=1536
// CHECK-NEXT: bytes.shared.load=6144
// CHECK-NEXT: bytes.shared.store=6144
// CHECK-NEXT: end
