// A loop with an exit on data besides a countable one,
// `while (i < n && data[i] != 0) ++i;`, has bounds: `i < n` ends it after at
// most n header runs (each testing `i < n` and loading data[i]), and the
// header's test runs at least once per entry; the body may not run at all
// (data[0] == 0). Launch: 1 block of 32 threads, n = 100; every thread scans
// the same data (the scan does not depend on the thread).
//
// RUN: %hroof-static %s --kernel scan --grid 1 --block 32 --arg n=100 | FileCheck %s --check-prefix=SCAN
// RUN: %hroof-static %s --kernel sumuntil --grid 1 --block 32 --arg n=100 | FileCheck %s --check-prefix=SUM
// RUN: %hroof-static %s --kernel sumuntil --grid 1 --block 32 --arg n=100 --json \
// RUN:   | python3 -c "import json,sys; b=json.load(sys.stdin)['kernels'][0]['bounds']; \
// RUN:     print('lo', b['lo']['flops']['f32'], b['lo']['bytes']['global']['load']); \
// RUN:     print('hi', b['hi']['flops']['f32'], b['hi']['bytes']['global']['load']); \
// RUN:     print('why', b.get('no_upper_bound'))" \
// RUN:   | FileCheck %s --check-prefix=JSON

// scan: per thread, data[i] (4 B) at each header run: lo 32 x 4 = 128 B,
// hi 32 x 100 x 4 = 12800 B; the store of i, 4 B per thread, is exact.
__global__ void scan(int n, const int *__restrict__ data, int *__restrict__ out) {
  int i = 0;
  while (i < n && data[i] != 0)
    ++i;
  out[threadIdx.x] = i;
}
// SCAN-LABEL: kernel scan(
// SCAN: unknown: loop at {{.*}} may end early on data loaded from memory: counted from its first iteration up to the bound of its countable exit
// SCAN: total (bounds: the model is not exact):
// SCAN-NEXT: bytes.global.load [128, 12800]
// SCAN-NEXT: bytes.global.store [128, 128]
// SCAN-NOT: no upper bound
// The warp-level accesses in the loop are bounded the same way: at most 100
// requests per warp for data[i], one sector each (all lanes read one word),
// and 100 x 4 = 400 distinct bytes.
// SCAN: sectors.global.load [0, 100]

// sumuntil: each header run loads data[i] (4 B) and compares it with 0
// (other.f32); the body adds it (1 FLOP) and goes back. lo: one header run,
// no body: other.f32 32, loads 128 B, 0 FLOPs; hi: 100 header runs and
// 100 bodies: other.f32 3200, loads 12800 B, 3200 FLOPs.
__global__ void sumuntil(int n, const float *__restrict__ data, float *__restrict__ out) {
  int i = 0;
  float s = 0;
  while (i < n && data[i] != 0.0f) {
    s += data[i];
    ++i;
  }
  out[threadIdx.x] = s;
}
// SUM-LABEL: kernel sumuntil(
// SUM: total (bounds: the model is not exact):
// SUM-NEXT: flops.f32 [0, 3200]
// SUM-NEXT: other.f32 [32, 3200]
// SUM-NEXT: bytes.global.load [128, 12800]
// SUM-NEXT: bytes.global.store [128, 128]
// SUM-NEXT: flops (all, tensor included) [0, 3200]
// JSON: lo 0 128
// JSON: hi 3200 12800
// JSON: why None
