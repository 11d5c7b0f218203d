// `hroof static --json` never gives a kernel that is not exact a total that is
// neither of its bounds: "total" is the upper bounds (null where a counter
// has none, as in "bounds.hi"), "flops_total" and "ai.global" are
// {"lo", "hi"}. A loop counted once per entry is neither bound, so no such
// count may appear.
//
// RUN: %hroof-static %s --kernel datadep --grid 3 --block 64 --arg n=150 --json \
// RUN:   | python3 %S/Inputs/json_totals.py | FileCheck %s --check-prefix=NOHI
// RUN: %hroof-static %s --kernel until --grid 1 --block 32 --arg n=100 --json \
// RUN:   | python3 %S/Inputs/json_totals.py | FileCheck %s --check-prefix=BOUNDED
// RUN: %hroof-static %s --kernel until --grid 1 --block 32 --arg n=100 \
// RUN:   --machine %S/../../../docs/machines/h100-80gb-hbm3.json | FileCheck %s --check-prefix=PLACE
// RUN: %hroof-static %s --kernel saxpy --grid 2 --block 128 --arg n=200 --json \
// RUN:   | python3 %S/Inputs/json_totals.py | FileCheck %s --check-prefix=EXACT

// 3 x 64 = 192 threads, 150 pass i < n. Each loads len[i] (4 B) and stores
// y[i] (4 B): 600 B each, known. The loop over len[i] adds x[k] (1 FLOP,
// 4 B) a number of times no static model knows: no upper bound.
// AI: lo = 0 FLOPs / no bound = 0; hi = no bound / 1200 B: null.
__global__ void datadep(int n, const int *__restrict__ len, const float *__restrict__ x,
                        float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < len[i]; ++k)
      acc += x[k];
    y[i] = acc;
  }
}
// NOHI: kernel datadep(
// NOHI-NEXT: exact false
// NOHI-NEXT: total.bytes.global.load null
// NOHI-NEXT: total.bytes.global.store 600
// NOHI-NEXT: total.flops.f32 null
// NOHI-NEXT: flops_total {"hi": null, "lo": 0}
// NOHI-NEXT: ai.global {"hi": null, "lo": 0.0}

// 32 threads each scan data[0..n) until a zero (n = 100): 1 to 100 header
// runs loading data[i] (4 B) and comparing it with 0 (other.f32), 0 to 100
// bodies adding it (1 FLOP); the store of s is 4 B. total = hi: loads
// 32 x 100 x 4 = 12800 B, FLOPs 3200, other.f32 3200.
// AI: lo = 0 / (12800 + 128) = 0; hi = 3200 / (128 + 128) = 12.5.
__global__ void until(int n, const float *__restrict__ data, float *__restrict__ out) {
  int i = 0;
  float s = 0;
  while (i < n && data[i] != 0.0f) {
    s += data[i];
    ++i;
  }
  out[threadIdx.x] = s;
}
// BOUNDED: kernel until(
// BOUNDED-NEXT: exact false
// BOUNDED-NEXT: total.bytes.global.load 12800
// BOUNDED-NEXT: total.bytes.global.store 128
// BOUNDED-NEXT: total.flops.f32 3200
// BOUNDED-NEXT: total.other.f32 3200
// BOUNDED-NEXT: flops_total {"hi": 3200, "lo": 0}
// BOUNDED-NEXT: ai.global {"hi": 12.5, "lo": 0.0}
// On the roofline the same holds per level: HBM moves the footprint, from
// out's 128 B (data[] may not be read) to 128 + 100 x 4 = 528 B (every
// thread reads the same data[0..99]): AI from 0 / 528 = 0 to 3200 / 128 = 25;
// the time's lower bound uses the lower bounds (0 FLOPs: 0 us of compute).
// PLACE: compute 0 us at the FLOP ceilings
// PLACE: hbm bytes 128..528 AI 0..25

// An exact kernel keeps plain numbers: 200 threads of 2 FLOPs, 8 B loaded and
// 4 B stored: 400 FLOPs over 2400 B = 0.1667.
__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
// EXACT: kernel saxpy(
// EXACT-NEXT: exact true
// EXACT-NEXT: total.bytes.global.load 1600
// EXACT-NEXT: total.bytes.global.store 800
// EXACT-NEXT: total.flops.f32 400
// EXACT-NEXT: flops_total 400
// EXACT-NEXT: ai.global 0.1666
