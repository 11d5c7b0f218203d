// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert: memory bandwidth (L1, shared memory, L2/HBM read sweeps, the L2 slice sweep,
// copy kernel, cudaMemcpy) and the FLOPs-per-byte (ridge) sweep, each kernel checking what it read.
// Compiled by clang 22 in CUDA mode for sm_80, sm_89 and sm_90a (ert/CMakeLists.txt).
#include "ert_common.cuh"

#include <type_traits>

namespace ert {

// ---------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ uint4 ld_ca(const uint4 *p) {
  uint4 v;
  asm volatile("ld.global.ca.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}
__device__ __forceinline__ uint4 ld_cg(const uint4 *p) {
  uint4 v;
  asm volatile("ld.global.cg.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}
__device__ __forceinline__ uint4 ld_cg_nohint(const uint4 *p) {
  uint4 v;
  asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}
__device__ __forceinline__ uint4 ld_nc_noalloc(const uint4 *p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}
// LEVEL 0: ld.global.ca; 1: ld.global.cg.L2::256B; 2: ld.global.cg; 3: ld.global.nc.L1::no_allocate
template <int LEVEL> __device__ __forceinline__ uint4 ld_level(const uint4 *p) {
  if constexpr (LEVEL == 0)
    return ld_ca(p);
  else if constexpr (LEVEL == 1)
    return ld_cg(p);
  else if constexpr (LEVEL == 2)
    return ld_cg_nohint(p);
  else
    return ld_nc_noalloc(p);
}
__device__ __forceinline__ uint4 ld_sh(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(addr));
  return v;
}
__device__ __forceinline__ void st_cs(uint4 *p, uint4 v) {
  asm volatile("st.global.cs.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w)
               : "memory");
}
__device__ __forceinline__ uint32_t vsum(uint4 v) { return v.x + v.y + v.z + v.w; }

__device__ __forceinline__ void warp_sum_add(unsigned long long *cnt, uint32_t acc) {
  uint32_t s = __reduce_add_sync(0xffffffffu, acc);
  if ((threadIdx.x & 31) == 0)
    atomicAdd((unsigned int *)cnt, s);
}

__global__ void k_fill_index(uint32_t *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = (uint32_t)i;
}

// LEVEL 0: L1 (every block reads [0, n4)); LEVEL 1: grid-stride over [0, n4) (L2/HBM).
// LEVEL 0 (L1): every block reads [0, n4); other levels: grid-stride over [0, n4) (L2/HBM).
// UNR independent 16-byte loads per thread in flight.
template <int LEVEL, int UNR = 4>
__global__ void __launch_bounds__(1024) k_read(const uint4 *__restrict__ p, size_t n4, int reps,
                                               unsigned long long *cnt, unsigned long long *clk) {
  ClockProbe cp;
  cp.start();
  uint32_t acc = 0;
  const size_t start = LEVEL == 0 ? threadIdx.x : blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = LEVEL == 0 ? blockDim.x : (size_t)gridDim.x * blockDim.x;
  for (int r = 0; r < reps; ++r) {
    size_t i = start;
    for (; i + (UNR - 1) * stride < n4; i += UNR * stride) {
      uint4 v[UNR];
#pragma unroll
      for (int u = 0; u < UNR; ++u)
        v[u] = ld_level<LEVEL>(p + i + u * stride);
#pragma unroll
      for (int u = 0; u < UNR; ++u)
        acc += vsum(v[u]);
    }
    for (; i < n4; i += stride)
      acc += vsum(ld_level<LEVEL>(p + i));
  }
  cp.stop(clk);
  warp_sum_add(cnt, acc);
}

__global__ void __launch_bounds__(1024)
    k_shared(int n4, int reps, unsigned long long *cnt, unsigned long long *clk) {
  extern __shared__ __align__(16) uint32_t sh[];
  for (int i = threadIdx.x; i < n4 * 4; i += blockDim.x)
    sh[i] = i;
  __syncthreads();
  ClockProbe cp;
  cp.start();
  const uint32_t base = (uint32_t)__cvta_generic_to_shared(sh);
  uint32_t acc = 0;
  const int stride = blockDim.x;
  for (int r = 0; r < reps; ++r) {
    int i = threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
      uint4 a = ld_sh(base + 16 * i), b = ld_sh(base + 16 * (i + stride)),
            c = ld_sh(base + 16 * (i + 2 * stride)), d = ld_sh(base + 16 * (i + 3 * stride));
      acc += vsum(a) + vsum(b) + vsum(c) + vsum(d);
    }
    for (; i < n4; i += stride)
      acc += vsum(ld_sh(base + 16 * i));
  }
  cp.stop(clk);
  warp_sum_add(cnt, acc);
}

__global__ void __launch_bounds__(512)
    k_copy(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t n4) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    uint4 a = ld_cg(src + i), b = ld_cg(src + i + stride), c = ld_cg(src + i + 2 * stride),
          d = ld_cg(src + i + 3 * stride);
    st_cs(dst + i, a);
    st_cs(dst + i + stride, b);
    st_cs(dst + i + 2 * stride, c);
    st_cs(dst + i + 3 * stride, d);
  }
  for (; i < n4; i += stride)
    st_cs(dst + i, ld_cg(src + i));
}

