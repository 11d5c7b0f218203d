// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Shared helpers of the hroof examples (host side only).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                  \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

// Overhead benchmark support: with HROOF_EXAMPLE_TIME=N in the environment,
// launch the kernel N more times (after 3 warm-up launches) and print the
// median time from CUDA events as
//   HROOF_TIME {"kernel": "<name>", "median_ms": <ms>, "runs": N}
// Used after the result check (the extra launches may change the output).
#include <algorithm>
#include <vector>
template <typename Launch> void timeLaunches(const char *name, Launch launch) {
  const char *env = getenv("HROOF_EXAMPLE_TIME");
  int runs = env ? atoi(env) : 0;
  if (runs <= 0)
    return;
  for (int i = 0; i < 3; ++i)
    launch();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> ms(runs);
  for (int i = 0; i < runs; ++i) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&ms[i], start, stop));
  }
  std::sort(ms.begin(), ms.end());
  printf("HROOF_TIME {\"kernel\": \"%s\", \"median_ms\": %.6f, \"runs\": %d}\n", name, ms[runs / 2],
         runs);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
}
