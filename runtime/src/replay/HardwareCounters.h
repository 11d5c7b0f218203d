//===- HardwareCounters.h - hardware counters of the selected launches ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hardware counters of each selected launch (docs/runtime.md "Hardware
// counters"): the CUPTI range profiler (cupti_range_profiler.h +
// cupti_profiler_host.h). How a launch's counters are collected is the
// replay mode's (CounterReplay.h: kernel, application or pass replay);
// this is what the modes share: the contexts' range profilers, enabled at
// a context's first profiled launch, and their metric lists; the
// kernel-replay range (one auto range per launch, started at launch enter,
// stopped, decoded and evaluated at launch exit); the tensor types learned
// per kernel; the cost notes. The values become the launch record's
// "counters" (HwMetrics.h). Any failure switches the counters off with one
// message; durations and dynamic counts go on. The CUPTI calls themselves
// are in RangeProfiler.h.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_HARDWARECOUNTERS_H
#define HROOF_RUNTIME_HARDWARECOUNTERS_H

#include "cupti/RangeProfiler.h"
#include "kernels/L2Flush.h"
#include "metrics/HwMetrics.h"
#include "metrics/TypeCache.h"
#include "replay/ApplicationReplay.h"
#include "replay/CounterLaunch.h"
#include "replay/CounterLoans.h"
#include "replay/CounterReplay.h"
#include "replay/KernelReplay.h"
#include "replay/PassReplay.h"
#include "replay/ReplayPolicy.h"
#include "replay/SessionReplay.h"
#include "support/Support.h"

#include <cuda.h>
#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

/// One metric list of a context: a host object configured with it (for
/// evaluation), its config image and a counter-data image for one range.
struct HwConfig {
  std::vector<std::string> Metrics;
  std::vector<std::string> Sorted; ///< Metrics sorted (listFitsObject)
  std::vector<const char *> Names; ///< c_str() of Metrics
  RangeProfilerHost Host;
  std::vector<uint8_t> Config, Data;
  size_t Passes = 0;
  bool Sass = false; ///< it has SASS-patched metrics (never in a batched session)
};

/// One context's range profiler: enabled at the context's first profiled
/// launch; one range (one launch) at a time, under M. One HwConfig per
/// metric list in use (all tensor types, or a kernel's learned ones).
struct HwContext {
  std::mutex M;
  bool Ready = false, Failed = false;
  int Device = -1;
  std::string Chip;
  std::vector<uint8_t> Avail; ///< counter availability image
  RangeProfilerTarget Target;
  std::vector<std::string> Metrics; ///< those the device has
  /// By mask of the tensor type metrics it has (all of them: every type).
  std::map<unsigned, std::unique_ptr<HwConfig>> Configs;
  HwConfig *DataCfg = nullptr; ///< the list Target last sized counter data for
  size_t ObjPasses = 0;        ///< pass count of the configs Target runs (0: none yet)
  /// The config Target's object ran first: the object collects its counters
  /// only (ReplayPolicy.h, listFitsObject). Set under M; read without it by
  /// SessionReplay::admit (which group a launch had better collect).
  std::atomic<HwConfig *> ObjCfg{nullptr};
  /// The prices of Target's passes and fresh objects, measured on every
  /// kernel-replay range; kernel replay decides with them (KernelReplay.h).
  ReplayPolicy Policy;
  SessionContext Sessions; ///< application replay's part (SessionReplay.h)
  PassContext Pass;        ///< pass replay's part (PassReplay.h)
};

/// What the hardware counters need of the process around them, given once
/// when the process state is made (Injection.cpp): the settings, the
/// profile (notes; null until it is opened) and the writer of the records
/// that a closed batched session or pass round completed.
struct CounterHost {
  const Settings &S;
  std::unique_ptr<Profile> &P;
  std::function<void(LaunchRecord &&)> Write;
};

