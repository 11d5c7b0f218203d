// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert: host-side interface of the benchmark kernels (ert_fma.cu, ert_tensor.cu,
// ert_memory.cu, ert_device.cu; what they share is in ert_common.cuh).
// Plain C++: main.cpp includes this without the CUDA language mode.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ert {

struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One timed benchmark: median time of its timed launches, the work one launch does
// (FLOPs, integer ops or bytes), the SM clock seen during it (clock64 against %globaltimer
// in the kernel), and the outcome of the kernel's own result check.
struct Bench {
  double ms = 0;         // median over the timed launches
  double work = 0;       // FLOPs / ops / bytes per launch
  double clock_mhz = 0;  // SM clock measured inside the timed kernel
  bool verified = false; // the kernel's own check passed
  std::string check;     // what was checked, and the outcome
  double rate_g() const { return ms > 0 ? work / (ms * 1e6) : 0; } // G(FLOP|B)/s
};

struct DeviceInfo {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  size_t l2_bytes = 0;
  size_t global_mem = 0;
  int smem_per_block_optin = 0;
  int smem_per_sm = 0;
  int clock_khz_attr = 0;     // cudaDevAttrClockRate (max boost), for information only
  int mem_clock_khz_attr = 0; // cudaDevAttrMemoryClockRate
  int mem_bus_width = 0;
};

// Throws CudaError with a one-line message when no device is usable.
DeviceInfo open_device(int device);

enum class FmaType { f64, f32, f16x2, bf16x2 };
enum class TcType { f16, bf16, tf32, fp8, int8, f64 };

// target_ms: the approximate length of one timed launch; reps: timed launches.
Bench bench_fma(FmaType t, double target_ms, int reps);
// Hopper wgmma m64n256k*, A from shared memory (rs=false) or registers (rs=true),
// wg_per_block warpgroups in the one block each SM runs.
Bench bench_wgmma(TcType t, bool rs, int wg_per_block, double target_ms, int reps);
bool wgmma_supported(); // sm_90 device and the sm_90a code path compiled in
// Warp-level mma.sync (sm_80 / sm_89 path; also runs on sm_90). f64 = DMMA m8n8k4.
Bench bench_mma_sync(TcType t, double target_ms, int reps);
// sm_90 DMMA shape mma.sync.m16n8k16.f64.
Bench bench_dmma_m16n8k16(double target_ms, int reps);

// Memory benchmarks: bytes = the working set, the kernel reads it repeatedly.
// L1: every block reads the same working set (ld.global.ca), so each SM's L1 holds it.
Bench bench_l1(size_t ws_bytes, double target_ms, int reps);
// Shared memory: each block reads its own shared-memory array (ld.shared.v4).
Bench bench_shared(size_t smem_bytes, double target_ms, int reps);
// L2 / HBM: the grid reads the working set (ld.global.cg, bypassing L1), each element by
// one thread per pass.
// variant: 0 ld.global.cg.L2::256B; 1 ld.global.cg; 2 ld.global.nc.L1::no_allocate; each with
// 4 independent 16-byte loads in flight per thread at 2048 threads per SM (the 32 registers
// per thread that full occupancy leaves hold no more).
constexpr int kGlobalReadVariants = 3;
extern const char *const kGlobalReadVariantNames[kGlobalReadVariants];
Bench bench_global_read(size_t ws_bytes, double target_ms, int reps, int variant);
// L2 sweep: a grid of r * (ws / slice) blocks, block b reading slice b % (ws / slice) of the
// working set once, each element by one thread (so every slice is read r times per launch and
// all blocks share the working set, which stays in L2). Bytes per launch = r * ws, the bytes
// the loads request; with an L1-bypassing load (l1_bypass) every one of them goes to L2.
struct L2Shape {
  const char *name;
  int load_bytes; // 16: ld.global.cg.v4; 8: ld.global.cg.v2 or ld.global.nc.v2
  bool l1_bypass; // false: ld.global.nc.v2, which may hit in L1 (diagnostic, not a ceiling)
  int unroll;     // independent loads in flight per thread
  int threads;    // per block
};
struct L2Point {
  Bench b;
  size_t slice_bytes = 0;
  long long blocks = 0;  // grid size of one launch
  int blocks_per_sm = 0; // resident blocks per SM (occupancy API)
};
int l2_shape_count();
L2Shape l2_shape(int i);
// slice must be a multiple of load_bytes * unroll * threads and divide ws.
L2Point bench_l2_slice(size_t ws, size_t slice, int shape, double target_ms, int reps);
// Copy kernel (read + write, bytes counted both ways).
Bench bench_copy_kernel(size_t bytes_each, int reps);
// cudaMemcpyAsync device to device (read + write counted).
Bench bench_memcpy_d2d(size_t bytes_each, int reps);
// FLOPs-per-byte sweep point: f32, fma_per_elem FMAs per loaded float, from a buffer of
// `bytes` (larger than L2). Arithmetic intensity = fma_per_elem / 2 FLOP/byte.
Bench bench_ridge(int fma_per_elem, size_t bytes, int reps);
const int *ridge_fma_counts(int *n); // the instantiated fma_per_elem values

// Fills n elements of type kind (0 f64, 1 f32, 2 f16, 3 bf16, 4 fp8 e4m3) with random
// values in [-1, 1) (fp8: random finite values of magnitude < 1).
void fill_random(void *p, size_t n, int kind, uint32_t seed);
void *device_alloc(size_t bytes);
void device_free(void *p);
void device_sync();

void release_buffers(); // frees the big buffers the memory benchmarks keep
void probe_kernels();   // one short launch of each kind (for ncu's peak_sustained query)

} // namespace ert
