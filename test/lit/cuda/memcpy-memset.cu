// llvm.memcpy / llvm.memset intrinsics (here from memcpy/memset of a 48-byte
// struct) count their full size, per address space of each side.
// Launch 3 x 64 = 192 threads, n = 150 pass.
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

#include <cstring>

struct Rec {
  float v[12]; // 48 B
};

__global__ void copies(int n, const Rec *__restrict__ in, Rec *__restrict__ out) {
  __shared__ Rec buf[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // memcpy global -> shared: 48 B global load, 48 B shared store
    memcpy(&buf[threadIdx.x], &in[i], sizeof(Rec));
    // memset global: 48 B global store
    memset(&out[i], 0, sizeof(Rec));
    // 4 B shared load, 4 B global store
    out[i].v[threadIdx.x % 12] = buf[threadIdx.x].v[(threadIdx.x + 1) % 12];
  }
}

// 150 threads: global load 7200, global store 150*52 = 7800,
// shared store 7200, shared load 600.
// CHECK-LABEL: kernel copies(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=7200
// CHECK-NEXT: bytes.global.store=7800
// CHECK-NEXT: bytes.shared.load=600
// CHECK-NEXT: bytes.shared.store=7200
// CHECK-NEXT: end
