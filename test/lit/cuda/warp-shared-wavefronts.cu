// Shared-memory wavefronts (bank-conflict passes): 32 banks of 4 bytes; a
// warp request takes as many passes as the most distinct 4-byte words that
// fall into one bank. Launch: 1 block of 128 threads = 4 warps.
//
// RUN: %hroof-static %s --grid 1 --block 128 --arg s=1 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefixes=CHECK,S1
// RUN: %hroof-static %s --grid 1 --block 128 --arg s=2 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefixes=CHECK,S2
// RUN: %hroof-static %s --grid 1 --block 128 --arg s=32 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefixes=CHECK,S32
// RUN: %hroof-static %s --grid 1 --block 128 --arg s=33 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefixes=CHECK,S33

// Store with stride s floats, then a stride-1 load and a broadcast load.
__global__ void strides(float *out, int s) {
  __shared__ float sm[128 * 33];
  sm[threadIdx.x * s] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = sm[threadIdx.x] + sm[0];
}
// Loads: stride 1 = 1 pass per warp, broadcast = 1 pass: 8 for 4 warps;
// 4 warps x (128 + 4) distinct bytes.
// Stores: s=1: 1 pass per warp (4); s=2: lanes l and l+16 share a bank (8);
// s=32: all 32 lanes in bank 0 (128); s=33 (padded rows): banks l mod 32,
// conflict-free (4). Shared memory has no footprint; out: 128 floats, 512 B.
// CHECK-LABEL: kernel strides(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.store=512
// CHECK-NEXT: sectors.global.store=16
// CHECK-NEXT: warp_bytes.global.store=512
// CHECK-NEXT: warp_bytes.shared.load=528
// CHECK-NEXT: warp_bytes.shared.store=512
// CHECK-NEXT: wavefronts.shared.load=8
// S1-NEXT: wavefronts.shared.store=4
// S2-NEXT: wavefronts.shared.store=8
// S32-NEXT: wavefronts.shared.store=128
// S33-NEXT: wavefronts.shared.store=4
// CHECK-NEXT: end
