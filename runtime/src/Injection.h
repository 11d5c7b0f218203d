//===- Injection.h - libhroof_rt.so's shared state and its entry points ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The state the injection library keeps while the application runs (one
// Runtime, reached through rt()) and what each part of the library offers the
// others. Internal to libhroof_rt.so, included by its sources only:
//   Injection.cpp         the state, CUPTI callback dispatch, init and finish
//   Launches.cpp          module/function lookup, launch enter and exit
//   Activity.cpp          CUPTI activity records (durations), with launches
//   HardwareCounters.cpp  the hardware counters of the selected launches
//   RangeProfiler.cpp     their CUPTI range profiler calls (host, target)
//   Nvtx.cpp              NVTX callbacks into the range tracker (NvtxRanges.h)
// docs/runtime.md describes the runtime as a whole.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_INJECTION_H
#define HROOF_RUNTIME_INJECTION_H

#include "ActivityFlusher.h"
#include "CounterSum.h"
#include "HardwareCounters.h"
#include "NvtxRanges.h"
#include "Profile.h"

#include "hroof/CounterLayout.h"
#include "hroof/StaticModel.h"

#include <cuda.h>
#include <cupti.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

constexpr size_t CounterBytes = sizeof(uint64_t) * NumCounters;

/// One stderr line "hroof: ...", printf-style.
void logLine(const char *Fmt, ...);
/// The CUDA driver's name of \p R.
const char *cuErr(CUresult R);
/// The calling thread's kernel thread id.
uint64_t threadId();
/// CLOCK_MONOTONIC in nanoseconds.
uint64_t nowNs();

/// One module's embedded static model, read once.
struct ModuleInfo {
  std::shared_ptr<StaticModule> Model; ///< null when absent or unreadable
  std::string Problem;                 ///< why there is no model
};

/// One counter array (__hroof_counters_<mangled>) and whether its slots
/// are known to be zero, so that a counted launch needs no memset first:
/// true after the sum kernel (CounterSum.h) read and zeroed them; never
/// again once a launch of the kernel ran uncounted (outside HROOF_RANGE,
/// captured, counting off...): that kernel may still be adding to the
/// array when a later launch is counted, so every counted launch zeroes it
/// first, as before the sum kernel existed.
/// The sum kernel and result buffers of the array's context are prepared
/// at its first counted launch (under Lock; kept across module unloads,
/// reset when that context is destroyed); SumProblem: why not (a memset
/// before each launch and a copy of the whole array after).
struct CounterArray {
  std::mutex Lock;     ///< held from a counted launch's enter to its exit
  bool Zeroed = false; ///< under Lock
  std::atomic<bool> Uncounted{false};
  CUcontext SumCtx = nullptr; ///< the context Sum belongs to (null: not prepared)
  CounterSummer::Buffers Sum;
  std::string SumProblem;
};

/// What the runtime knows about one CUfunction, computed at its first launch.
struct FuncInfo {
  std::string Mangled, Name;
  bool Selected = true;      ///< passes the kernel filter
  bool Instrumented = false; ///< has a counter array, or ByModel
  /// Compiled by hroof but not instrumented: its static model is exact, so
  /// each launch's counts are the model evaluated at the launch.
  bool ByModel = false;
  /// "NCCL AllReduce" for a communication kernel (hroof/Communication.h):
  /// no hardware counters, since its replay would wait for the other ranks.
  std::string Communication;
  CUdeviceptr Counters = 0;
  /// Copies of the counter array (the pass spreads warps' atomics over
  /// slots by SM to avoid contention); the counts are their sum.
  size_t CounterSlots = 1;
  CUmodule Module = nullptr;
  std::shared_ptr<ModuleInfo> Mod;
  const KernelModel *Model = nullptr; ///< in Mod->Model
  std::string ModelProblem;
  std::vector<std::pair<size_t, size_t>> Params; ///< offset, size (ABI)
  std::string ParamProblem;
  /// Pointer parameters whose value the model's counts use (compared with
  /// null: `if (bias != nullptr)`): their values join the evaluation's
  /// arguments (and its cache key); the others only give alignments.
  std::vector<bool> PointerInModel;
  CounterArray *Array = nullptr; ///< in Runtime::Arrays (instrumented only)
  /// Static totals already evaluated, by launch shape and integer arguments:
  /// training loops repeat the same launches, and a thread-by-thread
  /// evaluation can take seconds. Bounded (StaticCacheLimit entries).
  std::mutex StaticCacheLock;
  struct StaticResult {
    std::optional<TotalVector> Total;
    std::optional<TotalBounds> Bounds; ///< when the model is not exact
    std::string Problem;
  };
  std::map<std::string, StaticResult> StaticCache;
  /// Warp-level traffic by the same key plus the pointers modulo 128.
  std::map<std::string, std::pair<std::optional<WarpTraffic>, std::string>> WarpCache;
};
constexpr size_t StaticCacheLimit = 1024;

