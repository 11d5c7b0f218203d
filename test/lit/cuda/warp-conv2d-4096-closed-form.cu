// A 2D convolution over a 4096 x 4096 image written the plain way (one
// thread per output pixel, the border left out, the filter taps unrolled):
// 16M threads whose addresses are affine in the thread and block index. The
// warp-level model counts it in closed form over classes of blocks
// (docs/counting-model.md, "Warp-level traffic"), exactly, within the
// runtime's default budget of 1048576 lane evaluations; numbers derived by
// hand below. The zero-padded form (a guard per tap) is evaluated too, with
// bounds where the lanes of an edge warp run different taps.
//
// RUN: env HROOF_WARP_EVAL_LIMIT=1048576 %hroof-static %s --kernel conv3x3 --grid 128,512 \
// RUN:   --block 32,8 --arg w=4096 --arg h=4096 | FileCheck %s --check-prefix=C3
// RUN: %hroof-static %s --kernel conv3x3 --grid 128,512 --block 32,8 --arg w=4096 \
// RUN:   --arg h=4096 | FileCheck %s --check-prefix=C3
// RUN: env HROOF_WARP_EVAL_LIMIT=1048576 %hroof-static %s --kernel conv5x5 --grid 128,512 \
// RUN:   --block 32,8 --arg w=4096 --arg h=4096 | FileCheck %s --check-prefix=C5
// RUN: env HROOF_WARP_EVAL_LIMIT=1048576 %hroof-static %s --kernel conv5x5_padded \
// RUN:   --grid 256,256 --block 16,16 --arg w=4096 --arg h=4096 | FileCheck %s --check-prefix=PAD
// RUN: python3 %S/Inputs/conv5x5_padded_count.py 4096 | FileCheck %s --check-prefix=PADCOUNT
// RUN: env HROOF_WARP_EVAL_LIMIT=1048576 %hroof-static %s --kernel conv3x3 --grid 128,512 \
// RUN:   --block 32,8 --arg w=4096 --arg h=4096 --arg in=0x7f0000000010 | FileCheck %s --check-prefix=MIS

__global__ void conv3x3(const float *__restrict__ in, const float *__restrict__ filt,
                        float *__restrict__ out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
    return;
  float s = 0.f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      s += in[(y + dy) * w + x + dx] * filt[(dy + 1) * 3 + dx + 1];
  out[y * w + x] = s;
}
// Blocks of 32 x 8: a warp is 32 pixels of one row. Pixels x, y in
// [1, 4094]: 4094 rows, 128 warps each; warp 0 has lanes x = 1..31, warp 127
// x = 4064..4094, the other 126 all 32 lanes. Rows are 16384 B apart (a
// multiple of 128), so each row's warps see the same sectors.
// in[(y + dy) * w + x + dx], per row and tap, the bytes [4 (x + dx), +4):
//   full warps: dx = 0 aligned, 4 sectors; dx = +-1 4 B off, 5 sectors;
//   warp 0 (31 lanes, [4 + 4 dx, 128 + 4 dx)): dx = -1, 0: 4; dx = 1: 5;
//   warp 127 ([16256 + 4 dx, 16380 + 4 dx)): dx = -1: 5; dx = 0, 1: 4.
//   Per row over dx = -1, 0, 1: (126 x 5 + 4 + 5) + (126 x 4 + 4 + 4) +
//   (126 x 5 + 5 + 4) = 639 + 512 + 639 = 1790 sectors; x 3 rows dy x 4094
//   rows = 21984780 sectors. Warp bytes: 4094 lanes x 4 B x 9 taps x 4094
//   rows = 603390096.
// filt[k]: one address for every lane: 1 sector, 4 B per warp request;
//   128 warps x 4094 rows x 9 taps = 4716288 requests: 4716288 sectors,
//   18865152 B.
// Loads: 21984780 + 4716288 = 26701068 sectors, 603390096 + 18865152 =
//   622255248 B.
// out[y * w + x]: as the dx = 0 tap, 512 sectors a row: 512 x 4094 =
//   2096128 sectors, 4094 x 4 x 4094 = 67043344 B.
// Footprint: every pixel of in is read (the corners from the pixels next to
//   them), 4096^2 x 4 = 67108864 B, plus the 36 B of filt: 67108900; out's
//   4094^2 pixels, 67043344 B.
// C3-LABEL: kernel conv3x3(
// C3: warp-level traffic  [exact]:
// C3-NEXT: footprint.global.load{{ +}}67108900{{$}}
// C3-NEXT: footprint.global.store{{ +}}67043344{{$}}
// C3-NEXT: sectors.global.load{{ +}}26701068{{$}}
// C3-NEXT: sectors.global.store{{ +}}2096128{{$}}
// C3-NEXT: warp_bytes.global.load{{ +}}622255248{{$}}
// C3-NEXT: warp_bytes.global.store{{ +}}67043344{{$}}
//
// in 16 B past a 128-byte boundary (0x...10): the bytes [16 + 4 (x + dx),
// +4). Full warps start 12, 16 or 20 B into a sector: 5 sectors at every
// dx. Warp 0 ([20 + 4 dx, 144 + 4 dx)): dx = -1: [16, 140), dx = 0:
// [20, 144), dx = 1: [24, 148), 5 sectors each. Warp 127 ([16272 + 4 dx,
// 16396 + 4 dx)): sectors 508..512 at every dx, 5. Per row: 3 x 128 x 5 =
// 1920 sectors; x 3 x 4094 = 23581440; with filt's 4716288: 28297728.
// Bytes do not depend on the base.
// MIS-LABEL: kernel conv3x3(
// MIS: warp-level traffic  [exact]:
// MIS: sectors.global.load{{ +}}28297728{{$}}
// MIS: warp_bytes.global.load{{ +}}622255248{{$}}