/// The hardware counters of the runtime: the replay mode (CounterReplay.h)
/// and what the modes share: the launch limit, the contexts' range
/// profilers (RangeProfilerTarget) and metric lists (RangeProfilerHost),
/// the kernel-replay range path, the tensor types learned per kernel, the
/// cost notes. Any failure switches the hardware counters off with one
/// message; durations and dynamic counts go on.
struct HardwareCounters {
  HardwareCounters();
  ~HardwareCounters();
  CounterHost *Host = nullptr; ///< set before onInit
  std::atomic<bool> Enabled{false};
  CountersSetting Set;
  int64_t Limit = 0;
  std::mutex M; ///< guards the maps (the modes' too)
  /// Launches given counters (records, in application and pass replay), per
  /// kernel (mangled name) and context: each device of a process gets its
  /// own HROOF_LAUNCH_LIMIT. Kept across the switch of replay mode.
  std::map<std::pair<std::string, CUcontext>, int64_t> Taken;
  CounterLoans Loans;
  int64_t PerShape = 0; ///< HROOF_COUNTERS_PER_SHAPE (0: no such limit)
  std::unordered_set<uint32_t> Done; ///< finalized ranges' correlation ids (Runtime::M)
  /// A loaded module: the code hash of each of its functions (the type cache's key).
  void onModuleLoaded(const CUpti_ModuleResourceData &MD);

  /// The replay mode, what a launch asks of the counters: chosen once in
  /// onInit (HROOF_REPLAY, replayModeOf), or moved to application replay by
  /// toApplicationReplay.
  CounterReplay &replay() const { return Mode.current(); }

  /// Reads the settings and makes the replay mode.
  void onInit();
  /// Writes the records a closed batched session or pass round completed
  /// (Host->Write); called with no HwContext::M held (GroupSession.cpp).
  void writeCompletedRecords(std::vector<LaunchRecord> &Done);
  /// HROOF_CACHE_CONTROL=all: flushes the L2 before IF's range ("" or why not).
  std::string flushL2(CounterLaunch &IF);
  /// flushL2 by a thread that holds C.M (the flush kernel's launch callback
  /// must not lock it again: flushingIn).
  std::string flushLocked(CounterLaunch &IF, HwContext &C);
  /// Whether this thread holds C.M while it launches the runtime's own
  /// kernel (the L2 flush of cache-control all).
  static bool flushingIn(const HwContext &C);
  L2Flusher Flusher;
  void onContextDestroy(CUcontext Ctx);
  /// At exit: the mode's sessions and rounds closed, the notes.
  void onFinish();
  void off(const std::string &Why);
  /// Kernel replay restores device memory between a launch's passes, which
  /// erases what another GPU or process writes into it meanwhile: a DDP run
  /// with NCCL hung in its first backward pass, and cuda-samples simpleIPC
  /// computed wrong results (measured: docs/validation/multi-gpu.md,
  /// "multi-GPU runs on 2 H100s"). So once \p Cause (a communication
  /// kernel, or an API sharing device memory with another process) appears,
  /// the process goes on in application replay (one pass a launch, no
  /// restore), saying so on stderr and in the profile; never back.
  void toApplicationReplay(const std::string &Cause);
  /// A context's first profiled launch: the profiler initialized (once a
  /// process), the device checked, the metrics it has, its object enabled
  /// ("" or why not).
  std::string setup(HwContext &C, CUcontext Ctx);
  /// The context's HwConfig with the tensor types of \p TypeMask (a mask
  /// over tensorTypeMetrics()), made at first use ("" or why not).
  std::string config(HwContext &C, unsigned TypeMask, HwConfig *&Out);
  /// A HwConfig for \p Metrics (host object, config image, pass count).
  std::string makeConfig(HwContext &C, const std::vector<std::string> &Metrics,
                         std::unique_ptr<HwConfig> &Out);
  /// The context's state (made at first use).
  HwContext &context(CUcontext Ctx);
  /// Every context (at exit).
  std::vector<HwContext *> contexts();
  /// The metric list of IF's launch: every tensor type while its kernel's
  /// types are learned, else the learned ones (sets IF.HwLearning, HwTypes,
  /// HwCode).
  unsigned typeMask(CounterLaunch &IF, const HwContext &C);
  /// What checkTypes needs of IF's kernel.
  AppTypes kernelTypes(const CounterLaunch &IF, const HwContext &C) const;
  /// Checks (or learns) the kernel's tensor types against a range's
  /// \p Values; returns the problem found ("" if none).
  std::string checkTypes(const AppTypes &K, const std::map<std::string, double> &Values,
                         std::vector<std::string> &InferredZero);
  /// A fresh range profiler object on C (\p RecreateNs: what it took).
  std::string recreate(HwContext &C, CUcontext Ctx, uint64_t &RecreateNs);
  /// Whether \p Cfg needs a fresh range profiler object: none while the
  /// object ran nothing yet, else as \p Mode decides.
  bool freshObject(HwContext &C, const HwConfig &Cfg, CounterReplay &Mode);

