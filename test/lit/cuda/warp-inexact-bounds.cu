// Where the warp-level model cannot follow an address it gives bounds, never
// one number: a gather through an index array. 1 block of 64 threads.
//
// RUN: %hroof-static %s --grid 1 --block 64 --json | python3 %S/Inputs/warp.py | FileCheck %s
// RUN: %hroof-static %s --grid 1 --block 64 | FileCheck %s --check-prefix=TEXT

__global__ void gather(const int *__restrict__ idx, const float *__restrict__ in,
                       float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}
// idx and out are coalesced (2 warps x 4 sectors, 256 B each). in[idx[i]]:
// per warp at least one request of one lane (4 B, 1 sector), at most one
// per lane (32 x 4 B, 32 sectors): [8, 256] B and [2, 64] sectors over both
// warps, added to idx's exact 256 B and 8 sectors.
// Footprint read: idx's 256 B for certain, plus at most 64 x 4 B of in:
// [256, 512]; out: 256 B.
// CHECK-LABEL: kernel gather(
// CHECK-NEXT: warp.exact=false
// CHECK-NEXT: footprint.global.load=256..512
// CHECK-NEXT: footprint.global.store=256
// CHECK-NEXT: sectors.global.load=10..72
// CHECK-NEXT: sectors.global.store=8
// CHECK-NEXT: warp_bytes.global.load=264..512
// CHECK-NEXT: warp_bytes.global.store=256
// CHECK-NEXT: inexact=the address depends on data {{.*}} at _Z6gatherPKiPKfPf:
// CHECK-NEXT: end

// TEXT-LABEL: kernel gather
// TEXT: warp-level traffic  [bounds]:
// TEXT-NEXT: footprint.global.load [256, 512]
// TEXT-NEXT: footprint.global.store 256
// TEXT-NEXT: sectors.global.load [10, 72]
// TEXT: inexact: the address depends on data

// A pointer loaded from memory: the access may be global or shared, so each
// space gets [0, one request per lane]: 2 warps x 32 lanes x 4 B = 256 B, 64
// sectors, 64 wavefronts. pp[blockIdx.x] is one 8-byte broadcast per warp
// (8 B, 1 sector: 16 B and 2 sectors), out is coalesced (256 B, 8 sectors).
// Footprint read: pp[0] (8 B) for certain, the generic loads at most 256 B
// more: [8, 264]; out: 256 B.
__global__ void indirect(float **pp, float *__restrict__ out) {
  out[threadIdx.x] = pp[blockIdx.x][threadIdx.x];
}
// CHECK-LABEL: kernel indirect(
// CHECK-NEXT: warp.exact=false
// CHECK-NEXT: footprint.global.load=8..264
// CHECK-NEXT: footprint.global.store=256
// CHECK-NEXT: sectors.global.load=2..66
// CHECK-NEXT: sectors.global.store=8
// CHECK-NEXT: warp_bytes.global.load=16..272
// CHECK-NEXT: warp_bytes.global.store=256
// CHECK-NEXT: warp_bytes.shared.load=0..256
// CHECK-NEXT: wavefronts.shared.load=0..64
// CHECK-NEXT: inexact=the address space is not provable statically at _Z8indirectPPfS_:
// CHECK-NEXT: end

// A store under a condition on data: the lanes that store are unknown, so
// [0, what all 64 lanes would cost]: [0, 8] sectors, [0, 256] B. The loads
// before the condition are exact: 2 arrays x 2 warps x 4 sectors.
// Footprint: w and d read (512 B); d written [0, 256] B.
__global__ void relax(unsigned *__restrict__ d, const unsigned *__restrict__ w) {
  int x = threadIdx.x;
  unsigned t = w[x];
  if (t < d[x])
    d[x] = t;
}
// CHECK-LABEL: kernel relax(
// CHECK-NEXT: warp.exact=false
// CHECK-NEXT: footprint.global.load=512
// CHECK-NEXT: footprint.global.store=0..256
// CHECK-NEXT: sectors.global.load=16
// CHECK-NEXT: sectors.global.store=0..8
// CHECK-NEXT: warp_bytes.global.load=512
// CHECK-NEXT: warp_bytes.global.store=0..256
// CHECK-NEXT: inexact=it runs under a condition on data or on a loop variable at _Z5relaxPjPKj:
// CHECK-NEXT: end
