// Warp-level traffic of 2D blocks: a warp covers 32 consecutive linear thread
// indices, i.e. several rows when blockDim.x < 32. Rows are w floats apart.
//
// RUN: %hroof-static %s --grid 1,1 --block 8,16 --arg w=64 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=X8-ALIGNED
// RUN: %hroof-static %s --grid 1,1 --block 8,16 --arg w=65 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=X8
// RUN: %hroof-static %s --grid 1,1 --block 16,8 --arg w=65 --json \
// RUN:   | python3 %S/Inputs/warp.py | FileCheck %s --check-prefix=X16

__global__ void rows2d(const float *__restrict__ in, float *__restrict__ out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * w + x] = in[y * w + x] * 2.0f;
}
// Block 8x16, w = 64 (256-byte rows): 16 rows of 32 B, each one aligned
// sector: 16 sectors, 512 B.
// Footprint (every block shape and row length): 128 distinct floats each way, 512 B.
// X8-ALIGNED: warp.exact=true
// X8-ALIGNED-NEXT: footprint.global.load=512
// X8-ALIGNED-NEXT: footprint.global.store=512
// X8-ALIGNED-NEXT: sectors.global.load=16
// X8-ALIGNED-NEXT: sectors.global.store=16
// X8-ALIGNED-NEXT: warp_bytes.global.load=512
// Block 8x16, w = 65 (260-byte rows): row y starts 4y mod 32 bytes into a
// sector, so its 32 B span 1 sector for y = 0 and 8, 2 otherwise:
// 2*1 + 14*2 = 30 sectors.
// X8: warp.exact=true
// X8-NEXT: footprint.global.load=512
// X8-NEXT: footprint.global.store=512
// X8-NEXT: sectors.global.load=30
// X8-NEXT: sectors.global.store=30
// X8-NEXT: warp_bytes.global.load=512
// Block 16x8, w = 65: 8 rows of 64 B: 2 sectors for y = 0, 3 for y = 1..7:
// 2 + 7*3 = 23 sectors.
// X16: warp.exact=true
// X16-NEXT: footprint.global.load=512
// X16-NEXT: footprint.global.store=512
// X16-NEXT: sectors.global.load=23
// X16-NEXT: sectors.global.store=23
// X16-NEXT: warp_bytes.global.load=512