struct InFlight {
  std::shared_ptr<FuncInfo> F;
  CUstream Stream = nullptr;
  CUcontext Ctx = nullptr;
  bool PerThread = false;            ///< a _ptsz launch
  bool Counted = false;              ///< dynamic counts are read at exit
  bool Summed = false;               ///< ... by the sum kernel (else: the whole array)
  std::unique_lock<std::mutex> Lock; ///< the counter array (Counted only)
  HwContext *Hw = nullptr;           ///< a range is open on this context
  int Device = -1;                   ///< the context's device (hardware counters)
  std::unique_lock<std::mutex> HwLock;
  HwConfig *HwCfg = nullptr;                   ///< the metric list of the open range
  bool HwLearning = false;                     ///< it collects every tensor type
  std::shared_ptr<const LearnedTypes> HwTypes; ///< else: the kernel's learned types
  uint64_t HwCode = 0;                         ///< learning: the kernel's code hash (0: unknown)
  size_t HwPasses = 0;                         ///< passes the range is replayed with
  uint64_t HwT = 0;                            ///< when the range was started
  bool HwSession = false;                      ///< its range is in a batched session
  long PassEntry = -1; ///< HROOF_REPLAY=passes: the record whose range it is in
  /// HROOF_REPLAY=application: the group this launch collects, for which
  /// record; AppShape: its shape key; NoRecord: a replay launch outside
  /// HROOF_RANGE (counters only); AppTimeNs: its group's duration;
  /// AppDone: a record its group completed, to write after the range.
  std::optional<AppTicket> App;
  bool AppNewRecord = false, NoRecord = false;
  std::string AppShape;
  std::optional<uint64_t> AppTimeNs;
  std::optional<LaunchRecord> AppDone;
  LaunchRecord R;
  LaunchShape Shape;
  EvalEnv Env;
  PointerValues Pointers; ///< pointer arguments (the warp-level model)
  std::string ArgProblem;
};

/// What the API callback knew of a launch or copy when it was issued, kept by
/// correlation id for its activity record: its NVTX range path, whether
/// HROOF_RANGE selects it.
enum class IssueKind { Launch, Graph, Transfer };
struct Issued {
  IssueKind Kind = IssueKind::Launch;
  std::string Range;
  bool Selected = true;
};
/// Correlation ids of issued launches and copies kept at most (a launch
/// whose activity record never comes must not grow memory forever).
constexpr size_t IssuedLimit = 1 << 20;

/// A launch waiting for its other half (callback counts / activity timing).
struct PendingLaunch {
  LaunchRecord R;
  bool HaveCallback = false, HaveActivity = false;
};

struct Runtime {
  std::mutex InitLock;
  bool Initialized = false;
  std::atomic<bool> Active{false};   ///< callbacks do work
  std::atomic<bool> Counting{false}; ///< dynamic counting still on
  std::atomic<bool> Finished{false};
  Settings S;
  KernelFilter Filter;
  std::unique_ptr<Profile> P;
  CUpti_SubscriberHandle Sub = nullptr;
  HardwareCounters Hw;
  ActivityFlusher Flusher; ///< delivers activity records every FlushMs

