//===- pass_replay.cu - a multi-pass config in user replay, pass by pass ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A measurement tool, not a test (companion of session_cost.cu). Can ONE
// range profiler object collect a metric list of several passes in user
// replay, each pass a later repetition of the workload (as each training
// step repeats the one before), with user ranges around only the launches
// of interest? That would spare application replay a fresh object (about
// 175 ms: docs/validation/deep-learning.md) per change of group.
//
// Each pass: kernel X (outside every range), range "A" around saxpy over
// NA floats, X again, range "B" around saxpy over NB floats. The list mixes
// hardware metrics, SASS metrics and (LIST=tensor) the 2-pass fp16 tensor
// type. Printed: the pass count, the time of each pass's Start, launches
// and Stop, and per decoded range its name and values, beside what A and B
// must give (FFMA = N, global load bytes = 8N exactly; L2 bytes about 12N).
//
// ORDER=same (every pass A then B), swap (odd passes B then A: are ranges
// matched by name or by position?), thread (B pushed, launched and popped
// on another host thread), auto (no user ranges: every launch a range),
// drop (pass 1 launches B outside any range: a range missing from a pass).
// ROUNDS: how many times the object runs the whole list (a second round on
// the same object: what does its first Start cost?). ACT=1 / ACT=2: CUPTI
// concurrent / serial kernel activity on (SASS metrics read 0 under the
// concurrent kind in user replay).
// Build: bash test/gpu/counters/build.sh; run: test/gpu/counters/pass-replay.sh.
//===----------------------------------------------------------------------===//
#include "cupti/RangeProfiler.h"

#include <cupti.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace hroof::rt;

__global__ void saxpyKernel(float A, const float *X, float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = A * X[I] + Y[I];
}

__global__ void scaleKernel(float *Y, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = Y[I] * 0.5f;
}

namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

void CUPTIAPI bufferRequested(uint8_t **Buf, size_t *Size, size_t *MaxRecords) {
  *Size = 1 << 20;
  *Buf = static_cast<uint8_t *>(aligned_alloc(8, *Size));
  *MaxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buf, size_t, size_t) { free(Buf); }

std::string env(const char *N, const char *Default) {
  const char *V = getenv(N);
  return V && *V ? V : Default;
}

struct Buffers {
  float *X, *Y;
  int NA, NB, NX;
};

/// One launch inside user range \p Name (or none when \p Name is null).
std::string ranged(RangeProfilerTarget &T, const char *Name, int N, const Buffers &B) {
  std::string E = Name ? T.pushRange(Name) : "";
  if (E.empty())
    saxpyKernel<<<(N + 255) / 256, 256>>>(2.0f, B.X, B.Y, N);
  if (E.empty() && Name)
    E = T.popRange();
  return E;
}

/// One pass of the workload in the order ORDER asks for.
std::string workload(RangeProfilerTarget &T, const std::string &Order, int Pass,
                     const Buffers &B) {
  bool User = Order != "auto";
  bool Swap = Order == "swap" && Pass % 2;
  std::string E;
  scaleKernel<<<(B.NX + 255) / 256, 256>>>(B.Y, B.NX);
  if (!Swap)
    E = ranged(T, User ? "A" : nullptr, B.NA, B);
  scaleKernel<<<(B.NX + 255) / 256, 256>>>(B.Y, B.NX);
  if (E.empty() && Order == "thread") {
    std::thread Th([&] { E = ranged(T, "B", B.NB, B); });
    Th.join();
  } else if (E.empty()) {
    bool Drop = Order == "drop" && Pass == 1;
    E = ranged(T, User && !Drop ? "B" : nullptr, B.NB, B);
  }
  if (E.empty() && Swap)
    E = ranged(T, "A", B.NA, B);
  return E;
}