__global__ void k_count_not_index(const uint32_t *p, size_t n, unsigned long long *cnt) {
  unsigned bad = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    bad += p[i] != (uint32_t)i;
  if (bad)
    atomicAdd(cnt + 1, (unsigned long long)bad);
}

// Big buffers, allocated once and filled with their element index (uint32).
static uint32_t *g_buf = nullptr;
static size_t g_buf_bytes = 0;
static uint32_t *g_buf2 = nullptr;
static size_t g_buf2_bytes = 0;
static uint32_t *get_buf(size_t bytes, bool second = false) {
  uint32_t *&b = second ? g_buf2 : g_buf;
  size_t &bb = second ? g_buf2_bytes : g_buf_bytes;
  if (bb < bytes) {
    if (b)
      CK(cudaFree(b));
    b = nullptr;
    bb = 0;
    CK(cudaMalloc(&b, bytes));
    bb = bytes;
    k_fill_index<<<g_dev.sm_count * 4, 1024>>>(b, bytes / 4);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  }
  return b;
}
void release_buffers() {
  if (g_buf)
    cudaFree(g_buf);
  if (g_buf2)
    cudaFree(g_buf2);
  g_buf = g_buf2 = nullptr;
  g_buf_bytes = g_buf2_bytes = 0;
}

// Sum of the uint32 indices 0..n-1, modulo 2^32.
static uint32_t index_sum(size_t n) {
  unsigned __int128 s = (unsigned __int128)n * (n - 1) / 2;
  return (uint32_t)(uint64_t)s;
}

static std::string sum_check(uint32_t got, uint32_t want, bool *ok) {
  *ok = got == want;
  return "sum of loaded words " + std::to_string(got) + (got == want ? " == " : " != ") +
         "expected " + std::to_string(want);
}

Bench bench_l1(size_t ws, double target_ms, int reps) {
  ensure_scratch(1024);
  ws = std::max<size_t>(ws / 16 * 16, 16);
  const uint4 *p = (const uint4 *)get_buf(ws);
  const size_t n4 = ws / 16;
  const int threads = 1024, blocks = g_dev.sm_count * 2;
  auto launch = [&](long long r) {
    k_read<0><<<blocks, threads>>>(p, n4, (int)r, g_s.cnt, g_s.clk);
  };
  long long r = calibrate(launch, std::max<long long>(1, (1 << 20) / (long long)n4), target_ms);
  r = std::max<long long>(r, 2);
  Bench b;
  zero_counters();
  b.ms = time_median([&] { launch(r); }, reps);
  b.clock_mhz = read_clock_mhz();
  b.work = (double)ws * r * blocks;
  unsigned long long h[4];
  read_counters(h);
  // reps+1 launches since zero_counters (warm-up + reps), each: blocks * r passes.
  uint32_t want = (uint32_t)((uint64_t)index_sum(ws / 4) * (uint64_t)(blocks * r * (reps + 1)));
  b.check = sum_check((uint32_t)h[0], want, &b.verified);
  return b;
}

