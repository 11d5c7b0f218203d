// Guards with unsigned and 64-bit indices, a guard on blockIdx only, and a 3D
// guard. Launch grid 5x3x3 of 8x4x2 blocks: 40 x 12 x 6 threads in x, y, z
// (2880 in all); every kernel does x[c] + 1 (1 FLOP, 4 B load, 4 B store) per
// passing thread.
//
// RUN: %hroof-static %s --grid 5,3,3 --block 8,4,2 --arg n=37 --arg nb=2 \
// RUN:   --arg nx=35 --arg ny=11 --arg nz=5 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

#include <cstddef>

// 1D index over x only: i = 0..39, each value held by 4*2*3*3 = 72 threads
// (ty, tz, blockIdx.y, blockIdx.z). i < 37 -> 37*72 = 2664 threads.
__global__ void u32(unsigned n, const float *__restrict__ x, float *__restrict__ y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + 1.0f;
}

// Same with a 64-bit index and size: 2664 threads.
__global__ void s64(size_t n, const float *__restrict__ x, float *__restrict__ y) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + 1.0f;
}

// Only blocks with blockIdx.x < 2 work: 2 of 5 block columns -> 2880*2/5 = 1152.
__global__ void blk(int nb, const float *__restrict__ x, float *__restrict__ y) {
  if (blockIdx.x >= nb)
    return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] + 1.0f;
}

// 3D guard: i < 35 (of 40), j < 11 (of 12), k < 5 (of 6) -> 35*11*5 = 1925.
__global__ void g3d(int nx, int ny, int nz, const float *__restrict__ x,
                    float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i < nx && j < ny && k < nz) {
    int c = (k * ny + j) * nx + i;
    y[c] = x[c] + 1.0f;
  }
}

// CHECK-LABEL: kernel u32(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=10656
// CHECK-NEXT: bytes.global.store=10656
// CHECK-NEXT: flops.f32=2664
// CHECK-NEXT: end
// CHECK-LABEL: kernel s64(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=10656
// CHECK-NEXT: bytes.global.store=10656
// CHECK-NEXT: flops.f32=2664
// CHECK-NEXT: end
// CHECK-LABEL: kernel blk(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=4608
// CHECK-NEXT: bytes.global.store=4608
// CHECK-NEXT: flops.f32=1152
// CHECK-NEXT: end
// CHECK-LABEL: kernel g3d(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=7700
// CHECK-NEXT: bytes.global.store=7700
// CHECK-NEXT: flops.f32=1925
// CHECK-NEXT: end
