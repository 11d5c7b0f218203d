// The largest legal launch (grid 2147483647 x 65535 x 65535, 1024 threads a
// block: 2^73 threads) is summed in closed form over the blocks, exactly, in
// well under a second; expected totals derived by hand below. A 32-bit index
// that wraps in such a launch is refused at once, with the reason.
//
// RUN: %hroof-static %s --kernel elementwise64 --grid 2147483647,65535,65535 --block 1024 \
// RUN:   --arg n=1000000000000 | FileCheck %s --check-prefix=ELEM3D
// RUN: %hroof-static %s --kernel elementwise64 --grid 2147483647 --block 1024 \
// RUN:   --arg n=3000000000000 | FileCheck %s --check-prefix=ELEM1D
// RUN: %hroof-static %s --kernel gridstride64 --grid 2147483647 --block 1024 \
// RUN:   --arg n=10000000000000 | FileCheck %s --check-prefix=STRIDE
// RUN: %hroof-static %s --kernel 'tile|diagonal' --grid 2147483647 --block 1024 \
// RUN:   --arg m=1000000000 | FileCheck %s --check-prefix=POLY
// RUN: %hroof-static %s --kernel elementwise32 --grid 2147483647,65535,65535 --block 1024 \
// RUN:   --arg n=1000 | FileCheck %s --check-prefix=WRAP
// RUN: not %hroof-static %s --kernel gridstride32 --grid 2147483647 --block 1024 \
// RUN:   --arg n=1000 2>&1 | FileCheck %s --check-prefix=REFUSE

// 64-bit index: nothing wraps. 1 fmul, 4 B loaded, 4 B stored per thread with i < n.
__global__ void elementwise64(long n, const float *__restrict__ x, float *__restrict__ y) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * 2.0f;
}
// Each (y, z) block row has 2147483647 * 1024 = 2199023254528 threads in x,
// more than n = 10^12: 10^12 active per row, 65535^2 = 4294836225 rows:
// 4294836225 * 10^12 = 4294836225000000000000 threads; bytes 4x that.
// ELEM3D-LABEL: kernel elementwise64(
// ELEM3D: flops.f32{{ +}}4294836225000000000000{{$}}
// ELEM3D: bytes.global.load{{ +}}17179344900000000000000{{$}}
// ELEM3D: bytes.global.store{{ +}}17179344900000000000000{{$}}
// The warp-level model groups the blocks by what they cost (the guard i < n
// is one value in every block but the one holding i = n, and the address
// moves by 4096 B from block to block): each row's 10^12 active threads are
// 31250000000 full warps of 128 B in 4 sectors, over 4294836225 rows:
// 125000000000 * 4294836225 = 536854528125000000000 sectors each way, and
// warp bytes 32x that, equal to the thread-level bytes.
// ELEM3D: warp-level traffic  [exact]:
// ELEM3D-NEXT: sectors.global.load{{ +}}536854528125000000000{{$}}
// ELEM3D-NEXT: sectors.global.store{{ +}}536854528125000000000{{$}}
// ELEM3D-NEXT: warp_bytes.global.load{{ +}}17179344900000000000000{{$}}
// ELEM3D-NEXT: warp_bytes.global.store{{ +}}17179344900000000000000{{$}}
// One row, n = 3 * 10^12 above its 2199023254528 threads: every thread runs;
// bytes 4 * 2199023254528 = 8796093018112.
// ELEM1D: flops.f32{{ +}}2199023254528{{$}}
// ELEM1D: bytes.global.load{{ +}}8796093018112{{$}}

// Grid-stride loop with a 64-bit index: each of the n = 10^13 elements is
// visited once, whatever the grid: one fma (2 FLOPs), 8 B loaded, 4 B stored
// per element: 2 * 10^13 FLOPs, 8 * 10^13 B, 4 * 10^13 B.
__global__ void gridstride64(long n, const float *__restrict__ x, float *__restrict__ y) {
  for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long)gridDim.x * blockDim.x)
    y[i] = x[i] * x[i] + y[i];
}
// STRIDE-LABEL: kernel gridstride64(
// STRIDE: flops.f32{{ +}}20000000000000{{$}}
// STRIDE: bytes.global.load{{ +}}80000000000000{{$}}
// STRIDE: bytes.global.store{{ +}}40000000000000{{$}}

// Guards on tid and ctaid apart (not through one global index).
// tile: 16 threads in each of the first m = 10^9 blocks: 1.6 * 10^10 stores
// of 4 B = 64000000000 B.
__global__ void tile(int m, float *__restrict__ y) {
  if (threadIdx.x < 16 && blockIdx.x < m)
    y[blockIdx.x * 16 + threadIdx.x] = 1.0f;
}
// diagonal: block b has min(b, 1024) threads with tid < b: blocks 0..1023
// give 0 + 1 + ... + 1023 = 523776, the other 2147483647 - 1024 = 2147482623
// blocks 1024 each = 2199022205952; 2199022729728 threads, 8796090918912 B.
__global__ void diagonal(float *__restrict__ y) {
  if (threadIdx.x < blockIdx.x)
    y[threadIdx.x] = 1.0f;
}
// POLY-LABEL: kernel tile(
// POLY: bytes.global.store{{ +}}64000000000{{$}}
// POLY-LABEL: kernel diagonal(
// POLY: bytes.global.store{{ +}}8796090918912{{$}}

// A 32-bit index wraps in this launch (blockIdx.x * blockDim.x overflows):
// a row's 2199023254528 = 2^41 - 1024 threads run 511 times through the 2^32
// values of i, then through all but the last 1024 (-1024..-1). i < 1000 holds
// for the 2^31 negative values and 0..999 of a run: 512 * (2^31 + 1000) - 1024
// = 1099512138752 threads a row, times 4294836225 rows = 4722224563339315891200
// FLOPs; 4 B each way per thread: 18888898253357263564800 B.
__global__ void elementwise32(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] * 2.0f;
}
// WRAP-LABEL: kernel elementwise32(
// WRAP: flops.f32{{ +}}4722224563339315891200{{$}}
// WRAP: bytes.global.load{{ +}}18888898253357263564800{{$}}

// A 32-bit grid-stride loop: its stride nctaid.x * ntid.x wraps too, and its
// trip count grows with the wrapped index, so no block repeats another:
// refused at once, not walked over 2^31 blocks.
__global__ void gridstride32(int n, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = x[i] * 2.0f;
}
// REFUSE: total: not evaluated: launch too large to sum exactly: the count depends on ctaid.x {{.*}}may wrap at 32 bits{{.*}}walking 2147483647 blocks one by one is over the limit of 16777216; give a grid with fewer blocks in x
