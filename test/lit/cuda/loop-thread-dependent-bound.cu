// Loops whose trip count depends on blockIdx.x or threadIdx.x (triangular
// work): the model must sum the trip count over the launch, not take one
// thread's. Launch 7 blocks of 96 threads (672 threads). The optimizer
// unrolls these loops by 4 with a remainder loop; totals do not depend on it.
//
// RUN: %hroof-static %s --grid 7 --block 96 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// blockIdx.x iterations of 1 fadd + 4 B load; one 4 B store per thread.
__global__ void tri_block(const float *__restrict__ x, float *__restrict__ out) {
  float acc = 0.0f;
  for (int k = 0; k < blockIdx.x; ++k)
    acc += x[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// threadIdx.x + 1 iterations of 1 fadd + 4 B load; one 4 B store per thread.
__global__ void tri_thread(const float *__restrict__ x, float *__restrict__ out) {
  float acc = 0.0f;
  for (int k = 0; k <= threadIdx.x; ++k)
    acc += x[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// tri_block: 96 * (0+1+...+6) = 96*21 = 2016 FLOPs, 8064 B load,
// 672*4 = 2688 B store.
// CHECK-LABEL: kernel tri_block(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=8064
// CHECK-NEXT: bytes.global.store=2688
// CHECK-NEXT: flops.f32=2016
// CHECK-NEXT: end
// tri_thread: 7 * (1+2+...+96) = 7*4656 = 32592 FLOPs, 130368 B load,
// 2688 B store.
// CHECK-LABEL: kernel tri_thread(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=130368
// CHECK-NEXT: bytes.global.store=2688
// CHECK-NEXT: flops.f32=32592
// CHECK-NEXT: end
