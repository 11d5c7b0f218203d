// A load through `c ? &tile[k] : &in[j]`, a pointer into shared memory or
// into global memory chosen per thread (HeCBench's conv1d_tiled_caching,
// sosfil): the access is generic, but the condition is a launch expression,
// so the model counts its bytes as shared where c holds and as global
// where not (passes/Counting.cpp, spaceSelect; KernelModel's
// emitSpaceSelect), exactly; before, they were bytes.generic, inexact.
//
// RUN: %hroof-static %s --grid 2 --block 64 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

__global__ void neighbour_from_tile_or_global(const float *__restrict__ in,
                                              float *__restrict__ out) {
  __shared__ float tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  bool inTile = threadIdx.x + 1 < blockDim.x;
  const float *p = inTile ? &tile[threadIdx.x + 1] : &in[i + 1];
  out[i] = tile[threadIdx.x] + *p;
}

// 128 threads: in[i] loaded and tile[tid] stored and loaded by each (512 B
// each); the neighbour comes from the tile for threads 0..62 of a block
// (126 x 4 B shared) and from global memory for thread 63 (2 x 4 B); one
// FADD and a 4 B store each.
//   global load 512 + 8 = 520; shared load 512 + 504 = 1016.
// CHECK-LABEL: kernel neighbour_from_tile_or_global(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=520
// CHECK-NEXT: bytes.global.store=512
// CHECK-NEXT: bytes.shared.load=1016
// CHECK-NEXT: bytes.shared.store=512
// CHECK-NEXT: flops.f32=128
// CHECK-NEXT: end
