// hroof static --machine: a launch placed on the hierarchical roofline before
// it runs. 4096 blocks of 256 threads copy-and-scale 2^20 floats: 2^20 FLOPs;
// 2^20 x 4 B loaded and stored = 2 x 32768 sectors of 32 B = 8388608 B at L1,
// AI 2^20 / 8388608 = 0.125. The committed H100 machine file's L1 ceiling,
// 32695.5 GB/s, gives 8388608 / 32695.5e9 s = 0.2566 us, above the compute
// time, so L1 limits.
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
// CHECK: l1 bytes 8388608 AI 0.125 0.2566 us at 32696 GB/s
// CHECK: not placed: the launch's footprint
// CHECK: lower bound on the time: 0.2566 us (limited by l1)
// JSON: "placement": {
// JSON: "flops": 1048576.0
// JSON: "ai": 0.125
// JSON: "bytes": 8388608.0
// JSON: "limited_by": "l1"
// NOLAUNCH: hroof: --machine places a launch: give --grid and --block too
