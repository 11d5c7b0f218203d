// A branch on data, or a loop whose trip count is data, leaves a kernel's
// counts exact when the code it guards or repeats counts nothing: the
// reason is reported only where a block under it counts something.
// 2 blocks x 128 threads = 256 threads.
//
// RUN: %hroof-static %s --kernel flag_count --grid 2 --block 128 | FileCheck %s
// RUN: %hroof-static %s --kernel flag_sum --grid 2 --block 128 | FileCheck %s --check-prefix=SUM

// Each thread loads in[i] (4 B), converts it to int (other.f32 1), and
// stores out[i] (4 B). The branch on m and the loop of m iterations do
// integer work only: 256 x (1, 4 B, 4 B) whatever in[] holds.
__global__ void flag_count(unsigned *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = (int)in[i];
  unsigned f = 0;
  if (m > 0)
    for (int k = 0; k < m; ++k)
      f ^= unsigned(k) * 7u;
  out[i] = f;
}
// CHECK-LABEL: kernel flag_count
// CHECK-SAME: [exact]
// CHECK-NOT: unknown:
// CHECK: total:
// CHECK-NEXT: other.f32 256
// CHECK-NEXT: bytes.global.load 1024
// CHECK-NEXT: bytes.global.store 1024

// The same loop adds 1.5f m times: its FLOPs depend on in[], so the branch
// and the trip count are reported and the FLOPs get bounds.
__global__ void flag_sum(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = (int)in[i];
  float f = 0;
  if (m > 0)
    for (int k = 0; k < m; ++k)
      f += 1.5f;
  out[i] = f;
}
// SUM-LABEL: kernel flag_sum
// SUM-SAME: [not exact]
// SUM-DAG: unknown: branch on data loaded from memory in _Z8flag_sumPfPKf:%entry
// SUM-DAG: unknown: loop at _Z8flag_sumPfPKf:%for.body has a trip count hroof cannot express (its bound is data loaded from memory)
// SUM: total (bounds: the model is not exact):
// SUM-NEXT: flops.f32 [0, no bound]
// SUM-NEXT: other.f32 [256, 256]
