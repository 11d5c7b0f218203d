// Vector accesses count their full width: float4 (16 B) and double2 (16 B).
// Launch 4 x 64 = 256 threads, n4 = 250 vectors pass the guard.
//
// RUN: %hroof-static %s --grid 4 --block 64 --arg n4=250 --json \
// RUN:   | python3 %S/Inputs/totals.py | FileCheck %s

// One float4 load (16 B), 4 fmul (4 FLOPs), one float4 store (16 B).
__global__ void scale4(int n4, float s, const float4 *__restrict__ x,
                       float4 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = x[i];
    y[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
  }
}

// One double2 load (16 B), 2 fadd (2 f64 FLOPs), one double2 store (16 B).
__global__ void add2(int n4, const double2 *__restrict__ x,
                     double2 *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    double2 v = x[i];
    y[i] = make_double2(v.x + 1.0, v.y + 2.0);
  }
}

// scale4: 250*4 = 1000 FLOPs, 250*16 = 4000 B load and store.
// CHECK-LABEL: kernel scale4(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=4000
// CHECK-NEXT: bytes.global.store=4000
// CHECK-NEXT: flops.f32=1000
// CHECK-NEXT: end
// add2: 250*2 = 500 f64 FLOPs, 4000 B load and store.
// CHECK-LABEL: kernel add2(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=4000
// CHECK-NEXT: bytes.global.store=4000
// CHECK-NEXT: flops.f64=500
// CHECK-NEXT: end
