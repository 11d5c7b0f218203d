// A kernel the model cannot count exactly gets bounds [lo, hi] per counter,
// never one number: lo counts the blocks whose conditions are known, hi every
// block as if each unknown condition held. 2 blocks x 128 threads = 256.
//
// RUN: %hroof-static %s --kernel relax1 --grid 2 --block 128 | FileCheck %s
// RUN: %hroof-static %s --kernel relax1 --grid 2 --block 128 --json \
// RUN:   | python3 -c "import json,sys; b=json.load(sys.stdin)['kernels'][0]['bounds']; \
// RUN:     print('lo', b['lo']['flops']['f32'], b['lo']['bytes']['global']['load']); \
// RUN:     print('hi', b['hi']['flops']['f32'], b['hi']['bytes']['global']['load'])" \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: %hroof-static %s --kernel rows_until --grid 2 --block 128 --arg n=100 \
// RUN:   | FileCheck %s --check-prefix=UNTIL
// RUN: %hroof-static %s --kernel relax_rows --grid 4 --block 256 --arg n=1000 \
// RUN:   | FileCheck %s --check-prefix=TWOVERSIONS

// The branch is on data (mode[i]). Either side runs for a thread:
//   then: in[i], in[i+1], in[i+2] (12 B); fma + add + mul = 4 FLOPs
//   else: in[i+1] (4 B), no FLOP
// and every thread loads mode[i] (4 B), adds 1.0f (1 FLOP) and stores 4 B.
// lo: 256 x (1 FLOP, 4 B loaded); hi: 256 x (1 + 4 FLOPs, 4 + 12 + 4 B).
// All-then is 1280 FLOPs and 4096 B, all-else 256 FLOPs and 2048 B: inside.
__global__ void relax1(float *out, const float *in, const int *mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc;
  if (mode[i] > 0)
    acc = 0.25f * (in[i] + 2.0f * in[i + 1] + in[i + 2]);
  else
    acc = in[i + 1];
  out[i] = acc + 1.0f;
}
// CHECK-LABEL: kernel relax1
// CHECK: total (bounds: the model is not exact):
// CHECK-NEXT: flops.f32 [256, 1280]
// CHECK-NEXT: bytes.global.load [1024, 5120]
// CHECK-NEXT: bytes.global.store [1024, 1024]
// CHECK-NEXT: flops (all, tensor included) [256, 1280]
// JSON: lo 256 1024
// JSON: hi 1280 5120

// A loop that ends on data or at its bound n (j < n): it runs at most n
// times, and its body may not run at all (the first test, on in[i*n], is
// before the loop). lo: the first load and compare (4 B, 1 other.f32) and
// the store of s (4 B) per thread: 1024 B, 256 other.f32, 0 FLOPs. hi: n = 100
// iterations per thread, each adding (1 FLOP) and testing the next element
// (4 B, 1 other.f32): flops 256 x 100 = 25600, other.f32 256 + 25600 = 25856,
// loads 1024 + 256 x 100 x 4 = 103424. The store is outside the loop.
__global__ void rows_until(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; in[i * n + j] > 0 && j < n; j++)
    s += in[i * n + j];
  out[i] = s;
}
// UNTIL-LABEL: kernel rows_until
// UNTIL: unknown: loop at {{.*}} may end early on data loaded from memory: counted from its first iteration up to the bound of its countable exit
// UNTIL: total (bounds: the model is not exact):
// UNTIL-NEXT: flops.f32 [0, 25600]
// UNTIL-NEXT: other.f32 [256, 25856]
// UNTIL-NEXT: bytes.global.load [1024, 103424]
// UNTIL-NEXT: bytes.global.store [1024, 1024]
// UNTIL-NOT: no upper bound

// A loop body in two versions chosen by data (m, loaded from memory): one of
// them runs in each iteration, never both. Per iteration (998 for n = 1000,
// 1024 threads): the 3-point version loads 12 B and does fma + add + mul
// (4 FLOPs), the other loads 4 B; both add to acc (1 FLOP, in the join block,
// so known). lo: 1 FLOP per iteration = 1021952, and m's 4 B per thread =
// 4096 B; hi: 5 FLOPs = 5109760, and 4096 + 1024 x 998 x (12 + 4) = 16355328
// B. Both versions summed is hi, never the single number.
__global__ void relax_rows(float *out, const float *in, const int *mode, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = *mode;
  float acc = 0.f;
  for (int j = 1; j < n - 1; j++) {
    if (m > 0)
      acc += 0.25f * (in[i * n + j - 1] + 2.0f * in[i * n + j] + in[i * n + j + 1]);
    else
      acc += in[i * n + j];
  }
  out[i] = acc;
}
// TWOVERSIONS-LABEL: kernel relax_rows
// TWOVERSIONS: total (bounds: the model is not exact):
// TWOVERSIONS-NEXT: flops.f32 [1021952, 5109760]
// TWOVERSIONS-NEXT: bytes.global.load [4096, 16355328]
// TWOVERSIONS-NEXT: bytes.global.store [4096, 4096]