Bench bench_shared(size_t bytes, double target_ms, int reps) {
  ensure_scratch(1024);
  const int n4 = (int)(bytes / 16);
  const int threads = 1024, blocks = g_dev.sm_count * 2;
  CK(cudaFuncSetAttribute(k_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  auto launch = [&](long long r) {
    k_shared<<<blocks, threads, bytes>>>(n4, (int)r, g_s.cnt, g_s.clk);
  };
  long long r = calibrate(launch, 64, target_ms);
  Bench b;
  zero_counters();
  b.ms = time_median([&] { launch(r); }, reps);
  b.clock_mhz = read_clock_mhz();
  b.work = (double)n4 * 16 * r * blocks;
  unsigned long long h[4];
  read_counters(h);
  uint32_t want =
      (uint32_t)((uint64_t)index_sum((size_t)n4 * 4) * (uint64_t)(blocks * r * (reps + 1)));
  b.check = sum_check((uint32_t)h[0], want, &b.verified);
  return b;
}

const char *const kGlobalReadVariantNames[kGlobalReadVariants] = {"cg_l2pf256", "cg", "nc_noalloc"};
Bench bench_global_read(size_t ws, double target_ms, int reps, int variant) {
  ensure_scratch(1024);
  ws = std::max<size_t>(ws / 16 * 16, 16);
  const uint4 *p = (const uint4 *)get_buf(ws);
  const size_t n4 = ws / 16;
  const int threads = 1024, blocks = g_dev.sm_count * 2;
  auto launch = [&](long long r) {
    switch (variant) {
    case 0:
      k_read<1, 4><<<blocks, threads>>>(p, n4, (int)r, g_s.cnt, g_s.clk);
      break;
    case 1:
      k_read<2, 4><<<blocks, threads>>>(p, n4, (int)r, g_s.cnt, g_s.clk);
      break;
    default:
      k_read<3, 4><<<blocks, threads>>>(p, n4, (int)r, g_s.cnt, g_s.clk);
      break;
    }
  };
  long long r = calibrate(launch, std::max<long long>(1, (64ll << 20) / (long long)ws), target_ms);
  r = std::max<long long>(r, 1);
  Bench b;
  zero_counters();
  b.ms = time_median([&] { launch(r); }, reps);
  b.clock_mhz = read_clock_mhz();
  b.work = (double)ws * r;
  unsigned long long h[4];
  read_counters(h);
  uint32_t want = (uint32_t)((uint64_t)index_sum(ws / 4) * (uint64_t)(r * (reps + 1)));
  b.check = sum_check((uint32_t)h[0], want, &b.verified);
  return b;
}

Bench bench_copy_kernel(size_t bytes, int reps) {
  ensure_scratch(1024);
  bytes = bytes / 16 * 16;
  uint32_t *src = get_buf(bytes);
  uint32_t *dst = get_buf(bytes, true);
  CK(cudaMemset(dst, 0xFF, bytes));
  const int threads = 512, blocks = g_dev.sm_count * 4;
  Bench b;
  b.ms = time_median(
      [&] { k_copy<<<blocks, threads>>>((uint4 *)dst, (const uint4 *)src, bytes / 16); }, reps);
  b.work = 2.0 * bytes;
  zero_counters();
  k_count_not_index<<<g_dev.sm_count * 4, 1024>>>(dst, bytes / 4, g_s.cnt);
  CK(cudaGetLastError());
  unsigned long long h[4];
  read_counters(h);
  b.verified = h[1] == 0;
  b.check = "destination compared word by word: " + std::to_string(h[1]) + " wrong";
  // restore the index pattern of the second buffer for later users
  k_fill_index<<<g_dev.sm_count * 4, 1024>>>(dst, bytes / 4);
  CK(cudaGetLastError());
  return b;
}

Bench bench_memcpy_d2d(size_t bytes, int reps) {
  ensure_scratch(1024);
  uint32_t *src = get_buf(bytes);
  uint32_t *dst = get_buf(bytes, true);
  CK(cudaMemset(dst, 0xFF, bytes));
  Bench b;
  b.ms = time_median([&] { CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice)); }, reps);
  b.work = 2.0 * bytes;
  zero_counters();
  k_count_not_index<<<g_dev.sm_count * 4, 1024>>>(dst, bytes / 4, g_s.cnt);
  CK(cudaGetLastError());
  unsigned long long h[4];
  read_counters(h);
  b.verified = h[1] == 0;
  b.check = "destination compared word by word: " + std::to_string(h[1]) + " wrong";
  return b;
}