  //===--- The kernel-replay range path, shared by the modes ------------===//

  /// Launch enter: C.M locked into \p Lock, the context set up at first
  /// use (\p T0: when). Null: no range (counters off, or C failed).
  HwContext *lockContext(CounterLaunch &IF, std::unique_lock<std::mutex> &Lock, uint64_t &T0);
  /// Opens IF's kernel-replay range of \p Cfg (\p E: why the config could
  /// not be had, then the counters go off); the context's batched session
  /// is closed first. True: the range is open, C.M held in IF.HwLock.
  bool openRange(CounterLaunch &IF, HwContext &C, std::unique_lock<std::mutex> &Lock,
                 HwConfig *Cfg, const std::string &E, uint64_t T0);
  /// Closes IF's kernel-replay range; its values go to IF.Replay.
  void closeRange(CounterLaunch &IF, CUresult LaunchResult);
  /// A kernel's own range values (kernel replay): checked against its
  /// tensor types into IF.R.Hw.
  void launchValues(CounterLaunch &IF, HwContext &C, const std::map<std::string, double> &Values,
                    const std::string &NotEvaluated);

private:
  std::string setupContext(HwContext &C, CUcontext Ctx);
  uint64_t codeHash(const std::string &Mangled);
  std::string startRange(HwContext &C, HwConfig &Cfg, uint64_t (&Ts)[4]);
  /// Launch exit: the values of a decoded range, to IF.Replay.
  void evaluate(CounterLaunch &IF, HwContext &C, HwConfig &Cfg, size_t Ranges);
  /// The finish note of the kernel-replay ranges.
  void noteRanges();
  void noteTypeCache();

  std::unordered_map<CUcontext, std::unique_ptr<HwContext>> Ctxs; ///< under M
  /// Tensor types learned per mangled name (Set.LearnTensorTypes), under M.
  std::unordered_map<std::string, std::shared_ptr<const LearnedTypes>> Learned;
  bool RelearnReported = false, DroppedReported = false, ProfilerInitDone = false;
  std::string ProfilerInitProblem;
  /// Learned types kept across runs (TypeCache.h), under M; CacheOn is set
  /// once in onInit. CodeHash: the code hash of each function name seen in a
  /// loaded cubin (0: two different codes under that name), under CodeM.
  bool CacheOn = false;
  TensorTypeCache Cache;
  uint64_t FromCache = 0;
  std::mutex CodeM;
  std::unordered_map<std::string, uint64_t> CodeHash;
  uint64_t HashNs = 0, HashedModules = 0, HashedBytes = 0; ///< under CodeM

  /// The kernel-replay ranges' costs (the finish note, --verbose 1): ranges
  /// by passes (under M); host time of configure+start, of the launch with
  /// replay and of stop+decode+evaluate; where configure+start goes:
  /// counter-data sizing (list changes), image init, SetConfig after a list
  /// change or a new object vs with the same list, Start; fresh objects.
  std::map<size_t, uint64_t> RangesByPasses;
  std::atomic<uint64_t> EnterNs{0}, LaunchNs{0}, ExitNs{0}, Ranges{0};
  std::atomic<uint64_t> SizeNs{0}, InitNs{0}, SetNewNs{0}, SetSameNs{0}, StartNs{0};
  std::atomic<uint64_t> Sizings{0}, SetNews{0};
  std::atomic<uint64_t> Reenables{0}; ///< range profiler objects re-created
  std::atomic<uint64_t> ReenableNs{0};

  std::unique_ptr<KernelReplay> Kernel;
  /// Application or pass replay: the mode asked for, or where kernel replay
  /// goes (made in onInit, never freed before the process ends).
  std::unique_ptr<SessionReplay> Sessions;
  ReplaySwitch Mode;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_HARDWARECOUNTERS_H
