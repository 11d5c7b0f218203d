// Tensor Core mma.sync from inline PTX: 2*M*N*K per warp, i.e. 2MNK/32 per
// thread, keyed by the input type. Launch 2 blocks of 96 threads = 6 warps
// (192 threads); the kernel has no guard, every warp issues every mma once.
//
// RUN: %hroof-static %s --grid 2 --block 96 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

#include <cstdint>

__global__ void mmas(const uint32_t *__restrict__ in, float *__restrict__ out,
                     double *__restrict__ dout, int *__restrict__ iout) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a0 = in[4 * t], a1 = in[4 * t + 1], a2 = in[4 * t + 2],
           a3 = in[4 * t + 3]; // 16 B global load per thread
  float c0 = 0.f, c1 = 0.f, c2 = 0.f, c3 = 0.f;
  // f16 m16n8k16: 2*16*8*16 = 4096 per warp
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a0), "r"(a1));
  // bf16 m16n8k16: 4096 per warp
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a2), "r"(a3));
  // tf32 m16n8k8: 2*16*8*8 = 2048 per warp
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a0), "r"(a2));
  // fp8 e4m3 m16n8k32: 2*16*8*32 = 8192 per warp
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a1), "r"(a3));
  // int8 m16n8k32: 8192 per warp
  int d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+r"(d0), "+r"(d1), "+r"(d2), "+r"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a0), "r"(a3));
  // f64 m8n8k4: 2*8*8*4 = 512 per warp
  double e0 = 0.0, e1 = 0.0;
  double fa = (double)a0, fb = (double)a1; // 2 uitofp -> 2 other.f64
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
               "{%0,%1}, {%2}, {%3}, {%0,%1};\n"
               : "+d"(e0), "+d"(e1)
               : "d"(fa), "d"(fb));
  // stores: 4 floats (16 B) + 2 doubles (16 B) + 4 ints (16 B) = 48 B
  out[4 * t] = c0;
  out[4 * t + 1] = c1;
  out[4 * t + 2] = c2;
  out[4 * t + 3] = c3;
  dout[2 * t] = e0;
  dout[2 * t + 1] = e1;
  iout[4 * t] = d0;
  iout[4 * t + 1] = d1;
  iout[4 * t + 2] = d2;
  iout[4 * t + 3] = d3;
}

// 6 warps: f16 6*4096 = 24576, bf16 24576, tf32 6*2048 = 12288,
// fp8 6*8192 = 49152, int8 49152, f64 6*512 = 3072.
// Bytes: 192 threads x 16 B load = 3072, x 48 B store = 9216.
// Conversions: 192 x 2 uitofp (int -> double) = 384 other.f64.
// CHECK-LABEL: kernel mmas(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=3072
// CHECK-NEXT: bytes.global.store=9216
// CHECK-NEXT: other.f64=384
// CHECK-NEXT: tensor_flops.bf16=24576
// CHECK-NEXT: tensor_flops.f16=24576
// CHECK-NEXT: tensor_flops.f64=3072
// CHECK-NEXT: tensor_flops.fp8=49152
// CHECK-NEXT: tensor_flops.int8=49152
// CHECK-NEXT: tensor_flops.tf32=12288
// CHECK-NEXT: end