// ---------------------------------------------------------------------------------------
// L2 sweep: every block reads one slice of the working set, slice = blockIdx.x % nslices, so
// the slices are shared by many blocks and the working set stays in L2. A launch has
// r * nslices blocks (r calibrated), so each slice is read r times per launch.
// ---------------------------------------------------------------------------------------
__device__ __forceinline__ uint2 ld_cg_v2(const uint2 *p) {
  uint2 v;
  asm volatile("ld.global.cg.v2.u32 {%0,%1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
  return v;
}
__device__ __forceinline__ uint2 ld_nc_v2(const uint2 *p) {
  uint2 v;
  asm volatile("ld.global.nc.v2.u32 {%0,%1}, [%2];" : "=r"(v.x), "=r"(v.y) : "l"(p));
  return v;
}
__device__ __forceinline__ uint32_t vsum(uint2 v) { return v.x + v.y; }
// LOAD 0: ld.global.cg.v4 (16 B); 1: ld.global.cg.v2 (8 B); 2: ld.global.nc.v2 (8 B, may be
// served by L1: the load gpu-l2-cache's compiler emits; a diagnostic, never the ceiling).
template <int LOAD> using L2Elem = std::conditional_t<LOAD == 0, uint4, uint2>;
template <int LOAD> __device__ __forceinline__ L2Elem<LOAD> ld_l2(const L2Elem<LOAD> *p) {
  if constexpr (LOAD == 0)
    return ld_cg_nohint(p);
  else if constexpr (LOAD == 1)
    return ld_cg_v2(p);
  else
    return ld_nc_v2(p);
}

// One atomic per block (a grid of up to ~10^5 blocks: per-warp atomics would cost L2 time).
__device__ __forceinline__ void block_sum_add(unsigned long long *cnt, uint32_t acc) {
  __shared__ uint32_t part[32];
  uint32_t s = __reduce_add_sync(0xffffffffu, acc);
  if ((threadIdx.x & 31) == 0)
    part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    uint32_t t = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0;
    t = __reduce_add_sync(0xffffffffu, t);
    if (threadIdx.x == 0)
      atomicAdd((unsigned int *)cnt, t);
  }
}

// Resident threads per SM (sm_86 and sm_89: 1536), to keep MINB within what the SM can hold.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890)
constexpr int kL2MaxThreadsPerSm = 1536;
#else
constexpr int kL2MaxThreadsPerSm = 2048;
#endif

