// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared host helpers of the case-study kernels (case-studies/kernels/*.cu).
// Each program: runs its kernels at 2-3 sizes, REPS launches each (argv[1],
// default 3), checks a subset of the outputs against a CPU reference, and
// prints one line per (kernel, size):
//   CASE {"program":..,"kernel":..,"size":..,"flops":<hand formula>,
//         "tensor":0|1,"ms":<CUDA-event mean per launch>,...,
//         "reps":REPS,"warmup":WARMUP,"check":"ok"|"FAIL"}
// (the hand formula is the nominal FLOP count of the algorithm, see each
// kernel's comment; `ms` is meaningless under `hroof run --counters roofline`,
// where each launch is replayed; use the plain run for times).
// Warm-up: time_launches() makes WARMUP untimed launches of each kernel and
// size (then synchronizes) before the REPS timed ones, so that one-time costs
// of a kernel's first launch (e.g. lazy module loading) stay out of `ms`:
// every program gets it from here. WARMUP = env CASE_WARMUP if set, else 1
// without a profiler and 0 when CUDA_INJECTION64_PATH is set (under `hroof run`,
// whose times are per launch anyway: the profiled launch counts and the
// instrumented runs' host cost stay as they were). Before this warm-up existed,
// the first kernel each program timed carried those costs in its mean.
// Exit status 1 if any check failed. `--list-launches` prints the launch
// shapes (LAUNCH lines) without touching CUDA (build.sh uses it).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static int g_fail = 0;
static int g_reps = 3;

static bool g_list = false; // --list-launches: print LAUNCH lines, no CUDA
static int g_warmup = 1;    // untimed launches before the timed ones (above)

static void case_init(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--list-launches"))
      g_list = true;
    else if (atoi(argv[i]) > 0)
      g_reps = atoi(argv[i]);
  }
  const char *w = getenv("CASE_WARMUP");
  const char *inj = getenv("CUDA_INJECTION64_PATH");
  if (w && *w)
    g_warmup = atoi(w) > 0 ? atoi(w) : 0;
  else
    g_warmup = (inj && *inj) ? 0 : 1;
}

// One line per (kernel, size) for build-time static totals (touches no CUDA):
//   LAUNCH {"kernel":..,"size":..,"grid":[x,y,z],"block":[x,y,z],
//           "args":{..},"flops":<hand formula>,"tensor":0|1}
static void launch_line(const char *kernel, const char *size, dim3 g, dim3 b, const char *args,
                        double flops, int tensor) {
  printf("LAUNCH {\"kernel\":\"%s\",\"size\":\"%s\",\"grid\":[%u,%u,%u],"
         "\"block\":[%u,%u,%u],\"args\":{%s},\"flops\":%.0f,\"tensor\":%d}\n",
         kernel, size, g.x, g.y, g.z, b.x, b.y, b.z, args, flops, tensor);
}

// Deterministic pseudo-random values in [-1, 1).
static inline float urand(uint64_t &s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (float)((s >> 40) & 0xffffff) / 8388608.0f - 1.0f;
}

// Runs `launch` g_warmup times untimed (warm-up, see the top of this file),
// then g_reps times between two CUDA events; returns the mean time per timed
// launch in ms.
template <class F> static float time_launches(F launch) {
  for (int i = 0; i < g_warmup; ++i)
    launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  for (int i = 0; i < g_reps; ++i)
    launch();
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return ms / g_reps;
}

// Relative/absolute tolerance check of sampled outputs; counts failures.
struct Checker {
  const char *what;
  int bad = 0, n = 0;
  double worst = 0;
  explicit Checker(const char *w) : what(w) {}
  void near(long idx, double got, double ref, double rtol, double atol) {
    ++n;
    double err = fabs(got - ref);
    if (err > worst)
      worst = err;
    if (!(err <= atol + rtol * fabs(ref))) {
      if (++bad <= 5)
        fprintf(stderr, "%s: mismatch at %ld: got %.6g, want %.6g\n", what, idx, got, ref);
    }
  }
  bool ok() const { return bad == 0 && n > 0; }
};

static void case_line(const char *program, const char *kernel, const char *size, double flops,
                      int tensor, float ms, const Checker &c) {
  if (!c.ok())
    ++g_fail;
  printf("CASE {\"program\":\"%s\",\"kernel\":\"%s\",\"size\":\"%s\","
         "\"flops\":%.0f,\"tensor\":%d,\"ms\":%.6f,\"gflops\":%.1f,"
         "\"checked\":%d,\"max_abs_err\":%.3g,\"reps\":%d,\"warmup\":%d,"
         "\"check\":\"%s\"}\n",
         program, kernel, size, flops, tensor, ms, ms > 0 ? flops / (ms * 1e6) : 0.0, c.n, c.worst,
         g_reps, g_warmup, c.ok() ? "ok" : "FAIL");
  fflush(stdout);
}

static int case_exit(const char *program) {
  printf("%s: %s\n", program, g_fail ? "FAILED" : "OK");
  return g_fail ? 1 : 0;
}
