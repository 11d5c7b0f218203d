// A condition on a loop's variable cuts the iterations that run an access
// to a window [first, trips) per lane; the warp-level model follows the
// addresses of those iterations, not of the first ones. Counts derived by
// hand below.
//
// RUN: %hroof-static %s --kernel tail_rows --grid 1 --block 32 --arg reps=2 --arg n=4 --arg m=2 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=TAIL
// RUN: %hroof-static %s --kernel tree --grid 2 --block 256 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=TREE

// Rows k >= m of n, each 33 floats apart, updated reps times. n=4, m=2: row
// 2 at byte 264 (32 lanes: bytes 264..391, sectors 8..12: 5), row 3 at 396
// (396..523, sectors 12..16: 5). Rows 0 and 1 would be 4 + 5 = 9. Per rep 10
// sectors and 256 bytes each way; 2 reps: 20 and 512. Footprint: rows 2 and
// 3, 256 bytes.
__global__ void tail_rows(float *out, int reps, int n, int m) {
  for (int r = 0; r < reps; ++r)
    for (int k = 0; k < n; ++k)
      if (k >= m)
        out[threadIdx.x + k * 33] += 1.0f;
}
// TAIL-LABEL: kernel tail_rows(
// TAIL-NEXT: warp.exact=true
// TAIL-NEXT: footprint.global.load=256
// TAIL-NEXT: footprint.global.store=256
// TAIL-NEXT: sectors.global.load=20
// TAIL-NEXT: sectors.global.store=20
// TAIL-NEXT: warp_bytes.global.load=512
// TAIL-NEXT: warp_bytes.global.store=512
// TAIL-NEXT: end

// A reduction tree: off = 128, 64, ..., 1; lanes t < off run s[t] +=
// s[t + off]. Per block and access (load s[t + off], load s[t], store s[t]):
// off >= 32 runs off/32 full warps (4 + 2 + 1), off < 32 one warp of off
// lanes (5 requests): 12 requests of contiguous words, 1 wavefront each;
// bytes 4 * (128 + 64 + ... + 1) = 1020. Plus: the first store s[t] (8
// warps, 1024 B), thread 0's load s[0] (1 wavefront, 4 B), 256 floats of a
// (32 sectors) and one of out. Two blocks:
//   shared load: 2 x (1020 + 1020 + 4) = 4088 B, 2 x (12 + 12 + 1) = 50
//   shared store: 2 x (1024 + 1020) = 4088 B, 2 x (8 + 12) = 40
__global__ void tree(const float *a, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = a[blockIdx.x * blockDim.x + t];
  for (unsigned off = blockDim.x / 2; off > 0; off /= 2) {
    __syncthreads();
    if (t < off)
      s[t] += s[t + off];
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
// TREE-LABEL: kernel tree(
// TREE-NEXT: warp.exact=true
// TREE-NEXT: footprint.global.load=2048
// TREE-NEXT: footprint.global.store=8
// TREE-NEXT: sectors.global.load=64
// TREE-NEXT: sectors.global.store=2
// TREE-NEXT: warp_bytes.global.load=2048
// TREE-NEXT: warp_bytes.global.store=8
// TREE-NEXT: warp_bytes.shared.load=4088
// TREE-NEXT: warp_bytes.shared.store=4088
// TREE-NEXT: wavefronts.shared.load=50
// TREE-NEXT: wavefronts.shared.store=40
// TREE-NEXT: end
