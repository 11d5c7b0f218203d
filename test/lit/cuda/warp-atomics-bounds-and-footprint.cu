// Warp-level traffic of atomics. L2 serves an atomic one address at a time:
// how many requests and sectors a warp's lanes become is bounded, not
// followed (at least one request of one sector per execution of the busiest
// lane, at most one per lane execution), and the note says so wherever the
// bounds differ. Where one lane runs it per warp, the bounds meet: one
// request of one sector, exact, with no note. The address is known, so the
// footprint places an atomic's bytes: 4 B to one float are 4 distinct
// bytes, read and written, whatever the number of threads.
//
// RUN: %hroof-static %s --kernel all_lanes --grid 32 --block 256 | FileCheck %s --check-prefix=ALL
// RUN: %hroof-static %s --kernel all_lanes --grid 32 --block 256 --json \
// RUN:   | python3 -c "import json,sys; w=json.load(sys.stdin)['kernels'][0]['warp']; \
// RUN:     c=w['counts']; print('exact', w['exact']); \
// RUN:     print('sectors', json.dumps(c['sectors']['global']['atomic'], sort_keys=True)); \
// RUN:     print('footprint', c['footprint']['global']['load'], c['footprint']['global']['store'])" \
// RUN:   | FileCheck %s --check-prefix=ALLJSON
// RUN: %hroof-static %s --kernel one_lane --grid 32 --block 256 | FileCheck %s --check-prefix=ONE
// RUN: %hroof-static %s --kernel guarded --grid 32 --block 256 | FileCheck %s --check-prefix=GUARD
// RUN: %hroof-static %s --kernel histogram --grid 32 --block 256 | FileCheck %s --check-prefix=HIST

// 32 x 256 = 8192 threads, 256 warps, each lane adding x[i] to *sum.
// Requests: at least 1 per warp (256), at most 32 (8192), one sector each;
// warp bytes [256 x 4, 8192 x 4] = [1024, 32768]. Footprint: x is 32768 B
// read, sum 4 B read and written: load 32772, store 4.
__global__ void all_lanes(const float *__restrict__ x, float *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(sum, x[i]);
}
// ALL-LABEL: kernel all_lanes(
// ALL: warp-level traffic  [bounds]:
// ALL-NEXT: footprint.global.load 32772
// ALL-NEXT: footprint.global.store 4
// ALL-NEXT: sectors.global.atomic [256, 8192]
// ALL-NEXT: sectors.global.load 1024
// ALL-NEXT: warp_bytes.global.atomic [1024, 32768]
// ALL-NEXT: warp_bytes.global.load 32768
// ALL-NEXT: inexact: atomics are served by L2: their requests and sectors are bounded by the lanes that run them, not followed address by address, at {{.*}}
// ALLJSON: exact False
// ALLJSON-NEXT: sectors {"hi": 8192, "lo": 256}
// ALLJSON-NEXT: footprint 32772 4

// Lane 0 of each warp adds the warp's sum: 256 requests of one lane, one
// sector each, 4 B each: exact, and no note on atomics.
__global__ void one_lane(const float *__restrict__ x, float *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0)
    atomicAdd(sum, v);
}
// ONE-LABEL: kernel one_lane(
// ONE: warp-level traffic  [exact]:
// ONE-NEXT: footprint.global.load 32772
// ONE-NEXT: footprint.global.store 4
// ONE-NEXT: sectors.global.atomic 256
// ONE: warp_bytes.global.atomic 1024
// ONE-NOT: inexact

// Under a condition on data, an atomic may not run at all: requests from 0,
// and a footprint of sum from 0 (x is read whatever the data: 32768).
__global__ void guarded(const float *__restrict__ x, float *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (x[i] > 0.0f)
    atomicAdd(sum, x[i]);
}
// GUARD-LABEL: kernel guarded(
// GUARD: warp-level traffic  [bounds]:
// GUARD-NEXT: footprint.global.load [32768, 32772]
// GUARD-NEXT: footprint.global.store [0, 4]
// GUARD-NEXT: sectors.global.atomic [0, 8192]
// GUARD: inexact: it runs under a condition on data

// A histogram: the address is data (bin[i]), so its bytes have no place,
// only bounds: every thread may hit its own counter (8192 x 4 = 32768 B)
// or all one counter, 4 B surely written (every thread runs it). Read: bin
// is 32768 B, the counters add at most 32768.
__global__ void histogram(const int *__restrict__ bin, unsigned *h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&h[bin[i]], 1u);
}
// HIST-LABEL: kernel histogram(
// HIST: warp-level traffic  [bounds]:
// HIST-NEXT: footprint.global.load [32768, 65536]
// HIST-NEXT: footprint.global.store [4, 32768]
// HIST-NEXT: sectors.global.atomic [256, 8192]
