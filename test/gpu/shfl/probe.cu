// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The lane predicate of shfl.sync.{down,up,bfly,idx} (the `|p` output) as the
// GPU computes it, per lane, for a table of b and c operands, one line per
// (mode, c, b). test/gpu/shfl/check.py compares it with the definition the
// plugin uses (passes/ShflPredicate.h). Built here, run on the machine with the GPU:
//   clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-path=/usr/local/cuda \
//     -Wno-unknown-cuda-version -O2 test/gpu/shfl/probe.cu -o .gpu-inputs/shflprobe/probe \
//     -L/usr/local/cuda/lib64 -lcudart_static -ldl -lpthread -lrt
//   .gpu-inputs/shflprobe/probe > probe.txt          (machine with the GPU)
//   python3 test/gpu/shfl/check.py probe.txt    (here)
#include <cstdio>
__global__ void probe(int mode, int b, int c, int *p) {
  int out, pred;
  unsigned lane = threadIdx.x;
  if (mode == 0) asm volatile("{ .reg .pred q; .reg .b32 r; shfl.sync.down.b32 r|q, %2, %3, %4, -1; selp.b32 %1, 1, 0, q; mov.b32 %0, r; }" : "=r"(out), "=r"(pred) : "r"(lane), "r"(b), "r"(c));
  if (mode == 1) asm volatile("{ .reg .pred q; .reg .b32 r; shfl.sync.up.b32 r|q, %2, %3, %4, -1; selp.b32 %1, 1, 0, q; mov.b32 %0, r; }" : "=r"(out), "=r"(pred) : "r"(lane), "r"(b), "r"(c));
  if (mode == 2) asm volatile("{ .reg .pred q; .reg .b32 r; shfl.sync.bfly.b32 r|q, %2, %3, %4, -1; selp.b32 %1, 1, 0, q; mov.b32 %0, r; }" : "=r"(out), "=r"(pred) : "r"(lane), "r"(b), "r"(c));
  if (mode == 3) asm volatile("{ .reg .pred q; .reg .b32 r; shfl.sync.idx.b32 r|q, %2, %3, %4, -1; selp.b32 %1, 1, 0, q; mov.b32 %0, r; }" : "=r"(out), "=r"(pred) : "r"(lane), "r"(b), "r"(c));
  p[lane] = pred;
  p[32 + lane] = out;
}
int main() {
  int *d; cudaMalloc(&d, 64 * sizeof(int));
  int h[64];
  const char *names[] = {"down", "up", "bfly", "idx"};
  int cs[] = {31, 10, 0x1000 | 10, 0x1000 | 15, 0x1800 | 5, 0x1f00, 0, 0x1000};
  int bs[] = {0, 1, 2, 4, 8, 16, 3, 33, -1};
  for (int m = 0; m < 4; ++m)
    for (int c : cs)
      for (int b : bs) {
        probe<<<1, 32>>>(m, b, c, d);
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("%s c=0x%x b=%d p=", names[m], c, b);
        for (int l = 0; l < 32; ++l) printf("%d", h[l]);
        printf(" src=");
        for (int l = 0; l < 32; ++l) printf("%d,", h[32 + l]);
        printf("\n");
      }
  return 0;
}
