//===- Injection.h - libhroof_rt.so's shared state and its entry points ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The state the injection library keeps while the application runs (one
// Runtime, reached through rt()) and what each part of the library offers the
// others. Internal to libhroof_rt.so; the top layer of runtime/src (every
// folder below it is listed in docs/runtime.md, "Layout and tests"):
//   Injection.cpp         the state, CUPTI callback dispatch, init and finish
//   Launches.cpp          module/function lookup, launch enter and exit
//   Activity.cpp          CUPTI activity records (durations), with launches
//   Nvtx.cpp              NVTX callbacks into the range tracker (nvtx/)
// The hardware counters (replay/) see a launch as its CounterLaunch part and
// the process through their CounterHost, never through rt().
// docs/runtime.md describes the runtime as a whole.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_INJECTION_H
#define HROOF_RUNTIME_INJECTION_H

#include "cupti/ActivityFlusher.h"
#include "launches/KernelInfo.h"
#include "kernels/CounterSum.h"
#include "replay/CounterLaunch.h"
#include "replay/HardwareCounters.h"
#include "support/Support.h"
#include "nvtx/NvtxRanges.h"
#include "profile/Profile.h"

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

/// A launch between its API enter and exit callbacks: the hardware
/// counters' part (CounterLaunch) and the launch hooks' own.
struct InFlight : CounterLaunch {
  bool PerThread = false;            ///< a _ptsz launch
  bool Counted = false;              ///< dynamic counts are read at exit
  bool Summed = false;               ///< ... by the sum kernel (else: the whole array)
  std::unique_lock<std::mutex> Lock; ///< the counter array (Counted only)
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
  /// Outside HROOF_RANGE, inside HROOF_TIMING_RANGE: its time only (Timing.h).
  bool Timing = false;
  /// It carried counters for another launch's record (application and pass
  /// replay): its time is not the program's own.
  bool Replayed = false;
};
/// Correlation ids of issued launches and copies kept at most (a launch
/// whose activity record never comes must not grow memory forever).
constexpr size_t IssuedLimit = 1 << 20;

/// A launch waiting for its other half (callback counts / activity timing).
struct PendingLaunch {
  LaunchRecord R;
  bool HaveCallback = false, HaveActivity = false;
};

/// Hands a launch with both halves (or all it will get) to the profile.
void finalize(PendingLaunch &&PL);

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
  /// What Hw needs of this state (its settings, profile and record writer).
  CounterHost HwHost{S, P, [](LaunchRecord &&R) {
                       PendingLaunch PL;
                       PL.R = std::move(R);
                       finalize(std::move(PL));
                     }};
  Runtime() { Hw.Host = &HwHost; }
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
  /// By range path: HROOF_RANGE selects it (first), HROOF_TIMING_RANGE does
  /// (second).
  std::unordered_map<std::string, std::pair<bool, bool>> RangeSelected;
  KernelFilter TimingFilter; ///< HROOF_TIMING_RANGE (only beside HROOF_RANGE)
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
/// At a launch or copy's API callback: its range path in \p Range, kept by
/// \p Correlation for its activity record when ranges or HROOF_RANGE are in
/// use (copies: always). False when HROOF_RANGE excludes it.
bool noteIssued(uint32_t Correlation, IssueKind Kind, std::string &Range);
/// The entry noteIssued kept for \p Correlation, if any of a kind in
/// \p Kinds; a launch's or copy's entry is removed, a graph's kept for its
/// other kernels.
std::optional<Issued> takeIssued(uint32_t Correlation, std::initializer_list<IssueKind> Kinds);
/// Marks the issued launch \p Correlation as replayed (Issued::Replayed).
void markIssuedReplayed(uint32_t Correlation);
/// A launch of HROOF_TIMING_RANGE issued while no kernel activity records
/// come (CounterReplay::launchesUntimed): counted in the profile's timing as
/// replayed, without time (Activity.cpp).
void timingUntimed(uint32_t Correlation, const std::string &Mangled, CUcontext Ctx);

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
