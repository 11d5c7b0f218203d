// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared harness for the hroof GPU validation programs (test/gpu/kernels/*.cu).
//
// Every program:
//   * runs each kernel once at a fixed odd-sized launch, checks the result on
//     the host and prints, per launch,
//       HROOF_EXPECT {"kernel": K, "launch": i, "grid": [..], "block": [..],
//                     "counts": {"flops.f32": N, ...}}
//     with the ANALYTIC counts (hand-derived formula, see each kernel's
//     comment); every nonzero counter is listed, zeros are implied;
//   * with `--time N` additionally launches each kernel N times (after 3
//     warm-up launches) and prints HROOF_TIME {"kernel": K, "median_ms": x}
//     (CUDA events around each launch, median);
//   * with `--list-launches` touches no CUDA API at all (works without a GPU)
//     and prints HROOF_LAUNCH {"kernel", "launch", "grid", "block", "args"}
//     lines; test/gpu/build.sh feeds them to `hroof static` to record the
//     static model's totals at the same launch shapes.
// Exit status: 0 when every check passed, 1 otherwise (2 on CUDA errors).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));          \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)

typedef unsigned long long u64;

// Counter key -> analytic value; zeros are dropped when printed.
struct Counts {
  std::vector<std::pair<std::string, u64>> kv;
  // How many lanes one f16/bf16 SASS instruction covers in this kernel
  // (2 for packed half2/bf162 code, 1 for scalar): ncu's hadd/hmul/hfma
  // thread-instruction metrics count an HFMA2 once per thread either way.
  int halfLanes = 1;
  // Free text shown in the table (e.g. known ncu deviations).
  std::string note;
  Counts &lanes(int l) {
    halfLanes = l;
    return *this;
  }
  Counts &why(const char *t) {
    note = t;
    return *this;
  }
  Counts &add(const char *k, u64 v) {
    for (auto &p : kv)
      if (p.first == k) {
        p.second += v;
        return *this;
      }
    kv.push_back({k, v});
    return *this;
  }
};

// Scalar kernel arguments passed to `hroof static --arg name=value`.
typedef std::vector<std::pair<std::string, long long>> Args;

struct Harness {
  bool list = false;
  int timeN = 0;
  int failures = 0;
  struct Launched {
    std::string name;
    std::function<void()> fn;
  };
  std::vector<Launched> timed;
  std::vector<std::pair<std::string, int>> launchCount;

  Harness(int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
      if (!strcmp(argv[i], "--list-launches"))
        list = true;
      else if (!strcmp(argv[i], "--time") && i + 1 < argc)
        timeN = atoi(argv[++i]);
      else {
        fprintf(stderr, "usage: %s [--time N] [--list-launches]\n", argv[0]);
        exit(2);
      }
    }
    setvbuf(stdout, nullptr, _IOLBF, 0);
  }

  int nextLaunch(const std::string &k) {
    for (auto &p : launchCount)
      if (p.first == k)
        return p.second++;
    launchCount.push_back({k, 1});
    return 0;
  }

  // Device memory helpers that do nothing in --list-launches mode.
  template <class T> T *alloc(size_t n) {
    if (list)
      return nullptr;
    T *p = nullptr;
    CK(cudaMalloc(&p, n * sizeof(T) + 256));
    CK(cudaMemset(p, 0, n * sizeof(T) + 256));
    return p;
  }
  template <class T> void h2d(T *d, const std::vector<T> &h) {
    if (!list)
      CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  template <class T> void d2h(std::vector<T> &h, const T *d) {
    if (!list)
      CK(cudaMemcpy(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  }
  template <class T> void zero(T *d, size_t n) {
    if (!list)
      CK(cudaMemset(d, 0, n * sizeof(T)));
  }

  static void printCounts(const Counts &c) {
    printf("\"counts\": {");
    bool first = true;
    for (auto &p : c.kv)
      if (p.second) {
        printf("%s\"%s\": %llu", first ? "" : ", ", p.first.c_str(), p.second);
        first = false;
      }
    printf("}");
    if (c.halfLanes != 1)
      printf(", \"ncu_half_lanes\": %d", c.halfLanes);
    if (!c.note.empty())
      printf(", \"note\": \"%s\"", c.note.c_str());
  }
  static void printDim(dim3 d) { printf("[%u, %u, %u]", d.x, d.y, d.z); }

  // Runs `fn` (one launch of `kernel`) once, synchronizes and prints the
  // expectation. In --list-launches mode it only prints the launch shape.
  void launch(const char *kernel, dim3 grid, dim3 block, const Args &args, const Counts &c,
              std::function<void()> fn) {
    int k = nextLaunch(kernel);
    if (list) {
      printf("HROOF_LAUNCH {\"kernel\": \"%s\", \"launch\": %d, \"grid\": ", kernel, k);
      printDim(grid);
      printf(", \"block\": ");
      printDim(block);
      printf(", \"args\": {");
      for (size_t i = 0; i < args.size(); ++i)
        printf("%s\"%s\": %lld", i ? ", " : "", args[i].first.c_str(), args[i].second);
      printf("}, ");
      printCounts(c);
      printf("}\n");
      return;
    }
    fn();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    printf("HROOF_EXPECT {\"kernel\": \"%s\", \"launch\": %d, \"grid\": ", kernel, k);
    printDim(grid);
    printf(", \"block\": ");
    printDim(block);
    printf(", ");
    printCounts(c);
    printf("}\n");
    if (timeN > 0)
      timed.push_back({kernel, fn});
  }

  void check(bool ok, const char *what, long idx = -1, double got = 0, double want = 0) {
    if (list || ok)
      return;
    if (failures < 20)
      fprintf(stderr, "CHECK FAILED: %s [%ld]: got %.9g want %.9g\n", what, idx, got, want);
    ++failures;
  }
  // Relative+absolute tolerance compare of one value.
  void near(const char *what, long idx, double got, double want, double rtol, double atol = 0) {
    check(std::fabs(got - want) <= atol + rtol * std::fabs(want), what, idx, got, want);
  }

  int finish(const char *prog) {
    if (list)
      return 0;
    if (timeN > 0) {
      cudaEvent_t a, b;
      CK(cudaEventCreate(&a));
      CK(cudaEventCreate(&b));
      for (auto &t : timed) {
        for (int w = 0; w < 3; ++w)
          t.fn();
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::vector<float> ms(timeN);
        for (int r = 0; r < timeN; ++r) {
          CK(cudaEventRecord(a));
          t.fn();
          CK(cudaEventRecord(b));
          CK(cudaEventSynchronize(b));
          CK(cudaEventElapsedTime(&ms[r], a, b));
        }
        CK(cudaGetLastError());
        std::sort(ms.begin(), ms.end());
        double med = timeN % 2 ? ms[timeN / 2] : 0.5 * (ms[timeN / 2 - 1] + ms[timeN / 2]);
        printf("HROOF_TIME {\"kernel\": \"%s\", \"median_ms\": %.6f, "
               "\"min_ms\": %.6f, \"runs\": %d}\n",
               t.name.c_str(), med, ms[0], timeN);
      }
    }
    if (failures)
      printf("%s: %d check(s) FAILED\n", prog, failures);
    else
      printf("%s: all checks passed\n", prog);
    return failures ? 1 : 0;
  }
};

// Deterministic pseudo-random values in [-1, 1).
inline float frand(unsigned &s) {
  s = s * 1664525u + 1013904223u;
  return (float)((s >> 8) & 0xffffff) / 8388608.0f - 1.0f;
}
inline unsigned ceil_div(unsigned a, unsigned b) { return (a + b - 1) / b; }
