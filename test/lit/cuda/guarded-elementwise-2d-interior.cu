// 2D guards on (x, y) = (blockIdx.x*blockDim.x + threadIdx.x,
// blockIdx.y*blockDim.y + threadIdx.y): a plain bounds guard and an
// interior-point guard. Launch 5x5 blocks of 16x8 = 80x40 threads over a
// w=70 by h=33 domain: the grid overhangs in both dimensions.
//
// RUN: %hroof-static %s --grid 5,5 --block 16,8 --arg w=70 --arg h=33 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// out = in * 2 + 1: contracted into one fma = 2 FLOPs; 4 B load, 4 B store.
__global__ void bounds2d(int w, int h, const float *__restrict__ in,
                         float *__restrict__ out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = in[y * w + x] * 2.0f + 1.0f;
}

// Interior points: 4-neighbour sum = 3 fadd; 4 loads (16 B), 1 store (4 B).
__global__ void interior2d(int w, int h, const float *__restrict__ in,
                           float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < w - 1 && j > 0 && j < h - 1) {
    int c = j * w + i;
    out[c] = in[c - 1] + in[c + 1] + in[c - w] + in[c + w];
  }
}

// bounds2d: 70*33 = 2310 threads: 4620 FLOPs, 9240 B load, 9240 B store.
// CHECK-LABEL: kernel bounds2d(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=9240
// CHECK-NEXT: bytes.global.store=9240
// CHECK-NEXT: flops.f32=4620
// CHECK-NEXT: end
// interior2d: (70-2)*(33-2) = 68*31 = 2108 threads: 3*2108 = 6324 FLOPs,
// 16*2108 = 33728 B load, 4*2108 = 8432 B store.
// CHECK-LABEL: kernel interior2d(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=33728
// CHECK-NEXT: bytes.global.store=8432
// CHECK-NEXT: flops.f32=6324
// CHECK-NEXT: end
