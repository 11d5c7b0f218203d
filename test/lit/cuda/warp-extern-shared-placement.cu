// A dynamic shared buffer declared as bytes and read as doubles: its
// placement is not known before ptxas, but an 8-byte access must be 8-byte
// aligned (PTX faults otherwise), and every offset here is a multiple of 8,
// so only placements that are multiples of 8 are possible. For those a
// warp's 32 consecutive doubles take 2 wavefronts (each half-warp's 128
// bytes fall in 32 distinct banks): exact. Launch: 2 blocks of 64 threads
// = 4 warps; each access 4 x 2 = 8 wavefronts, 4 x 256 = 1024 bytes.
//
// RUN: %hroof-static %s --kernel tile --grid 2 --block 64 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s

__global__ void tile(const double *in, double *out) {
  extern __shared__ unsigned char smem[];
  double *t = reinterpret_cast<double *>(smem);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = 2.0 * t[threadIdx.x];
}
// CHECK-LABEL: kernel tile(
// CHECK-NEXT: warp.exact=true
// CHECK-NEXT: footprint.global.load=1024
// CHECK-NEXT: footprint.global.store=1024
// CHECK-NEXT: sectors.global.load=32
// CHECK-NEXT: sectors.global.store=32
// CHECK-NEXT: warp_bytes.global.load=1024
// CHECK-NEXT: warp_bytes.global.store=1024
// CHECK-NEXT: warp_bytes.shared.load=1024
// CHECK-NEXT: warp_bytes.shared.store=1024
// CHECK-NEXT: wavefronts.shared.load=8
// CHECK-NEXT: wavefronts.shared.store=8
// CHECK-NEXT: end
