// The warp-level model never leaves out bytes that the thread-level count
// has: an instruction whose bytes it has no address for (a wmma fragment
// load, a bulk copy) makes the kernel's warp-level traffic absent, the
// reason naming the instruction, never exact without it. Launch: 1 block
// of 32 threads.
//
// RUN: %hroof-static %s --grid 1 --block 32 --json | python3 %S/Inputs/warp.py | FileCheck %s
// RUN: %hroof-static %s --grid 1 --block 32 --json | python3 %S/Inputs/totals.py \
// RUN:   | FileCheck %s --check-prefix=THREAD

#include <mma.h>
using namespace nvcuda;

__global__ void wmma_load(const half *__restrict__ a, float *__restrict__ out) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> f;
  wmma::load_matrix_sync(f, a, 16);
  out[threadIdx.x] = (float)f.x[0];
}
// The fragment load: 16 x 16 halves = 512 B a warp, 16 B a lane at thread
// level (32 x 16 = 512); its lanes' addresses are the intrinsic's own. The
// store: 32 x 4 = 128 B after one half-to-float conversion a lane.
// CHECK-LABEL: kernel wmma_load(
// CHECK-NEXT: warp.problem=the access at _Z9wmma_loadPK6__halfPf:{{.*}} has no bound: the thread-level count has 16 bytes of global load per lane in call to llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16{{.*}} that the warp-level model has no address for
// CHECK-NEXT: end
// THREAD-LABEL: kernel wmma_load(
// THREAD-NEXT: exact=true
// THREAD-NEXT: bytes.global.load=512
// THREAD-NEXT: bytes.global.store=128
// THREAD-NEXT: other.f16=32
// THREAD-NEXT: end

__global__ void bulk_copy(const float *__restrict__ in, float *__restrict__ out) {
  __shared__ __align__(128) float tile[64];
  __shared__ __align__(8) unsigned long long bar;
  unsigned dst = (unsigned)__cvta_generic_to_shared(tile);
  unsigned mbar = (unsigned)__cvta_generic_to_shared(&bar);
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
               ::"r"(dst), "l"(in), "r"(mbar) : "memory");
  out[threadIdx.x] = tile[threadIdx.x];
}
// Each lane's asm copies 256 B from global to shared (32 x 256 = 8192 B each
// way at thread level); a bulk copy has no lane-by-lane address. Then 4 B
// a lane from shared to global: 128 B each.
// CHECK-LABEL: kernel bulk_copy(
// CHECK-NEXT: warp.problem=the access at _Z9bulk_copyPKfPf:{{.*}} has no bound: the thread-level count has 256 bytes of global load per lane in inline asm 'cp.async.bulk.shared::cluster.global{{.*}}' that the warp-level model has no address for
// CHECK-NEXT: end
// THREAD-LABEL: kernel bulk_copy(
// THREAD-NEXT: exact=true
// THREAD-NEXT: bytes.global.load=8192
// THREAD-NEXT: bytes.global.store=128
// THREAD-NEXT: bytes.shared.load=128
// THREAD-NEXT: bytes.shared.store=8192
// THREAD-NEXT: end
