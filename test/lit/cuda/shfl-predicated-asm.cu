// CUB's warp reductions write `shfl.sync.down.b32 r0|p, ...; @p add.f32 ...`
// as one inline asm statement. The add runs on the lanes whose source lane
// is valid, which the PTX ISA defines from the lane index and the shuffle's
// b and c operands; the model counts exactly those lanes.
//
// RUN: %hroof-static %s --grid 2 --block 64 --arg valid=20 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// A partial reduction whose valid count is data: counted on every lane, as a bound.
// RUN: %hroof-static %s --grid 2 --block 64 --arg valid=20 --kernel data_valid --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=DATA
#include <cub/warp/warp_reduce.cuh>

// Full warp, offsets 1, 2, 4, 8, 16 with last lane 31: lane + o <= 31 holds
// on 31, 30, 28, 24, 16 lanes = 129 adds per warp; 4 warps.
// CHECK-LABEL: kernel warp_sum(float const*, float*)
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=512
// CHECK-NEXT: bytes.global.store=16
// CHECK-NEXT: flops.f32=516
// CHECK-NEXT: end
__global__ void warp_sum(const float *x, float *out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp[2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = WR(tmp[threadIdx.x / 32]).Sum(x[i]);
  if (threadIdx.x % 32 == 0)
    out[i / 32] = s;
}

// Logical warps of 16 (segment mask 16 in c): offsets 1, 2, 4, 8 within a
// segment of last lane 15: 15 + 14 + 12 + 8 = 49 per segment, 8 segments.
// CHECK-LABEL: kernel half_warp_sum(float const*, float*)
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=512
// CHECK-NEXT: bytes.global.store=32
// CHECK-NEXT: flops.f32=392
// CHECK-NEXT: end
__global__ void half_warp_sum(const float *x, float *out) {
  using WR = cub::WarpReduce<float, 16>;
  __shared__ typename WR::TempStorage tmp[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = WR(tmp[threadIdx.x / 16]).Sum(x[i]);
  if (threadIdx.x % 16 == 0)
    out[i / 16] = s;
}

// valid = 20 items, last lane 19: lane + o <= 19 holds on 19, 18, 16, 12, 4
// lanes = 69 per warp.
// CHECK-LABEL: kernel partial_sum(int, float const*, float*)
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=512
// CHECK-NEXT: bytes.global.store=16
// CHECK-NEXT: flops.f32=276
// CHECK-NEXT: end
__global__ void partial_sum(int valid, const float *x, float *out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp[2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = WR(tmp[threadIdx.x / 32]).Sum(x[i], valid);
  if (threadIdx.x % 32 == 0)
    out[i / 32] = s;
}

// double: two 32-bit shuffles set p, then `@p add.f64`; 129 per warp.
// CHECK-LABEL: kernel double_sum(double const*, double*)
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=1024
// CHECK-NEXT: bytes.global.store=32
// CHECK-NEXT: flops.f64=516
// CHECK-NEXT: end
__global__ void double_sum(const double *x, double *out) {
  using WR = cub::WarpReduce<double>;
  __shared__ typename WR::TempStorage tmp[2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double s = WR(tmp[threadIdx.x / 32]).Sum(x[i]);
  if (threadIdx.x % 32 == 0)
    out[i / 32] = s;
}

// Upper bound: all 5 adds on all 128 lanes.
// DATA-LABEL: kernel data_valid(int const*, float const*, float*)
// DATA-NEXT: exact=false
// DATA-NEXT: unknown=predicated inline asm 'add.f32 r0, r0, $4' (a shuffle's predicate with operands that are data) counted as always executed in {{.*}}data_valid{{.*}}
// DATA-NEXT: bytes.global.load=1024
// DATA-NEXT: bytes.global.store=16
// DATA-NEXT: flops.f32=640
// DATA-NEXT: end
__global__ void data_valid(const int *valid, const float *x, float *out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp[2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = WR(tmp[threadIdx.x / 32]).Sum(x[i], valid[blockIdx.x]);
  if (threadIdx.x % 32 == 0)
    out[i / 32] = s;
}