  std::mutex M; ///< guards the maps below
  /// By handle and context: a CUkernel handle (context-independent loading)
  /// is the same on every device, but each device's module has its own
  /// counter array, so a process driving several GPUs needs one entry each.
  std::map<std::pair<CUfunction, CUcontext>, std::shared_ptr<FuncInfo>> Funcs;
  std::unordered_map<CUmodule, std::shared_ptr<ModuleInfo>> Modules;
  std::unordered_map<uint32_t, PendingLaunch> Pending;
  std::unordered_map<CUdeviceptr, std::unique_ptr<CounterArray>> Arrays;
  CounterSummer Summer;
  /// A CUDA graph or a launch through an API the runtime does not decode
  /// (cuLaunch, cuLaunchGrid*, multi-device cooperative) ran: counter
  /// arrays are zeroed before every counted launch from then on.
  std::atomic<bool> UnseenLaunches{false};
  std::unordered_map<std::string, bool> NameSelected;
  std::unordered_set<std::string> InstrumentedNames;
  NvtxRanges Ranges;
  KernelFilter RangeFilter; ///< HROOF_RANGE
  std::unordered_map<std::string, bool> RangeSelected;
  std::unordered_map<uint32_t, Issued> IssuedByCorrelation;
  /// Host time of counted launches' exits (hostCostNote): reading the
  /// counts (waiting for the kernel included), the static and warp-level
  /// models' evaluations (cache hits cost no evaluation).
  struct HostCost {
    std::atomic<uint64_t> ReadNs{0}, Reads{0}, StaticNs{0}, StaticRuns{0}, StaticHits{0};
    std::atomic<uint64_t> WarpNs{0}, WarpRuns{0};
  } Cost;
  uint64_t TransfersNotAttributed = 0;                  ///< copy records of no known API call
  uint64_t LaunchesInRange = 0, LaunchesOutOfRange = 0; ///< under HROOF_RANGE

  void disable(const std::string &Why) {
    if (Active.exchange(false))
      logLine("%s; the runtime switches itself off (the application goes on)", Why.c_str());
    if (P)
      P->note("runtime disabled: " + Why);
  }
  void stopCounting(const std::string &Why) {
    if (Counting.exchange(false)) {
      logLine("%s", Why.c_str());
      if (P)
        P->note(Why);
    }
  }
  /// A profile note (deduplicated by the profile), without a stderr line.
  void noteOnce(const std::string &Line) {
    if (P)
      P->note(Line);
  }
  void reportWriteError() {
    if (P) {
      std::string E = P->takeWriteError();
      if (!E.empty())
        logLine("%s", E.c_str());
    }
  }
};

/// The one Runtime of the process (never destroyed: used from atexit).
Runtime &rt();
/// Whether kernel \p Mangled passes the kernel filter (cached per name).
bool selectedName(const std::string &Mangled);
/// Hands a launch with both halves (or all it will get) to the profile.
void finalize(PendingLaunch &&PL);
/// At a launch or copy's API callback: its range path in \p Range, kept by
/// \p Correlation for its activity record when ranges or HROOF_RANGE are in
/// use (copies: always). False when HROOF_RANGE excludes it.
bool noteIssued(uint32_t Correlation, IssueKind Kind, std::string &Range);
/// The entry noteIssued kept for \p Correlation, if any of a kind in
/// \p Kinds; a launch's or copy's entry is removed, a graph's kept for its
/// other kernels.
std::optional<Issued> takeIssued(uint32_t Correlation, std::initializer_list<IssueKind> Kinds);
/// Set while the runtime makes its own driver calls on this thread (their
/// copies are not the application's).
extern thread_local bool InOwnDriverCalls;

// Launches.cpp
std::shared_ptr<ModuleInfo> moduleInfo(CUmodule Mod);
std::shared_ptr<FuncInfo> funcInfo(CUfunction Fn, CUcontext Ctx);
void onLaunchEnter(CUpti_CallbackId Id, const CUpti_CallbackData *CB);
void onLaunchExit(const CUpti_CallbackData *CB);
void onGraphLaunch();
/// The profile note on Runtime::Cost at exit, "" when nothing was counted.
std::string hostCostNote();

// Nvtx.cpp
void onNvtx(CUpti_CallbackId Id, const CUpti_NvtxData *D);

// Activity.cpp
void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size, size_t *MaxRecords);
void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t, size_t Valid);

} // namespace rt
} // namespace hroof

extern "C" int InitializeInjection(void);

#endif // HROOF_RUNTIME_INJECTION_H
