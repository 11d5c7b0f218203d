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
// Environment switches: RC_EXTRA (memset, memset-big, memcpy or other: one
// of them between two launches of a batch), RC_PRELAUNCH=1 (the kernel runs
// once before the profiler is enabled), RC_REENABLE=1 (a fresh range
// profiler object per batch), RC_MIXED=1 (one kernel-replay range on an
// object of its own first).
// Build (here, no GPU needed): bash test/gpu/counters/build.sh
// Run: replay_cost MODE MEM_GB LAUNCHES [BATCH] [METRIC...]
//===----------------------------------------------------------------------===//
#include "cupti/RangeProfiler.h"

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

namespace {

struct Options {
  std::string Mode, Extra;
  double MemGb = 0;
  int Launches = 0;
  size_t Batch = 1;
  std::vector<std::string> Metrics;
  bool Profile = false;
  CUpti_ProfilerReplayMode Replay = CUPTI_UserReplay;
};

/// The profiler of the context, with one metric list.
struct Profiler {
  RangeProfilerTarget T;
  RangeProfilerHost H;
  std::vector<uint8_t> Config, Data, Avail;
  std::vector<const char *> Names;
  size_t Passes = 0;
};

struct Buffers {
  float *X = nullptr, *Y = nullptr;
  int N = 1 << 22;
};

bool parse(int Argc, char **Argv, Options &O) {
  if (Argc < 4)
    return false;
  O.Mode = Argv[1];
  O.MemGb = atof(Argv[2]);
  O.Launches = atoi(Argv[3]);
  O.Batch = Argc > 4 ? size_t(atoi(Argv[4])) : 1;
  for (int I = 5; I < Argc; ++I)
    O.Metrics.push_back(Argv[I]);
  if (O.Metrics.empty())
    O.Metrics = {"gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
                 "lts__t_bytes.sum"};
  O.Extra = getenv("RC_EXTRA") ? getenv("RC_EXTRA") : "";
  O.Profile = O.Mode != "plain";
  O.Replay = O.Mode.rfind("kernel", 0) == 0 ? CUPTI_KernelReplay : CUPTI_UserReplay;
  if (O.Mode != "user-batch" && O.Mode != "kernel-batch")
    O.Batch = 1;
  return true;
}

/// The kernel's buffers, then MEM_GB more GiB held (touched).
std::string allocate(const Options &O, Buffers &B, std::vector<void *> &Held) {
  cudaMalloc(&B.X, B.N * sizeof(float));
  cudaMalloc(&B.Y, B.N * sizeof(float));
  cudaMemset(B.X, 0, B.N * sizeof(float));
  cudaMemset(B.Y, 0, B.N * sizeof(float));
  for (double Gb = 0; Gb + 0.5 <= O.MemGb; Gb += 1) {
    void *P = nullptr;
    if (cudaMalloc(&P, size_t(1) << 30) != cudaSuccess)
      return "cudaMalloc of 1 GiB failed";
    cudaMemset(P, 1, size_t(1) << 30);
    Held.push_back(P);
  }
  // RC_PRELAUNCH=1: the kernel runs once before the profiler is enabled.
  if (getenv("RC_PRELAUNCH"))
    saxpy<<<B.N / 256, 256>>>(2.0f, B.X, B.Y, B.N);
  cudaDeviceSynchronize();
  return "";
}

std::string setUp(const Options &O, CUcontext Ctx, const Buffers &B, Profiler &P) {
  for (const std::string &M : O.Metrics)
    P.Names.push_back(M.c_str());
  std::string Chip, E;
  CUdevice Dev;
  cuCtxGetDevice(&Dev);
  if (!(E = RangeProfilerTarget::initializeProfiler()).empty() ||
      !(E = RangeProfilerTarget::chipName(Dev, Chip)).empty() ||
      !(E = RangeProfilerTarget::counterAvailability(Ctx, P.Avail)).empty() ||
      !(E = P.H.initialize(Chip, P.Avail)).empty() ||
      !(E = P.H.configure(P.Names, P.Config, P.Passes)).empty())
    return E;
  // RC_MIXED=1: one kernel-replay range first, on an object of its own
  // (the runtime's order: kernel replay, then user-replay sessions).
  if (getenv("RC_MIXED") && !(E = kernelReplayOnce(Ctx, P.Names, P.Config, B.X, B.Y, B.N)).empty())
    return E;
  size_t Size = 0;
  if ((E = P.T.enable(Ctx)).empty() && (E = P.T.counterDataSize(P.Names, Size, 2 * O.Batch)).empty())
    P.Data.resize(Size);
  return E;
}

/// One batch's launches (RC_EXTRA: something else between two of them:
/// a memset, a big memset, a device-to-device copy or another kernel; are
/// they ranges?).
void launchBatch(const Options &O, const Buffers &B) {
  for (size_t I = 0; I < O.Batch; ++I) {
    saxpy<<<B.N / 256, 256>>>(2.0f, B.X, B.Y, B.N);
    if (O.Batch > 1 && I == 1 && O.Extra == "memset")
      cudaMemsetAsync(B.X, 0, 1024);
    if (O.Batch > 1 && I == 1 && O.Extra == "memset-big")
      cudaMemsetAsync(B.X, 1, B.N * sizeof(float) / 2);
    if (O.Batch > 1 && I == 1 && O.Extra == "memcpy")
      cudaMemcpyAsync(B.X, B.Y, B.N * sizeof(float) / 2, cudaMemcpyDeviceToDevice);
    if (O.Batch > 1 && I == 1 && O.Extra == "other")
      other<<<1, 32>>>(B.Y);
  }
}

/// One profiled batch: Start, the launches, Stop (a multi-pass config in
/// user replay takes its further passes from the next launches), Decode,
/// and the last range's values into \p Last.
std::string profiledBatch(const Options &O, CUcontext Ctx, const Buffers &B, Profiler &P,
                          bool First, std::vector<double> &Last) {
  std::string E;
  // RC_REENABLE=1: a fresh range profiler object for every batch after the first.
  if (!First && getenv("RC_REENABLE")) {
    P.T.disable();
    size_t Size = 0;
    if (!(E = P.T.enable(Ctx)).empty() ||
        !(E = P.T.counterDataSize(P.Names, Size, 2 * O.Batch)).empty())
      return E;
    P.Data.resize(Size);
  }
  if (!(E = P.T.initCounterData(P.Data)).empty() ||
      !(E = P.T.setConfig(P.Config, P.Data, O.Replay, 2 * O.Batch)).empty() ||
      !(E = P.T.start()).empty())
    return E;
  launchBatch(O, B);
  bool All = false;
  if (!(E = P.T.stop(All)).empty())
    return E;
  for (size_t Pass = 1; !All && Pass < 16; ++Pass) {
    if (!(E = P.T.start()).empty())
      return E;
    saxpy<<<B.N / 256, 256>>>(2.0f, B.X, B.Y, B.N);
    if (!(E = P.T.stop(All)).empty())
      return E;
  }
  size_t Ranges = 0;
  if (!(E = P.T.decode()).empty() || !(E = RangeProfilerTarget::rangeCount(P.Data, Ranges)).empty())
    return E;
  if (First)
    printf("  %zu ranges for %zu launches (all passes: %d; extra: '%s')\n", Ranges, O.Batch,
           int(All), O.Extra.c_str());
  return Ranges ? P.H.evaluate(P.Data, Ranges - 1, P.Names, Last) : "";
}

void report(const Options &O, const Profiler &P, std::vector<double> Times,
            const std::vector<double> &Last) {
  printf("  ms per launch by batch:");
  for (double T : Times)
    printf(" %.3f", T);
  printf("\n");
  std::sort(Times.begin(), Times.end());
  printf("mode %s mem_gb %.0f passes %zu batch %zu launches %d median_ms_per_launch %.3f "
         "min %.3f max %.3f\n",
         O.Mode.c_str(), O.MemGb, P.Passes, O.Batch, O.Launches, Times[Times.size() / 2],
         Times.front(), Times.back());
  for (size_t I = 0; I < P.Names.size() && O.Profile; ++I)
    printf("  %s = %.0f\n", P.Names[I], Last[I]);
}

int fail(const std::string &What) {
  fprintf(stderr, "replay_cost: %s\n", What.c_str());
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  if (!parse(Argc, Argv, O))
    return fail("usage: replay_cost plain|kernel-each|user-each|user-batch|kernel-batch MEM_GB "
                "LAUNCHES [BATCH] [METRIC...]");
  Buffers B;
  std::vector<void *> Held;
  std::string E = allocate(O, B, Held);
  if (!E.empty())
    return fail(E);
  CUcontext Ctx;
  cuCtxGetCurrent(&Ctx);
  Profiler P;
  if (O.Profile && !(E = setUp(O, Ctx, B, P)).empty())
    return fail(E);
  std::vector<double> Times, Last(O.Metrics.size(), 0);
  for (int L = 0; L < O.Launches; L += int(O.Batch)) {
    double T0 = nowMs();
    if (!O.Profile) {
      launchBatch(O, B);
      cudaDeviceSynchronize();
    } else if (!(E = profiledBatch(O, Ctx, B, P, L == 0, Last)).empty()) {
      return fail(E);
    }
    Times.push_back((nowMs() - T0) / double(O.Batch));
  }
  report(O, P, Times, Last);
  if (O.Profile)
    P.T.disable();
  return 0;
}