// slice_elems is a multiple of UNR * THREADS: each thread issues UNR independent loads per
// step, and every element of the slice is loaded by exactly one thread of the block.
template <int LOAD, int UNR, int THREADS, int MINB>
__global__ void __launch_bounds__(THREADS, std::min(MINB, kL2MaxThreadsPerSm / THREADS))
    k_l2_slice(const uint4 *__restrict__ base, unsigned slice_elems, unsigned nslices,
               unsigned long long *cnt, unsigned long long *clk) {
  using E = L2Elem<LOAD>;
  ClockProbe cp;
  cp.start();
  const E *p = reinterpret_cast<const E *>(base) + (size_t)(blockIdx.x % nslices) * slice_elems;
  uint32_t acc = 0;
  for (unsigned i = threadIdx.x; i < slice_elems; i += UNR * THREADS) {
    E v[UNR];
#pragma unroll
    for (int u = 0; u < UNR; ++u)
      v[u] = ld_l2<LOAD>(p + i + u * THREADS);
#pragma unroll
    for (int u = 0; u < UNR; ++u)
      acc += vsum(v[u]);
  }
  if (blockIdx.x % 32 == 0) // fewer same-address atomics; blocks last microseconds, so the
    cp.stop(clk);           // clock of this sweep is coarse (l2_sweep.csv only)
  block_sum_add(cnt, acc);
}

using L2Kernel = void (*)(const uint4 *, unsigned, unsigned, unsigned long long *,
                          unsigned long long *);
struct L2ShapeDef {
  L2Shape s;
  L2Kernel k;
};
static const L2ShapeDef kL2Shapes[] = {
    {{"cg16_u4_t1024", 16, true, 4, 1024}, k_l2_slice<0, 4, 1024, 2>},
    {{"cg16_u8_t512", 16, true, 8, 512}, k_l2_slice<0, 8, 512, 2>},
    {{"cg8_u8_t1024", 8, true, 8, 1024}, k_l2_slice<1, 8, 1024, 2>},
    {{"nc8_u8_t1024", 8, false, 8, 1024}, k_l2_slice<2, 8, 1024, 2>},
};
int l2_shape_count() { return sizeof(kL2Shapes) / sizeof(kL2Shapes[0]); }
L2Shape l2_shape(int i) { return kL2Shapes[i].s; }

L2Point bench_l2_slice(size_t ws, size_t slice, int shape, double target_ms, int reps) {
  ensure_scratch(1024);
  const L2ShapeDef &d = kL2Shapes[shape];
  const size_t step = (size_t)d.s.load_bytes * d.s.unroll * d.s.threads;
  if (slice % step || ws % slice || slice / d.s.load_bytes > 0xffffffffu)
    throw CudaError("l2 sweep: slice " + std::to_string(slice) + " must be a multiple of " +
                    std::to_string(step) + " and divide the working set " + std::to_string(ws));
  const uint4 *p = (const uint4 *)get_buf(ws);
  const unsigned nslices = (unsigned)(ws / slice);
  const unsigned slice_elems = (unsigned)(slice / d.s.load_bytes);
  L2Point pt;
  pt.slice_bytes = slice;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&pt.blocks_per_sm, d.k, d.s.threads, 0));
  auto launch = [&](long long r) {
    d.k<<<(unsigned)(r * nslices), d.s.threads>>>(p, slice_elems, nslices, g_s.cnt, g_s.clk);
  };
  // probe: about 2 GiB read (a quarter of a millisecond at 8 TB/s)
  long long r = calibrate(launch, std::max<long long>(1, (2ll << 30) / (long long)ws), target_ms);
  r = std::min<long long>(std::max<long long>(r, 1), 0x7fffffffll / nslices);
  pt.blocks = r * nslices;
  zero_counters();
  pt.b.ms = time_median([&] { launch(r); }, reps);
  pt.b.clock_mhz = read_clock_mhz();
  pt.b.work = (double)ws * r; // each of the nslices slices read by r blocks
  unsigned long long h[4];
  read_counters(h);
  // reps+1 launches since zero_counters (warm-up + reps), each reads the buffer r times.
  uint32_t want = (uint32_t)((uint64_t)index_sum(ws / 4) * (uint64_t)(r * (reps + 1)));
  pt.b.check = sum_check((uint32_t)h[0], want, &pt.b.verified);
  return pt;
}

