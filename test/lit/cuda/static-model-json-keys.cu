// The static-model JSON the plugin writes uses exactly the keys of the key
// table that its reader uses too (common/include/hroof/StaticModelKeys.h):
// a kernel with parameters, a loop, conditional work and accesses to a parameter
// and to a shared array (a base object), written with -hroof-static-json and
// checked key by key; then read back by `hroof static` (the reader).
//
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O2 -fpass-plugin=%hroof -mllvm -hroof-static-json=%t.json \
// RUN:   -S -o /dev/null %s
// RUN: python3 %S/../check_model_keys.py %t.json %S/../../../common/include/hroof/StaticModelKeys.h | FileCheck %s
// RUN: %hroof-static %s --grid 4 --block 128 --arg n=1000 --arg k=3 | FileCheck %s --check-prefix=READ

// CHECK: keys: {{[0-9]+}} checked, 0 not in the table
// READ: tile_sum

__global__ void tile_sum(int n, int k, const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < k; ++j)
    if (i + j < n)
      s += in[i + j];
  tile[threadIdx.x] = s;
  __syncthreads();
  if (i < n)
    out[i] = tile[threadIdx.x] + tile[(threadIdx.x + 1) % 128];
}
