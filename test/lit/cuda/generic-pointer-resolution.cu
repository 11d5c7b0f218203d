// Generic (flat) pointers: a __noinline__ device function called once with a
// pointer into __shared__ memory and once with a pointer derived from a kernel
// argument (global). Each call site's counts are added with that call's
// arguments (as for loop bounds taken from arguments), so the callee's loads
// resolve per call site: 8 B shared + 8 B global, exactly.
// A pointer selected between shared and global memory on a launch
// expression (useShared) is counted in the space the condition picks
// (exact); selected on data, it cannot be resolved statically: its bytes go
// under bytes.generic and the kernel is exact=false.
// Launch 3 x 128 = 384 threads, n = 300 pass the guards.
//
// RUN: %hroof-static %s --grid 3 --block 128 --arg n=300 --arg useShared=1 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s
// RUN: %hroof-static %s --grid 3 --block 128 --arg n=300 --arg useShared=0 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s --check-prefix=GLOBAL

// p[0] + p[1]: two 4 B loads, one fadd.
__device__ __noinline__ float load2(const float *p) { return p[0] + p[1]; }

__global__ void two_spaces(int n, const float *__restrict__ x,
                           float *__restrict__ y) {
  __shared__ float s[130];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = (float)threadIdx.x; // all threads: 4 B shared store, uitofp
  __syncthreads();
  if (i < n) // 2 calls (2 FLOPs, 8 B shared + 8 B global), fmul, 4 B store
    y[i] = load2(&s[threadIdx.x]) * load2(&x[2 * i]);
}

__global__ void sel_space(int n, int useShared, const float *__restrict__ x,
                          float *__restrict__ y) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i]; // all threads: 4 B global load, 4 B shared store
  __syncthreads();
  const float *p = useShared ? &s[threadIdx.x] : &x[i];
  if (i < n) // 4 B load through p (generic), fmul, 4 B global store
    y[i] = *p * 2.0f;
}

__global__ void sel_space_on_data(int n, int useShared, const float *__restrict__ x,
                                  float *__restrict__ y) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i];
  __syncthreads();
  const float *p = x[i] > 0.0f ? &s[threadIdx.x] : &x[i];
  if (i < n)
    y[i] = *p * 2.0f;
}

// two_spaces: 300*3 = 900 FLOPs, shared load 300*8 = 2400, global load 2400,
// global store 1200, shared store 384*4 = 1536, 384 conversions.
// CHECK-LABEL: kernel two_spaces(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=2400
// CHECK-NEXT: bytes.global.store=1200
// CHECK-NEXT: bytes.shared.load=2400
// CHECK-NEXT: bytes.shared.store=1536
// CHECK-NEXT: flops.f32=900
// CHECK-NEXT: other.f32=384
// CHECK-NEXT: end
// sel_space, useShared = 1: the load through p is shared, 300*4 = 1200;
// global load 1536, shared store 1536, global store 1200, 300 FLOPs.
// CHECK-LABEL: kernel sel_space(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=1536
// CHECK-NEXT: bytes.global.store=1200
// CHECK-NEXT: bytes.shared.load=1200
// CHECK-NEXT: bytes.shared.store=1536
// CHECK-NEXT: flops.f32=300
// CHECK-NEXT: end
// sel_space_on_data: inexact, and a count it cannot place leaves every
// counter without an upper bound: lower bounds generic load 1200, the rest as sel_space
// (x[i] of the condition is the load of the shared store's value), and the
// compare of the condition, which the compiler moved under i < n (300).
// CHECK-LABEL: kernel sel_space_on_data(
// CHECK-NEXT: exact=false
// CHECK-NEXT: unknown=generic access whose address space is not provable statically
// CHECK-NEXT: bytes.generic.load=[1200, no bound]
// CHECK-NEXT: bytes.global.load=[1536, no bound]
// CHECK-NEXT: bytes.global.store=[1200, no bound]
// CHECK-NEXT: bytes.shared.store=[1536, no bound]
// CHECK-NEXT: flops.f32=[300, no bound]
// CHECK-NEXT: other.f32=[300, no bound]
// CHECK-NEXT: end
// useShared = 0: the load through p is global: 1536 + 1200.
// GLOBAL-LABEL: kernel sel_space(
// GLOBAL-NEXT: exact=true
// GLOBAL-NEXT: bytes.global.load=2736
// GLOBAL-NEXT: bytes.global.store=1200
// GLOBAL-NEXT: bytes.shared.store=1536
// GLOBAL-NEXT: flops.f32=300
// GLOBAL-NEXT: end
