// A -hroof-warp-counts build leaves a kernel to its models where they read
// every access. An access whose iterations the warp model enumerates one by
// one counts there only where its address does not move with the block
// (one block then stands for all); where it does, each block is evaluated
// lane by lane and iteration by iteration, which large launches cannot
// afford at run time: that kernel keeps its instrumentation.
//
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O2 -fpass-plugin=%hroof -mllvm -hroof-warp-counts \
// RUN:   -S -emit-llvm -o - %s | FileCheck %s

// CHECK-DAG: \22mangled\22:\22_Z14shuffle_sharediiPKfPf\22{{.*}}\22warp_counted_by_model\22:true
// CHECK-DAG: @__hroof_counters__Z6gatheriiPKfPf =
// CHECK-NOT: @__hroof_counters__Z14shuffle_sharediiPKfPf =

__global__ void shuffle_shared(int G, int K, const float *x, float *y) {
  __shared__ float s[512];
  const int C = G * K;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    s[i] = x[blockIdx.x * C + i];
  __syncthreads();
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    y[blockIdx.x * C + i] = s[(i % G) * K + i / G];
}

__global__ void gather(int G, int K, const float *x, float *y) {
  const int C = G * K;
  for (int i = threadIdx.x; i < C; i += blockDim.x)
    y[blockIdx.x * C + i] = x[blockIdx.x * C + (i % G) * K + i / G];
}
