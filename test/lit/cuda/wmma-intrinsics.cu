// WMMA (nvcuda::wmma from mma.h) lowers to NVVM wmma intrinsics:
// llvm.nvvm.wmma.m16n16k16.{load.a,load.b,mma,store.d}. mma counts 2*M*N*K =
// 2*16*16*16 = 8192 per warp (256 per thread). Fragment loads/stores count
// the tile they move: a 16x16 f16 tile is 512 B per warp (16 B per thread), a
// 16x16 f32 tile 1024 B per warp (32 B per thread).
// Launch 2 blocks of 64 threads = 4 warps (128 threads); K = 48: the loop
// `for (k = 0; k < K; k += 16)` runs 3 times.
//
// RUN: %hroof-static %s --grid 2 --block 64 --arg K=48 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

#include <mma.h>
using namespace nvcuda;

__global__ void wm(const half *__restrict__ a, const half *__restrict__ b,
                   float *__restrict__ c, int K) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, a + k, K);
    wmma::load_matrix_sync(fb, b + k, K);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

// 128 threads x 3 iterations: tensor f16 = 128*3*256 = 98304,
// global load = 128*3*(16 + 16) = 12288; store = 128*32 = 4096.
// CHECK-LABEL: kernel wm(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=12288
// CHECK-NEXT: bytes.global.store=4096
// CHECK-NEXT: tensor_flops.f16=98304
// CHECK-NEXT: end
