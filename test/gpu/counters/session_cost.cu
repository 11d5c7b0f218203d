//===- session_cost.cu - what a user-replay session costs to open ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A measurement tool, not a test (companion of replay_cost.cu): SESSIONS
// user-replay sessions of BATCH launches each, every session configured for
// CAP ranges; per session the host time of init+SetConfig+Start ("open")
// and of the whole session, and the last range's values. With ALT=1 the
// sessions alternate between two one-pass metric lists on ONE range profiler
// object (does an object evaluate a config other than its first?); with
// FRESH=1 every session gets a fresh object (Disable + Enable); with
// FRESH=2 and ALT=1, each list keeps an object of its own, both enabled on
// the context at once (can a context hold two?). Optional:
// REPLAY (user, the default, or kernel: the session's replay mode) and LIST
// (hw, the default, or sass: SASS-patched metrics, whose exact values for
// saxpy are printed; they read 0 in user-replay sessions, H100 2026-11-27).
// Build: bash test/gpu/counters/build.sh;
// run: session_cost CAP BATCH SESSIONS ALT FRESH [REPLAY [LIST]]
//===----------------------------------------------------------------------===//
#include "RangeProfiler.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace hroof::rt;

__global__ void saxpyKernel(float A, const float *X, float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = A * X[I] + Y[I];
}

namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

struct List {
  std::vector<std::string> Metrics;
  std::vector<const char *> Names;
  std::vector<uint8_t> Config;
  RangeProfilerHost Host;
};

std::string configure(List &L, const std::string &Chip, std::vector<uint8_t> &Avail) {
  for (const std::string &M : L.Metrics)
    L.Names.push_back(M.c_str());
  size_t Passes = 0;
  std::string E = L.Host.initialize(Chip, Avail);
  return E.empty() ? L.Host.configure(L.Names, L.Config, Passes) : E;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 6) {
    fprintf(stderr, "usage: session_cost CAP BATCH SESSIONS ALT FRESH\n");
    return 2;
  }
  size_t Cap = atoi(Argv[1]), Batch = atoi(Argv[2]);
  int Sessions = atoi(Argv[3]);
  bool Alt = atoi(Argv[4]), Fresh = atoi(Argv[5]);
  std::string Replay = Argc > 6 ? Argv[6] : "user", Kind = Argc > 7 ? Argv[7] : "hw";
  CUpti_ProfilerReplayMode Mode = Replay == "kernel" ? CUPTI_KernelReplay : CUPTI_UserReplay;
  const int N = 1 << 22;
  float *X, *Y;
  cudaMalloc(&X, N * sizeof(float));
  cudaMalloc(&Y, N * sizeof(float));
  cudaMemset(X, 0, N * sizeof(float));
  cudaMemset(Y, 0, N * sizeof(float));
  // PRELOAD=1: the kernel runs once before the profiler is enabled (its
  // module loaded first, as in a PyTorch process profiled from step 10).
  if (getenv("PRELOAD") && atoi(getenv("PRELOAD")))
    saxpyKernel<<<N / 256, 256>>>(2.0f, X, Y, N);
  cudaDeviceSynchronize();
  CUcontext Ctx;
  CUdevice Dev;
  cuCtxGetCurrent(&Ctx);
  cuCtxGetDevice(&Dev);
  std::string Chip, E;
  std::vector<uint8_t> Avail, Data;
  List Lists[2];
  Lists[0].Metrics = {"gpu__time_duration.sum", "dram__bytes_read.sum", "lts__t_bytes.sum"};
  Lists[1].Metrics = {"l1tex__t_bytes.sum", "sm__cycles_elapsed.avg.per_second",
                      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"};
  if (Kind == "sass") {
    // saxpy over N floats: N FFMA, 8N bytes loaded and 4N stored.
    Lists[0].Metrics = {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
                        "sm__sass_data_bytes_mem_global_op_ld.sum",
                        "sm__sass_data_bytes_mem_global_op_st.sum"};
    printf("expected per launch: ffma %d, ld bytes %d, st bytes %d\n", N, 8 * N, 4 * N);
  }
  RangeProfilerTarget Obj1, T2;
  if (!(E = RangeProfilerTarget::initializeProfiler()).empty() ||
      !(E = RangeProfilerTarget::chipName(Dev, Chip)).empty() ||
      !(E = RangeProfilerTarget::counterAvailability(Ctx, Avail)).empty() ||
      !(E = configure(Lists[0], Chip, Avail)).empty() ||
      !(E = configure(Lists[1], Chip, Avail)).empty() || !(E = Obj1.enable(Ctx)).empty()) {
    fprintf(stderr, "session_cost: %s\n", E.c_str());
    return 1;
  }
  int FreshMode = atoi(Argv[5]);
  if (FreshMode == 2) {
    Fresh = false;
    E = T2.enable(Ctx);
    printf("second object on the context: %s\n", E.empty() ? "enabled" : E.c_str());
    if (!E.empty())
      return 1;
  }
  printf("cap %zu batch %zu alt %d fresh %d replay %s list %s\n", Cap, Batch, int(Alt),
         FreshMode, Replay.c_str(), Kind.c_str());
  for (int S = 0; S < Sessions && E.empty(); ++S) {
    List &L = Lists[Alt ? S % 2 : 0];
    RangeProfilerTarget &T = FreshMode == 2 && Alt && S % 2 ? T2 : Obj1;
    double T0 = nowMs();
    if (Fresh && S > 0) {
      T.disable();
      E = T.enable(Ctx);
    }
    size_t Size = 0, Ranges = 0;
    bool All = false;
    if (E.empty() && (E = T.counterDataSize(L.Names, Size, Cap)).empty()) {
      Data.assign(Size, 0);
      if ((E = T.initCounterData(Data)).empty())
        E = T.setConfig(L.Config, Data, Mode, Cap);
    }
    if (E.empty())
      E = T.start();
    double T1 = nowMs();
    for (size_t B = 0; B < Batch && E.empty(); ++B)
      saxpyKernel<<<N / 256, 256>>>(2.0f, X, Y, N);
    if (E.empty() && (E = T.stop(All)).empty() && (E = T.decode()).empty())
      E = RangeProfilerTarget::rangeCount(Data, Ranges);
    printf("session %d list %d: open %.2f ms, session %.2f ms, %zu ranges\n", S,
           Alt ? S % 2 : 0, T1 - T0, nowMs() - T0, Ranges);
    for (size_t Rg = 0; E.empty() && Rg < Ranges; Rg += (Ranges > 2 ? Ranges - 1 : 1)) {
      std::vector<double> V(L.Names.size(), 0);
      E = L.Host.evaluate(Data, Rg, L.Names, V);
      printf("  range %zu:", Rg);
      for (size_t I = 0; I < V.size(); ++I)
        printf(" %s=%.0f", L.Metrics[I].c_str(), V[I]);
      printf("\n");
    }
  }
  if (!E.empty())
    fprintf(stderr, "session_cost: %s\n", E.c_str());
  return E.empty() ? 0 : 1;
}
