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
// saxpy are printed). Every session prints the time of each CUPTI call.
// Environment: PRELOAD=1 runs the kernel before the profiler is enabled;
// ACT=1 (ACT=2: the serial kind) enables CUPTI kernel activity, ACTOFF=1
// disables it while each session runs; CB=1 subscribes to launch
// callbacks, CBSTART=1 starts each session inside one (as the runtime
// does). With ACT=1 SASS metrics read 0 in user replay (H200, 2026-11-27:
// docs/validation/deep-learning.md).
// Build: bash test/gpu/counters/build.sh;
// run: session_cost CAP BATCH SESSIONS ALT FRESH [REPLAY [LIST]]
//===----------------------------------------------------------------------===//
#include "cupti/RangeProfiler.h"

#include <cupti.h>

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

// What the runtime does beside the range profiler, to find why SASS metrics
// read 0 in its user-replay sessions: ACT=1 enables CUPTI's kernel activity
// (with buffers), CB=1 subscribes to the driver's launch callbacks, and
// CBSTART=1 (with CB=1) starts each session inside the enter callback of its
// first launch, as the runtime does.
RangeProfilerTarget *StartIn = nullptr; ///< start this object in the next launch callback
std::string StartErr;

void CUPTIAPI onLaunch(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *Data) {
  const auto *CI = static_cast<const CUpti_CallbackData *>(Data);
  if (CI->callbackSite == CUPTI_API_ENTER && StartIn) {
    StartErr = StartIn->start();
    StartIn = nullptr;
  }
}

void CUPTIAPI bufferRequested(uint8_t **Buf, size_t *Size, size_t *MaxRecords) {
  *Size = 1 << 20;
  *Buf = static_cast<uint8_t *>(aligned_alloc(8, *Size));
  *MaxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buf, size_t, size_t) { free(Buf); }

bool envOn(const char *N) { return getenv(N) && atoi(getenv(N)); }

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

/// What ACT and CB ask for (the runtime's other CUPTI uses).
struct Extras {
  CUpti_ActivityKind ActKind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  bool ActOff = false; ///< disable the activity while each session runs
};

Extras enableExtras() {
  Extras X;
  // ACT=2: the serial kernel activity kind instead; ACTOFF=1: the activity
  // is disabled while each session runs (and enabled again after it).
  if (getenv("ACT") && atoi(getenv("ACT")) == 2)
    X.ActKind = CUPTI_ACTIVITY_KIND_KERNEL;
  X.ActOff = envOn("ACT") && envOn("ACTOFF");
  if (envOn("ACT")) {
    cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    printf("kernel activity (kind %d): %d\n", int(X.ActKind), int(cuptiActivityEnable(X.ActKind)));
  }
  if (envOn("CB")) {
    CUpti_SubscriberHandle Sub;
    printf("subscribe: %d\n", int(cuptiSubscribe(&Sub, onLaunch, nullptr)));
    for (CUpti_CallbackId Id : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz})
      cuptiEnableCallback(1, Sub, CUPTI_CB_DOMAIN_DRIVER_API, Id);
  }
  return X;
}

/// One session's settings.
struct Run {
  CUcontext Ctx;
  size_t Cap, Batch;
  CUpti_ProfilerReplayMode Mode;
  bool Fresh, InCallback;
  Extras X;
  int Index, ListNo; ///< for the output
};

/// One session of R.Batch saxpy launches on \p T with list \p L: prints
/// its open and total time and the time of each CUPTI call.
std::string runSession(RangeProfilerTarget &T, List &L, const Run &R, std::vector<uint8_t> &Data,
                       const float *X, float *Y, int N, size_t &Ranges) {
  std::string E;
  // Phase ends: [0] start, [1] disable+enable, [2] data size, [3] data
  // init, [4] SetConfig, [5] Start, [6] launches, [7] Stop, [8] Decode.
  double Ph[9] = {nowMs()};
  if (R.Fresh) {
    T.disable();
    E = T.enable(R.Ctx);
  }
  Ph[1] = nowMs();
  size_t Size = 0;
  bool All = false;
  if (E.empty() && (E = T.counterDataSize(L.Names, Size, R.Cap)).empty()) {
    Ph[2] = nowMs();
    Data.assign(Size, 0);
    if ((E = T.initCounterData(Data)).empty()) {
      Ph[3] = nowMs();
      E = T.setConfig(L.Config, Data, R.Mode, R.Cap);
    }
  }
  Ph[4] = nowMs();
  if (R.X.ActOff)
    cuptiActivityDisable(R.X.ActKind);
  if (E.empty() && !R.InCallback)
    E = T.start();
  else if (E.empty())
    StartIn = &T;
  Ph[5] = nowMs();
  for (size_t B = 0; B < R.Batch && E.empty(); ++B)
    saxpyKernel<<<N / 256, 256>>>(2.0f, X, Y, N);
  if (R.InCallback && E.empty() && !StartErr.empty())
    E = StartErr;
  Ph[6] = nowMs();
  if (E.empty() && (E = T.stop(All)).empty()) {
    Ph[7] = nowMs();
    if ((E = T.decode()).empty())
      E = RangeProfilerTarget::rangeCount(Data, Ranges);
  }
  if (R.X.ActOff)
    cuptiActivityEnable(R.X.ActKind);
  Ph[8] = nowMs();
  printf("session %d list %d: open %.2f ms, session %.2f ms, %zu ranges\n", R.Index, R.ListNo,
         Ph[5] - Ph[0], Ph[8] - Ph[0], Ranges);
  if (E.empty())
    printf("  ms: enable %.2f size %.2f init %.2f setconfig %.2f start %.2f launches %.2f "
           "stop %.2f decode %.2f (data %zu B)\n",
           Ph[1] - Ph[0], Ph[2] - Ph[1], Ph[3] - Ph[2], Ph[4] - Ph[3], Ph[5] - Ph[4],
           Ph[6] - Ph[5], Ph[7] - Ph[6], Ph[8] - Ph[7], Size);
  return E;
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
  bool InCallback = envOn("CB") && envOn("CBSTART");
  Extras Ext = enableExtras();
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
      !(E = configure(Lists[1], Chip, Avail)).empty()) {
    fprintf(stderr, "session_cost: %s\n", E.c_str());
    return 1;
  }
  double TC = nowMs();
  List Again; // host side alone: one more config image of list 0
  Again.Metrics = Lists[0].Metrics;
  E = configure(Again, Chip, Avail);
  double TE = nowMs();
  if (E.empty())
    E = Obj1.enable(Ctx);
  if (!E.empty()) {
    fprintf(stderr, "session_cost: %s\n", E.c_str());
    return 1;
  }
  printf("host config image (initialize + configure) %.2f ms; first enable %.2f ms\n", TE - TC,
         nowMs() - TE);
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
    size_t Ranges = 0;
    Run R{Ctx, Cap, Batch, Mode, Fresh && S > 0, InCallback, Ext, S, Alt ? S % 2 : 0};
    E = runSession(T, L, R, Data, X, Y, N, Ranges);
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