__global__ void conv5x5(const float *__restrict__ in, const float *__restrict__ filt,
                        float *__restrict__ out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 2 || y < 2 || x >= w - 2 || y >= h - 2)
    return;
  float s = 0.f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      s += in[(y + dy) * w + x + dx] * filt[(dy + 2) * 5 + dx + 2];
  out[y * w + x] = s;
}
// Pixels x, y in [2, 4093]: 4092 rows; warp 0 has lanes x = 2..31 (30),
// warp 127 x = 4064..4093 (30). Per row and tap:
//   full warps: dx = 0: 4 sectors; dx = +-1, +-2 (4 or 8 B off): 5;
//   warp 0 ([8 + 4 dx, 128 + 4 dx)): dx = -2, -1, 0: 4; dx = 1, 2: 5;
//   warp 127 ([16264 + 4 dx, 16384 + 4 dx)): dx = -2, -1: 5; dx = 0, 1, 2: 4.
//   Per row over dx: 4 x (126 x 5 + 9) + (126 x 4 + 8) = 2556 + 512 = 3068;
//   x 5 rows dy x 4092 rows = 62771280 sectors; filt: 25 x 128 x 4092 =
//   13094400 requests of 1 sector, 4 B. Loads: 75865680 sectors; bytes
//   4092 x 4 x 25 x 4092 + 4 x 13094400 = 1674446400 + 52377600 = 1726824000.
// out: 512 sectors a row (126 x 4 + 4 + 4): 2095104; 4092 x 4 x 4092 =
//   66977856 B.
// C5-LABEL: kernel conv5x5(
// C5: warp-level traffic  [exact]:
// C5: sectors.global.load{{ +}}75865680{{$}}
// C5-NEXT: sectors.global.store{{ +}}2095104{{$}}
// C5-NEXT: warp_bytes.global.load{{ +}}1726824000{{$}}
// C5-NEXT: warp_bytes.global.store{{ +}}66977856{{$}}

// Zero padding: a guard per tap. The lanes of an edge warp run different
// taps: the model follows which taps each lane runs (the iterations a
// condition on the loop variable leaves it), and the launch is exact,
// within the budget.
__global__ void conv5x5_padded(const float *__restrict__ in, const float *__restrict__ filt,
                               float *__restrict__ out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = 0.f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      int xx = x + dx, yy = y + dy;
      if (xx >= 0 && xx < w && yy >= 0 && yy < h)
        s += in[yy * w + xx] * filt[(dy + 2) * 5 + dx + 2];
    }
  out[y * w + x] = s;
}
// Stores: every pixel, 16 x 16 blocks: a warp is two rows of 16 pixels
// (64 B, 2 sectors each): 4096^2 / 32 = 524288 warps x 4 = 2097152 sectors,
// 67108864 B.
// Loads: Inputs/conv5x5_padded_count.py counts them row by row without
// hroof (PADCOUNT); both give the same numbers.
// PAD-LABEL: kernel conv5x5_padded(
// PAD: warp-level traffic  [exact]:
// PAD: sectors.global.load{{ +}}86401560{{$}}
// PAD-NEXT: sectors.global.store{{ +}}2097152{{$}}
// PAD-NEXT: warp_bytes.global.load{{ +}}1729157264{{$}}
// PAD-NEXT: warp_bytes.global.store{{ +}}67108864{{$}}
// PADCOUNT: sectors.global.load 86401560{{$}}
// PADCOUNT-NEXT: warp_bytes.global.load 1729157264{{$}}
