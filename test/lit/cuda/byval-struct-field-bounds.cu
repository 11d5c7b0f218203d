// Integer fields of a struct passed by value are launch parameters, like
// scalar arguments: a loop bound or a branch that reads one (at a constant
// offset, in a kernel that never writes the struct) is exact, and the field's
// value is given as --arg NAME+OFFSET (byte offset in the struct, padding
// included). Launch 4 x 128 = 512 threads.
//
// RUN: %hroof-static %s --grid 4 --block 128 --arg p+0=500 --arg p+4=10 --arg p+12=2 \
// RUN:   --arg p+16=3 --json | python3 %S/Inputs/totals.py | FileCheck %s
// Another mode (the branch not taken) and a zero-trip loop.
// RUN: %hroof-static %s --grid 4 --block 128 --arg p+0=500 --arg p+4=0 --arg p+12=1 \
// RUN:   --arg p+16=3 --kernel field_loop --json | python3 %S/Inputs/totals.py \
// RUN:   | FileCheck %s --check-prefix=OTHER
// Without the fields' values: exact, and the count needs them.
// RUN: not %hroof-static %s --grid 4 --block 128 --kernel field_loop 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: %hroof-static %s --kernel field_loop | FileCheck %s --check-prefix=TERMS
// A field that the model does not read is an unknown --arg.
// RUN: not %hroof-static %s --grid 4 --block 128 --kernel field_loop --arg p+8=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN

struct Params {
  int n;          // byte 0
  int m;          // byte 4
  float scale;    // byte 8
  short mode;     // byte 12
  long long rows; // byte 16 (after 2 bytes of padding)
};

// Threads i < p.n: p.m iterations of acc += a[k*n + i] * scale (2 FLOPs,
// 4 B load), the store of acc (4 B); with p.mode == 2 also acc*acc (1 FLOP)
// stored (4 B). Then p.rows iterations of one f64 add (1 FLOP) per thread.
__global__ void field_loop(Params p, const float *__restrict__ a, float *__restrict__ y,
                           double *__restrict__ z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) {
    float acc = 0.0f;
    for (int k = 0; k < p.m; ++k)
      acc += a[k * p.n + i] * p.scale;
    y[i] = acc;
    if (p.mode == 2)
      y[i + p.n] = acc * acc;
  }
  double s = z[i];
  for (long long r = 0; r < p.rows; ++r)
    s += 1.5;
  z[i] = s;
}

// p.n = 500, p.m = 10, mode 2, rows 3:
//   f32: 500*10*2 + 500 = 10500; global load 500*10*4 + 512*8 = 24096;
//   store 500*4*2 + 512*8 = 8096; f64: 512*3 = 1536.
// CHECK-LABEL: kernel field_loop(
// CHECK-NEXT: exact=true
// CHECK-NEXT: bytes.global.load=24096
// CHECK-NEXT: bytes.global.store=8096
// CHECK-NEXT: flops.f32=10500
// CHECK-NEXT: flops.f64=1536
// CHECK-NEXT: end

// p.m = 0, mode 1: f32 0, load 512*8 = 4096, store 500*4 + 4096 = 6096.
// OTHER-LABEL: kernel field_loop(
// OTHER-NEXT: exact=true
// OTHER-NEXT: bytes.global.load=4096
// OTHER-NEXT: bytes.global.store=6096
// OTHER-NEXT: flops.f64=1536
// OTHER-NEXT: end

// MISSING: {{^}}hroof: {{.*}}needs --arg for: p+0, p+4, p+12, p+16
// TERMS: kernel field_loop(Params, float const*, float*, double*)  [exact]
// TERMS: [(ctaid.x*ntid.x + tid.x) slt p+0]
// UNKNOWN: {{^}}hroof: unknown --arg 'p+8': no selected kernel's model reads a field there (fields of by-value arguments it reads: p+0, p+4, p+12, p+16)

// The bound is the field the thread's index selects: data.
struct Bounds {
  int m[4];
};
__global__ void field_by_thread(Bounds p, const float *__restrict__ a, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < p.m[threadIdx.x & 3]; ++k)
    acc += a[k * 512 + i];
  y[i] = acc;
}
// CHECK-LABEL: kernel field_by_thread(
// CHECK-NEXT: exact=false
// CHECK: unknown=loop at {{.*}} (its bound is data loaded from memory)

// The kernel writes the struct (through a call): its fields are no longer
// the host's values.
__device__ __noinline__ void bump(int *m) { *m += 1; }
__global__ void field_written(Params p, const float *__restrict__ a, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bump(&p.m);
  float acc = 0.0f;
  for (int k = 0; k < p.m; ++k)
    acc += a[k * 512 + i];
  y[i] = acc;
}
// CHECK-LABEL: kernel field_written(
// CHECK-NEXT: exact=false
// CHECK: unknown=loop at {{.*}} (its bound is data loaded from memory)
