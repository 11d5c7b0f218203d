// hroof static --machine: a launch placed on the hierarchical roofline before
// it runs. 4096 blocks of 256 threads copy-and-scale 2^20 floats: 2^20 FLOPs;
// 2^20 x 4 B loaded and stored = 2 x 131072 sectors of 32 B = 8388608 B at L1,
// AI 2^20 / 8388608 = 0.125. The footprint is the same 2^22 B read and 2^22 B
// written: 8388608 B at HBM, AI 0.125. The committed H100 machine file's
// ceilings, L1 32695.5 GB/s and HBM 3051.9 GB/s, give 8388608 / 32695.5e9 s =
// 0.2566 us and 8388608 / 3051.9e9 s = 2.749 us, both above the compute
// time: HBM limits.
//
// RUN: %hroof-static %s --grid 4096 --block 256 --arg n=1048576 \
// RUN:   --machine %S/../../../docs/machines/h100-80gb-hbm3.json | FileCheck %s
// RUN: %hroof-static %s --grid 4096 --block 256 --arg n=1048576 --json \
// RUN:   --machine %S/../../../docs/machines/h100-80gb-hbm3.json | FileCheck %s --check-prefix=JSON
// RUN: not %hroof-static %s --machine %S/../../../docs/machines/h100-80gb-hbm3.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOLAUNCH

__global__ void scale(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 3.0f;
}
// CHECK: roofline placement (static,
// CHECK: hbm bytes 8388608 AI 0.125 2.749 us at 3052 GB/s
// CHECK: l1 bytes 8388608 AI 0.125 0.2566 us at 32696 GB/s
// CHECK: lower bound on the time: 2.749 us (limited by hbm)
// JSON: "placement": {
// JSON: "flops": 1048576.0
// JSON: "ai": 0.125
// JSON: "bytes": 8388608.0
// JSON: "limited_by": "hbm"
// NOLAUNCH: hroof: static: --machine places a launch: give --grid and --block too
