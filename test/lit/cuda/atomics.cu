// Atomics count their access width under bytes.<space>.atomic (the add of a
// floating-point atomicAdd is a memory-side reduction, not a FLOP; the f32->f64
// conversion for the double atomic is `other`). Launch 3 x 64 = 192 threads,
// n = 150 pass the guard.
//
// RUN: %hroof-static %s --grid 3 --block 64 --arg n=150 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

__global__ void atom(int n, const float *__restrict__ x, float *sum, int *cnt,
                     double *dsum, unsigned *mx) {
  __shared__ int scount;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) // per block: 4 B shared store
    scount = 0;
  __syncthreads();
  if (i < n) {
    // per thread: x[i] 4 B global load (once); global atomics
    // 4 (f32 add) + 8 (f64 add) + 4 (umax) + 4 (CAS) = 20 B; shared atomic 4 B;
    // one fpext (other.f32).
    atomicAdd(sum, x[i]);
    atomicAdd(&scount, 1);
    atomicAdd(dsum, (double)x[i]);
    atomicMax(mx, (unsigned)i);
    atomicCAS(cnt, 0, i);
  }
  __syncthreads();
  if (threadIdx.x == 0) // per block: 4 B shared load, 4 B global atomic
    atomicAdd(cnt, scount);
}

// global atomic = 150*20 + 3*4 = 3012, global load = 600, shared atomic = 600,
// shared load = shared store = 3*4 = 12, other.f32 = 150.
// CHECK-LABEL: kernel atom(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.atomic=3012
// CHECK-NEXT: bytes.global.load=600
// CHECK-NEXT: bytes.shared.atomic=600
// CHECK-NEXT: bytes.shared.load=12
// CHECK-NEXT: bytes.shared.store=12
// CHECK-NEXT: other.f32=150
// CHECK-NEXT: end
