// The dynamic warp-level counts (passes/WarpInstrument.cpp) must not change
// the memory instructions the backend emits: the float4 fields stay one
// ld.global.nc.v4 / st.global.v4, also in a gather and with two float4
// streams read side by side, and the .x and .w of a shared float4 (which
// LLVM 22 loads as one vector with a gap) stay one ld.shared.v4. The PTX's
// loads and stores are the same with and without the plugin; the
// instrumented one has the match.any.sync of the counts, one request per
// merged access (two per float4 copy: load and store). -hroof-instrument-exact:
// kernels whose models are exact and complete would be counted by the model.
//
// RUN: %clang -O2 -x cuda --cuda-gpu-arch=sm_90 --cuda-device-only --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -S %s -o %t.plain.ptx
// RUN: %clang -O2 -x cuda --cuda-gpu-arch=sm_90 --cuda-device-only --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -fpass-plugin=%hroof -mllvm -hroof-warp-counts \
// RUN:   -mllvm -hroof-instrument-exact -S %s -o %t.inst.ptx
// RUN: grep -oE '(ld|st)\.(global|shared)[.a-z]*(v[248])?\.[a-z0-9]+' %t.plain.ptx | sort > %t.plain.txt
// RUN: grep -oE '(ld|st)\.(global|shared)[.a-z]*(v[248])?\.[a-z0-9]+' %t.inst.ptx | sort > %t.inst.txt
// RUN: diff %t.plain.txt %t.inst.txt
// RUN: FileCheck %s < %t.inst.ptx

// CHECK-LABEL: .entry _Z7copy_f4
// CHECK: match.any.sync.b64
// CHECK: ld.global.nc.v4.b32
// CHECK: match.any.sync.b64
// CHECK: st.global.v4.b32
__global__ void copy_f4(const float4 *__restrict__ in, float4 *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(v.x + 1, v.y + 1, v.z + 1, v.w + 1);
}

// CHECK-LABEL: .entry _Z7gather4
// CHECK: ld.global.nc.v4.b32
// CHECK: st.global.v4.b32
__global__ void gather4(const int *__restrict__ idx, const float4 *__restrict__ in,
                        float4 *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[idx[i]];
  out[i] = make_float4(v.x * 2, v.y * 2, v.z * 2, v.w * 2);
}

// CHECK-LABEL: .entry _Z4add4
// CHECK: ld.global.nc.v4.b32
// CHECK: ld.global.nc.v4.b32
// CHECK: st.global.v4.b32
__global__ void add4(const float4 *__restrict__ x, const float4 *__restrict__ y, float4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = x[i], b = y[i];
  out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// CHECK-LABEL: .entry _Z5xw_sh
// CHECK: st.shared.v4.b32
// CHECK: ld.shared.v4.b32
__global__ void xw_sh(float *out, int s) {
  __shared__ float4 s4[256];
  s4[threadIdx.x] = make_float4(1, 2, 3, threadIdx.x);
  __syncthreads();
  float4 v = s4[(threadIdx.x * s) % 256];
  out[threadIdx.x] = v.x + v.w;
}
