// Warp-level global traffic: distinct bytes per warp request and 32-byte
// sectors, hand-derived. Launch: 2 blocks of 128 threads = 8 full warps;
// pointers 256-byte aligned unless given.
//
// RUN: %hroof-static %s --kernel 'copy|bcast|strided|transpose' --grid 2 --block 128 \
// RUN:   --arg s=2 --arg w=32 --arg h=32 --arg n=1000000 --json | python3 %S/Inputs/warp.py \
// RUN:   | FileCheck %s --check-prefixes=CHECK,S2
// RUN: %hroof-static %s --kernel 'strided' --grid 2 --block 128 --arg s=32 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=S32
// RUN: %hroof-static %s --kernel 'copy_f32' --grid 2 --block 128 --arg in=0x7f0000000104 \
// RUN:   --arg n=1000000 --json | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=MISALIGNED
// RUN: %hroof-static %s --kernel 'copy_f32' --grid 1 --block 128 --arg n=100 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=PARTIAL

__global__ void copy_f32(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
// 8 warps x 128 B = 1024 B; 4 sectors per warp = 32 (n large: every lane runs).
// Footprint: the 256 floats read and the 256 written, once each: 1024 B each way.
// CHECK-LABEL: kernel copy_f32(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=1024
// CHECK-NEXT: footprint.global.store=1024
// CHECK-NEXT: sectors.global.load=32
// CHECK-NEXT: sectors.global.store=32
// CHECK-NEXT: warp_bytes.global.load=1024
// CHECK-NEXT: warp_bytes.global.store=1024
// CHECK-NEXT: end
// Base at 4 bytes past a 32-byte boundary: each warp's 128 B span 5 sectors.
// The distinct bytes do not depend on where the array starts: still 1024 B.
// MISALIGNED-LABEL: kernel copy_f32(
// MISALIGNED-NEXT: warp.exact=true
// MISALIGNED-NEXT: footprint.global.load=1024
// MISALIGNED-NEXT: footprint.global.store=1024
// MISALIGNED-NEXT: sectors.global.load=40
// MISALIGNED-NEXT: sectors.global.store=32
// n = 100 of 128 threads: warps 0-2 full (3 x 4 sectors), warp 3 has lanes
// 96-99 active: 16 B in 1 sector. 400 B, 13 sectors.
// Footprint: the 100 floats of the active threads, 400 B each way.
// PARTIAL-LABEL: kernel copy_f32(
// PARTIAL-NEXT: warp.exact=true
// PARTIAL-NEXT: footprint.global.load=400
// PARTIAL-NEXT: footprint.global.store=400
// PARTIAL-NEXT: sectors.global.load=13
// PARTIAL-NEXT: sectors.global.store=13
// PARTIAL-NEXT: warp_bytes.global.load=400
// PARTIAL-NEXT: warp_bytes.global.store=400

__global__ void copy_f4(const float4 *__restrict__ in, float4 *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(v.x + 1, v.y + 1, v.z + 1, v.w + 1);
}
// float4: the four field loads are one 16-byte access per lane (the backend
// vectorizes them): 512 B = 16 sectors per warp; 8 warps: 4096 B, 128 sectors.
// Footprint: 256 float4 = 4096 B read and 4096 B written.
// CHECK-LABEL: kernel copy_f4(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=4096
// CHECK-NEXT: footprint.global.store=4096
// CHECK-NEXT: sectors.global.load=128
// CHECK-NEXT: sectors.global.store=128
// CHECK-NEXT: warp_bytes.global.load=4096
// CHECK-NEXT: warp_bytes.global.store=4096
// CHECK-NEXT: end

__global__ void bcast(const float *__restrict__ in, float *__restrict__ out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[0];
}
// Every lane reads the same 4 bytes: 4 B and 1 sector per warp.
// Footprint: those 4 bytes once for the whole launch; 256 floats written.
// CHECK-LABEL: kernel bcast(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=4
// CHECK-NEXT: footprint.global.store=1024
// CHECK-NEXT: sectors.global.load=8
// CHECK-NEXT: sectors.global.store=32
// CHECK-NEXT: warp_bytes.global.load=32
// CHECK-NEXT: warp_bytes.global.store=1024
// CHECK-NEXT: end

__global__ void strided(const float *__restrict__ in, float *__restrict__ out, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * s];
}
// Stride 2 floats: 128 B of data spread over 256 B: 8 sectors per warp.
// Footprint: 256 distinct floats whatever the stride: 1024 B.
// S2-LABEL: kernel strided(
// S2-NEXT: warp.exact=true
// S2-NEXT: footprint.global.load=1024
// S2-NEXT: footprint.global.store=1024
// S2-NEXT: sectors.global.load=64
// S2-NEXT: sectors.global.store=32
// S2-NEXT: warp_bytes.global.load=1024
// Stride 32 floats (128 B): every lane its own sector, 32 per warp.
// S32-LABEL: kernel strided(
// S32-NEXT: warp.exact=true
// S32-NEXT: footprint.global.load=1024
// S32-NEXT: footprint.global.store=1024
// S32-NEXT: sectors.global.load=256
// S32-NEXT: sectors.global.store=32
// S32-NEXT: warp_bytes.global.load=1024

__global__ void transpose(const float *__restrict__ in, float *__restrict__ out, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x * 4 + threadIdx.y;
  out[x * h + y] = in[y * w + x];
}
// Launched here with block (128,1): x = 0..127, y = blockIdx.x * 4. The
// load is coalesced (4 sectors per warp); the store writes one float every
// h*4 = 128 B: 32 sectors per warp, 256 for the 8 warps.
// Footprint: block 0 reads in[0..127], block 1 in[128..255] (y = 4, w = 32):
// 1024 B; it writes out[32 x] and out[32 x + 4], 256 distinct floats: 1024 B.
// S2-LABEL: kernel transpose(
// S2-NEXT: warp.exact=true
// S2-NEXT: footprint.global.load=1024
// S2-NEXT: footprint.global.store=1024
// S2-NEXT: sectors.global.load=32
// S2-NEXT: sectors.global.store=256
// S2-NEXT: warp_bytes.global.load=1024
// S2-NEXT: warp_bytes.global.store=1024
// S2-NEXT: end
