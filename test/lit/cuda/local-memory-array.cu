// A per-thread array indexed by a run-time value stays in local memory (an
// alloca): its stores and loads count under bytes.local. Launch 3 x 64 = 192
// threads, n = 150 pass.
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// Per thread: 16 global loads of x (64 B) stored to buf (64 B local), one 4 B
// global load of idx[i], one 4 B local load of buf[idx & 15], one 4 B global
// store. No FLOPs.
__global__ void localbuf(int n, const float *__restrict__ x,
                         const int *__restrict__ idx, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float buf[16];
    for (int k = 0; k < 16; ++k)
      buf[k] = x[i * 16 + k];
    y[i] = buf[idx[i] & 15];
  }
}

// x 150: global load 150*68 = 10200, local store 150*64 = 9600,
// local load 150*4 = 600, global store 600.
// CHECK-LABEL: kernel localbuf(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=10200
// CHECK-NEXT: bytes.global.store=600
// CHECK-NEXT: bytes.local.load=600
// CHECK-NEXT: bytes.local.store=9600
// CHECK-NEXT: end