// FLOPs-per-byte sweep: F dependent FMAs per loaded float (4 per float4, 4 float4 in flight).
template <int F>
__global__ void __launch_bounds__(1024)
    k_ridge(const float4 *__restrict__ p, size_t n4, float m, float c, unsigned long long *cnt,
            unsigned long long *clk) {
  ClockProbe cp;
  cp.start();
  float acc = 0;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (; i < n4; i += stride) {
    uint4 u = ld_cg(reinterpret_cast<const uint4 *>(p + i));
    float4 v = make_float4(__uint_as_float(u.x), __uint_as_float(u.y), __uint_as_float(u.z),
                           __uint_as_float(u.w));
#pragma unroll
    for (int f = 0; f < F; ++f) {
      v.x = __fmaf_rn(v.x, m, c);
      v.y = __fmaf_rn(v.y, m, c);
      v.z = __fmaf_rn(v.z, m, c);
      v.w = __fmaf_rn(v.w, m, c);
    }
    acc += v.x + v.y + v.z + v.w;
  }
  cp.stop(clk);
  warp_sum_add(cnt, (uint32_t)acc);
}
__global__ void k_fill_ones(float *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = 1.0f;
}

static const int kRidgeF[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
const int *ridge_fma_counts(int *n) {
  *n = sizeof(kRidgeF) / sizeof(kRidgeF[0]);
  return kRidgeF;
}

template <int F> static double launch_ridge(const float *p, size_t n4, int blocks, int reps) {
  return time_median(
      [&] { k_ridge<F><<<blocks, 1024>>>((const float4 *)p, n4, 0.5f, 0.5f, g_s.cnt, g_s.clk); },
      reps);
}

Bench bench_ridge(int F, size_t bytes, int reps) {
  ensure_scratch(1024);
  bytes = bytes / 16 * 16;
  float *p = (float *)get_buf(bytes, true);
  k_fill_ones<<<g_dev.sm_count * 4, 1024>>>(p, bytes / 4);
  CK(cudaGetLastError());
  const size_t n4 = bytes / 16;
  const int blocks = g_dev.sm_count * 2;
  Bench b;
  zero_counters();
  switch (F) {
  case 1:
    b.ms = launch_ridge<1>(p, n4, blocks, reps);
    break;
  case 2:
    b.ms = launch_ridge<2>(p, n4, blocks, reps);
    break;
  case 4:
    b.ms = launch_ridge<4>(p, n4, blocks, reps);
    break;
  case 8:
    b.ms = launch_ridge<8>(p, n4, blocks, reps);
    break;
  case 16:
    b.ms = launch_ridge<16>(p, n4, blocks, reps);
    break;
  case 32:
    b.ms = launch_ridge<32>(p, n4, blocks, reps);
    break;
  case 64:
    b.ms = launch_ridge<64>(p, n4, blocks, reps);
    break;
  case 128:
    b.ms = launch_ridge<128>(p, n4, blocks, reps);
    break;
  case 256:
    b.ms = launch_ridge<256>(p, n4, blocks, reps);
    break;
  case 512:
    b.ms = launch_ridge<512>(p, n4, blocks, reps);
    break;
  case 1024:
    b.ms = launch_ridge<1024>(p, n4, blocks, reps);
    break;
  default:
    throw CudaError("ridge: unsupported FMA count " + std::to_string(F));
  }
  b.clock_mhz = read_clock_mhz();
  b.work = 2.0 * F * (double)(bytes / 4); // FLOPs; bytes = `bytes`
  unsigned long long h[4];
  read_counters(h);
  // every loaded 1.0 stays 1.0; each thread's sum is exact (well under 2^24).
  uint32_t want = (uint32_t)((uint64_t)(bytes / 4) * (uint64_t)(reps + 1));
  b.check = sum_check((uint32_t)h[0], want, &b.verified);
  // restore the index pattern for later users of the buffer
  k_fill_index<<<g_dev.sm_count * 4, 1024>>>((uint32_t *)p, bytes / 4);
  CK(cudaGetLastError());
  return b;
}

} // namespace ert
