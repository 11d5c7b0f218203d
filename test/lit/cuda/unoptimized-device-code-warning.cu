// A device compile at -O0 (every function optnone) gives IR the model counts
// poorly: the plugin says so once per compile, as a warning clang shows by
// default (-Wbackend-plugin), naming -O2. Two kernels
// and a device function at -O0 still give one remark; at -O2 none, and
// -Xarch_device -O2 optimizes the device side of an -O0 build (no remark).
//
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -fpass-plugin=%hroof -O0 -S \
// RUN:   -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -fpass-plugin=%hroof -O0 -S \
// RUN:   -o /dev/null %s 2>&1 | grep -c 'without optimization' | FileCheck %s --check-prefix=ONE
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -fpass-plugin=%hroof -O2 -S \
// RUN:   -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=O2 --allow-empty
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -fpass-plugin=%hroof -O0 \
// RUN:   -Xarch_device -O2 -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=O2 --allow-empty
// hroof static passes the plugin's warning on (clang's other output stays captured):
// RUN: %hroof-static %s --grid 4 --block 128 --arg n=512 -- -O0 2>&1 >/dev/null | FileCheck %s --check-prefix=STATIC
// STATIC: warning: hroof: {{.*}}without optimization

__device__ float twice(float a) { return 2.0f * a; }

__global__ void scale(int n, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = twice(y[i]);
}

__global__ void shift(int n, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += 1.0f;
}

// O0: warning: hroof: {{.*}}unoptimized-device-code-warning.cu: device code compiled without optimization (-O0, optnone): the static model of its kernels is poor {{.*}}; compile device code with -O2
// ONE: {{^1$}}
// O2-NOT: without optimization
