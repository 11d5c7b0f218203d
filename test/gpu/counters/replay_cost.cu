//===- replay_cost.cu - what one counter range costs, by replay mode ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A measurement tool, not a test: the host time that CUPTI's range profiler
// adds to one small kernel launch, in a process that holds MEM_GB of device
// memory (PyTorch's caching allocator holds gigabytes), for
//   plain         no profiler: launch + synchronize
//   kernel-each   kernel replay, Start/launch/Stop/Decode per launch (what
//                 the runtime does for a counted launch)
//   user-each     user replay (no save/restore, no replay), same per launch;
//                 a multi-pass config takes its further passes from the
//                 next launches (Start/launch/Stop until all are submitted)
//   user-batch    user replay, Start, BATCH launches (one auto range each),
//                 Stop, Decode once
//   kernel-batch  the same in kernel replay
// and prints per mode: passes, median host time per launch, and the metric
// values of the last range (to check that user replay counts the kernel).
// Build (here, no GPU needed):
//   clang++-22 -O2 -x cuda --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
//     -Iruntime/src test/gpu/counters/replay_cost.cu runtime/src/RangeProfiler*.cpp \
//     -L/usr/local/cuda/lib64 -lcudart_static -lcuda -lcupti -ldl -lrt -lpthread
// Run: replay_cost MODE MEM_GB LAUNCHES [BATCH] [METRIC...]
//===----------------------------------------------------------------------===//
#include "RangeProfiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace hroof::rt;

__global__ void saxpy(float A, const float *X, float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = A * X[I] + Y[I];
}

__global__ void other(float *Y) { Y[threadIdx.x] += 1.0f; }

static double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

static std::string kernelReplayOnce(CUcontext Ctx, std::vector<const char *> &Names,
                                    std::vector<uint8_t> &Config, float *X, float *Y, int N) {
  RangeProfilerTarget K;
  std::vector<uint8_t> Data;
  size_t Size = 0;
  bool All = false;
  std::string E = K.enable(Ctx);
  if (E.empty() && (E = K.counterDataSize(Names, Size)).empty()) {
    Data.resize(Size);
    if ((E = K.initCounterData(Data)).empty() && (E = K.setConfig(Config, Data)).empty() &&
        (E = K.start()).empty()) {
      saxpy<<<N / 256, 256>>>(2.0f, X, Y, N);
      if ((E = K.stop(All)).empty())
        E = K.decode();
    }
  }
  if (K.enabled())
    K.disable();
  return E;
}

static int fail(const std::string &What) {
  fprintf(stderr, "replay_cost: %s\n", What.c_str());
  return 1;
}