/// Runs the list's passes on \p T until CUPTI says all are submitted, then
/// decodes and prints every range.
std::string round(RangeProfilerTarget &T, RangeProfilerHost &H, std::vector<const char *> &Names,
                  std::vector<uint8_t> &Config, const Buffers &B, int Round) {
  std::string Order = env("ORDER", "same");
  size_t Cap = 8, Size = 0;
  std::vector<uint8_t> Data;
  double T0 = nowMs();
  std::string E = T.counterDataSize(Names, Size, Cap);
  if (E.empty()) {
    Data.assign(Size, 0);
    E = T.initCounterData(Data);
  }
  if (E.empty())
    E = T.setConfig(Config, Data, CUPTI_UserReplay, Cap,
                    Order == "auto" ? CUPTI_AutoRange : CUPTI_UserRange);
  printf("round %d: data %zu B, size+init+setconfig %.2f ms\n", Round, Size, nowMs() - T0);
  bool All = false;
  for (int Pass = 0; E.empty() && !All && Pass < 32; ++Pass) {
    double P0 = nowMs();
    E = T.start();
    double P1 = nowMs();
    if (E.empty())
      E = workload(T, Order, Pass, B);
    double P2 = nowMs();
    if (E.empty())
      E = T.stop(All);
    cudaDeviceSynchronize();
    printf("  pass %d: start %.2f ms, launches %.2f ms, stop %.2f ms, all submitted %d\n", Pass,
           P1 - P0, P2 - P1, nowMs() - P2, int(All));
  }
  double D0 = nowMs();
  if (E.empty())
    E = T.decode();
  size_t Ranges = 0;
  if (E.empty())
    E = RangeProfilerTarget::rangeCount(Data, Ranges);
  printf("  decode %.2f ms, %zu ranges\n", nowMs() - D0, Ranges);
  for (size_t R = 0; E.empty() && R < Ranges; ++R) {
    std::string Name;
    std::vector<double> V(Names.size(), 0);
    E = RangeProfilerTarget::rangeName(Data, R, Name);
    if (E.empty())
      E = H.evaluate(Data, R, Names, V);
    printf("  range %zu \"%s\":", R, Name.c_str());
    for (size_t I = 0; E.empty() && I < V.size(); ++I)
      printf(" %s=%.0f", Names[I], V[I]);
    printf("\n");
  }
  return E;
}

} // namespace

int main() {
  Buffers B{nullptr, nullptr, 1 << 20, 1 << 22, 1 << 21};
  cudaMalloc(&B.X, B.NB * sizeof(float));
  cudaMalloc(&B.Y, B.NB * sizeof(float));
  cudaMemset(B.X, 0, B.NB * sizeof(float));
  cudaMemset(B.Y, 0, B.NB * sizeof(float));
  cudaDeviceSynchronize();
  int Act = atoi(env("ACT", "0").c_str());
  if (Act) {
    cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted);
    cuptiActivityEnable(Act == 2 ? CUPTI_ACTIVITY_KIND_KERNEL
                                 : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  }
  std::vector<std::string> Metrics = {
      "gpu__time_duration.sum", "dram__bytes_read.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum",
      "sm__cycles_elapsed.avg.per_second",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
      "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
      "sm__sass_data_bytes_mem_global_op_ld.sum"};
  if (env("LIST", "hw") == "tensor")
    Metrics.push_back("sm__ops_path_tensor_src_fp16.sum");
  printf("expected: A ffma %d ld bytes %d, B ffma %d ld bytes %d; order %s, activity %d\n", B.NA,
         8 * B.NA, B.NB, 8 * B.NB, env("ORDER", "same").c_str(), Act);
  std::vector<const char *> Names;
  for (const std::string &M : Metrics)
    Names.push_back(M.c_str());
  CUcontext Ctx;
  CUdevice Dev;
  cuCtxGetCurrent(&Ctx);
  cuCtxGetDevice(&Dev);
  std::string Chip, E;
  std::vector<uint8_t> Avail, Config;
  RangeProfilerHost H;
  RangeProfilerTarget T;
  size_t Passes = 0;
  if ((E = RangeProfilerTarget::initializeProfiler()).empty() &&
      (E = RangeProfilerTarget::chipName(Dev, Chip)).empty() &&
      (E = RangeProfilerTarget::counterAvailability(Ctx, Avail)).empty() &&
      (E = H.initialize(Chip, Avail)).empty() && (E = H.configure(Names, Config, Passes)).empty())
    E = T.enable(Ctx);
  printf("chip %s, %zu metrics, %zu passes\n", Chip.c_str(), Names.size(), Passes);
  int Rounds = atoi(env("ROUNDS", "2").c_str());
  for (int R = 0; R < Rounds && E.empty(); ++R)
    E = round(T, H, Names, Config, B, R);
  if (!E.empty())
    fprintf(stderr, "pass_replay: %s\n", E.c_str());
  return E.empty() ? 0 : 1;
}