int main(int Argc, char **Argv) {
  if (Argc < 4)
    return fail("usage: replay_cost plain|kernel-each|user-each|user-batch MEM_GB LAUNCHES "
                "[BATCH] [METRIC...]");
  std::string Mode = Argv[1];
  double MemGb = atof(Argv[2]);
  int Launches = atoi(Argv[3]);
  size_t Batch = Argc > 4 ? size_t(atoi(Argv[4])) : 1;
  std::string Extra = getenv("RC_EXTRA") ? getenv("RC_EXTRA") : "";
  std::vector<std::string> Metrics;
  for (int I = 5; I < Argc; ++I)
    Metrics.push_back(Argv[I]);
  if (Metrics.empty())
    Metrics = {"gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
               "lts__t_bytes.sum"};

  const int N = 1 << 22;
  float *X, *Y;
  cudaMalloc(&X, N * sizeof(float));
  cudaMalloc(&Y, N * sizeof(float));
  cudaMemset(X, 0, N * sizeof(float));
  cudaMemset(Y, 0, N * sizeof(float));
  std::vector<void *> Held;
  for (double Gb = 0; Gb + 0.5 <= MemGb; Gb += 1) {
    void *P = nullptr;
    if (cudaMalloc(&P, size_t(1) << 30) != cudaSuccess)
      return fail("cudaMalloc of 1 GiB failed");
    cudaMemset(P, 1, size_t(1) << 30);
    Held.push_back(P);
  }
  // RC_PRELAUNCH=1: the kernel runs once before the profiler is enabled.
  if (getenv("RC_PRELAUNCH"))
    saxpy<<<N / 256, 256>>>(2.0f, X, Y, N);
  cudaDeviceSynchronize();
  CUcontext Ctx;
  cuCtxGetCurrent(&Ctx);

  std::vector<double> Times;
  RangeProfilerTarget T;
  RangeProfilerHost H;
  std::vector<uint8_t> Config, Data, Avail;
  std::vector<const char *> Names;
  for (auto &M : Metrics)
    Names.push_back(M.c_str());
  size_t Passes = 0;
  std::string E;
  bool Profile = Mode != "plain";
  CUpti_ProfilerReplayMode Replay =
      Mode.rfind("kernel", 0) == 0 ? CUPTI_KernelReplay : CUPTI_UserReplay;
  if (Mode != "user-batch" && Mode != "kernel-batch")
    Batch = 1;
  if (Profile) {
    std::string Chip;
    CUdevice Dev;
    cuCtxGetDevice(&Dev);
    if (!(E = RangeProfilerTarget::initializeProfiler()).empty() ||
        !(E = RangeProfilerTarget::chipName(Dev, Chip)).empty() ||
        !(E = RangeProfilerTarget::counterAvailability(Ctx, Avail)).empty() ||
        !(E = H.initialize(Chip, Avail)).empty() || !(E = H.configure(Names, Config, Passes)).empty())
      return fail(E);
    // RC_MIXED=1: one kernel-replay range first, on an object of its own
    // (the runtime's order: kernel replay, then user-replay sessions).
    if (getenv("RC_MIXED") && !(E = kernelReplayOnce(Ctx, Names, Config, X, Y, N)).empty())
      return fail(E);
    if (!(E = T.enable(Ctx)).empty())
      return fail(E);
    size_t Size = 0;
    if (!(E = T.counterDataSize(Names, Size, 2 * Batch)).empty())
      return fail(E);
    Data.resize(Size);
  }
  std::vector<double> Last(Names.size(), 0);
  for (int L = 0; L < Launches; L += int(Batch)) {
    double T0 = nowMs();
    // RC_REENABLE=1: a fresh range profiler object for every batch after the first.
    if (Profile && L > 0 && getenv("RC_REENABLE")) {
      T.disable();
      size_t Size = 0;
      if (!(E = T.enable(Ctx)).empty() || !(E = T.counterDataSize(Names, Size, 2 * Batch)).empty())
        return fail(E);
      Data.resize(Size);
    }
    if (Profile) {
      if (!(E = T.initCounterData(Data)).empty() ||
          !(E = T.setConfig(Config, Data, Replay, 2 * Batch)).empty() || !(E = T.start()).empty())
        return fail(E);
    }
    for (size_t B = 0; B < Batch; ++B) {
      saxpy<<<N / 256, 256>>>(2.0f, X, Y, N);
      // Between two launches of a batch, with RC_EXTRA set: a memset, a big
      // memset, a device-to-device copy or another kernel (are they ranges?).
      if (Batch > 1 && B == 1 && Extra == "memset")
        cudaMemsetAsync(X, 0, 1024);
      if (Batch > 1 && B == 1 && Extra == "memset-big")
        cudaMemsetAsync(X, 1, N * sizeof(float) / 2);
      if (Batch > 1 && B == 1 && Extra == "memcpy")
        cudaMemcpyAsync(X, Y, N * sizeof(float) / 2, cudaMemcpyDeviceToDevice);
      if (Batch > 1 && B == 1 && Extra == "other")
        other<<<1, 32>>>(Y);
    }
    if (Profile) {
      bool All = false;
      if (!(E = T.stop(All)).empty())
        return fail(E);
      // User replay of a multi-pass config: each pass on the next launch.
      for (size_t Pass = 1; !All && Pass < 16; ++Pass) {
        if (!(E = T.start()).empty())
          return fail(E);
        saxpy<<<N / 256, 256>>>(2.0f, X, Y, N);
        if (!(E = T.stop(All)).empty())
          return fail(E);
      }
      if (!(E = T.decode()).empty())
        return fail(E);
      size_t Ranges = 0;
      RangeProfilerTarget::rangeCount(Data, Ranges);
      if (L == 0)
        printf("  %zu ranges for %zu launches (all passes: %d; extra: '%s')\n", Ranges, Batch,
               int(All), Extra.c_str());
      if (Ranges && !(E = H.evaluate(Data, Ranges - 1, Names, Last)).empty())
        return fail(E);

    } else {
      cudaDeviceSynchronize();
    }
    Times.push_back((nowMs() - T0) / double(Batch));
  }
  printf("  ms per launch by batch:");
  for (double T : Times)
    printf(" %.3f", T);
  printf("\n");
  std::sort(Times.begin(), Times.end());
  printf("mode %s mem_gb %.0f passes %zu batch %zu launches %d median_ms_per_launch %.3f "
         "min %.3f max %.3f\n",
         Mode.c_str(), MemGb, Passes, Batch, Launches, Times[Times.size() / 2], Times.front(),
         Times.back());
  for (size_t I = 0; I < Names.size() && Profile; ++I)
    printf("  %s = %.0f\n", Names[I], Last[I]);
  if (Profile)
    T.disable();
  return 0;
}
