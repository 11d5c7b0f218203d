//===- HardwareCounters.h - hardware counters of the selected launches ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hardware counters of each selected launch (docs/runtime.md "Hardware
// counters"): the CUPTI range profiler (cupti_range_profiler.h +
// cupti_profiler_host.h), auto range + kernel replay, one range per launch.
// Enabled per context at its first profiled launch, started at launch enter,
// stopped, decoded and evaluated at launch exit; the values become the launch
// record's "counters" (HwMetrics.h). Any failure switches the counters off
// with one message; durations and dynamic counts go on. The CUPTI calls
// themselves are in RangeProfiler.h.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_HARDWARECOUNTERS_H
#define HROOF_RUNTIME_HARDWARECOUNTERS_H

#include "replay/ApplicationReplay.h"
#include "replay/CounterLaunch.h"
#include "replay/CounterLoans.h"
#include "replay/GroupSession.h"
#include "metrics/HwMetrics.h"
#include "kernels/L2Flush.h"
#include "replay/PassSchedule.h"
#include "cupti/RangeProfiler.h"
#include "replay/ReplayPolicy.h"
#include "metrics/TypeCache.h"
#include "support/Support.h"

#include <cuda.h>
#include <cupti.h>

#include <algorithm>
#include <functional>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
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
  /// takeApp (which group a launch had better collect).
  std::atomic<HwConfig *> ObjCfg{nullptr};
  /// HROOF_REPLAY=application: the one-pass groups of the list with every
  /// tensor type, planned once at first use (appGroups), and the part of
  /// them each metric list takes (by the same type mask as Configs).
  std::vector<std::unique_ptr<HwConfig>> AppPlan;
  std::map<unsigned, std::vector<HwConfig *>> AppGroups;
  ReplayPolicy Policy;         ///< when Target's object is re-created for fewer passes
  HwSession Session;           ///< application replay's open batch, under M
  /// A session is started on this context (GroupSession.cpp, openSession):
  /// read by the launch hooks without M.
  std::atomic<bool> SessionActive{false};
  /// HROOF_REPLAY=passes (PassSchedule.h, PassReplayCounters.cpp), under M:
  /// the round's schedule, the whole list the object runs, the round's
  /// counter-data image and the ticket of each record (none: dropped).
  PassSchedule Passes;
  HwConfig *PassOwnCfg = nullptr; ///< the record's own launch: time, clocks, L2, DRAM
  HwConfig *PassCfg = nullptr;    ///< the rest, in pass rounds
  std::vector<std::unique_ptr<HwConfig>> PassConfigs; ///< owns the two
  std::vector<uint8_t> PassData;
  /// The ticket of each record's pass-round group, by record id.
  std::map<uint64_t, AppTicket> PassTickets;
  std::set<uint64_t> PassSpoiled; ///< records whose range ran a failed launch
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

/// The hardware counters of the runtime: which launches get a range, the
/// contexts' range profilers (RangeProfilerTarget) and metric lists
/// (RangeProfilerHost), the tensor types learned per kernel, the cost notes.
/// Any failure switches the hardware counters off with one message;
/// durations and dynamic counts go on.
struct HardwareCounters {
  CounterHost *Host = nullptr; ///< set before onInit
  std::atomic<bool> Enabled{false};
  CountersSetting Set;
  int64_t Limit = 0;
  std::mutex M; ///< guards the maps
  std::unordered_map<CUcontext, std::unique_ptr<HwContext>> Ctxs;
  /// Launches given counters, per kernel (mangled name) and context: each
  /// device of a process gets its own HROOF_LAUNCH_LIMIT.
  std::map<std::pair<std::string, CUcontext>, int64_t> Taken;
  /// The same per launch shape (HROOF_COUNTERS_PER_SHAPE; 0: no such limit).
  std::map<std::pair<std::string, CUcontext>, int64_t> TakenPerShape;
  /// Kernel replay: the correlation id of each work key's first profiled
  /// launch, which lends its counters to the launches past the per-shape
  /// limit (CounterLoans.h).
  std::map<std::pair<std::string, CUcontext>, uint32_t> FirstOfWork;
  /// Application and pass replay: work keys given records per launch shape
  /// (at most KeysPerShapeLimit with HROOF_COUNTERS_PER_SHAPE).
  std::map<std::pair<std::string, CUcontext>, int64_t> KeysPerShape;
  static constexpr int64_t KeysPerShapeLimit = 16;
  CounterLoans Loans;
  int64_t PerShape = 0;
  /// Tensor types learned per mangled name (Set.LearnTensorTypes).
  std::unordered_map<std::string, std::shared_ptr<const LearnedTypes>> Learned;
  std::map<size_t, uint64_t> RangesByPasses;
  bool RelearnReported = false;
  std::unordered_set<uint32_t> Done; ///< finalized ranges' correlation ids (Runtime::M)
  bool DroppedReported = false;
  bool ProfilerInitDone = false;
  std::atomic<uint64_t> EnterNs{0}, LaunchNs{0}, ExitNs{0}, Ranges{0};
  /// Where configure+start goes (the finish note, --verbose 1): counter-data
  /// sizing (list changes), image init, SetConfig after a list change or a
  /// new object vs with the same list, Start.
  std::atomic<uint64_t> SizeNs{0}, InitNs{0}, SetNewNs{0}, SetSameNs{0}, StartNs{0};
  std::atomic<uint64_t> Sizings{0}, SetNews{0};
  std::atomic<uint64_t> Reenables{0}; ///< range profiler objects re-created
  std::atomic<uint64_t> ReenableNs{0};
  /// Learned types kept across runs (TypeCache.h), under M; CacheOn is set
  /// once in onInit. CodeHash: the code hash of each function name seen in a
  /// loaded cubin (0: two different codes under that name), under CodeM.
  bool CacheOn = false;
  TensorTypeCache Cache;
  uint64_t FromCache = 0;
  std::mutex CodeM;
  std::unordered_map<std::string, uint64_t> CodeHash;
  uint64_t HashNs = 0, HashedModules = 0, HashedBytes = 0; ///< under CodeM
  void onModuleLoaded(const CUpti_ModuleResourceData &MD);
  uint64_t codeHash(const std::string &Mangled);
  std::string ProfilerInitProblem;

  /// The replay mode: set in onInit, or moved to application replay
  /// (ApplicationReplay.h) by toApplicationReplay when a communication
  /// kernel appears.
  /// How a launch's counters are collected (HROOF_REPLAY,
  /// hroof/RuntimeSettings.h): chosen once at start; kernel replay moves to
  /// application replay once other GPUs or processes write this process's
  /// memory, and never back.
  std::atomic<ReplayMode> Mode{ReplayMode::Kernel};
  /// Application or pass replay: records are held and assembled from
  /// groups by App.
  bool appMode() const { return Mode != ReplayMode::Kernel; }
  bool passMode() const { return Mode == ReplayMode::Passes; }
  /// Other GPUs or processes write this process's device memory (set with
  /// toApplicationReplay): a group that needs several passes is not
  /// collected (kernel replay saves and restores memory between passes).
  std::atomic<bool> SharedMemory{false};
  /// Groups given up for that (the finish note).
  std::atomic<uint64_t> AppSharedSkips{0};
  ApplicationReplay App;
  std::atomic<uint64_t> AppPlanNs{0}, AppOracleCalls{0}, AppReplayOutside{0};
  /// Application ranges (the GPU check reads them in the finish note): of
  /// one-pass groups at one pass, of one-pass groups at more (on an object
  /// of more passes: must stay 0), of groups that need more alone; fresh
  /// objects for a change of group.
  std::atomic<uint64_t> AppOnePass{0}, AppOverPasses{0}, AppMultiPass{0}, AppSwitches{0};
  /// HROOF_REPLAY=passes: the finish note's numbers: rounds, passes run,
  /// ranges, record-passes without their launch, host time of the first
  /// Start of each round, of every other Start, of Stop and of decoding.
  std::atomic<uint64_t> PassRounds{0}, PassPassesRun{0}, PassRanges{0}, PassMissing{0};
  /// Launches in the range that got no record because the round was full.
  std::atomic<uint64_t> PassFullSkips{0};
  std::atomic<uint64_t> PassOpenNs{0}, PassStartNs{0}, PassStopNs{0}, PassDecodeNs{0};
  std::atomic<int> PassRoundsOpen{0}; ///< contexts with a round under way (kernel activity kind)
  /// Pass mode's takeApp: under the context's lock, which a launch given a
  /// role keeps until its exit (passEnter, passExit).
  /// \p Corr: the launch's correlation id (a session it is listed in closes
  /// before it runs when a round starts).
  AppRole takePass(CUcontext Ctx, const std::string &Shape, bool InRange,
                   const std::function<bool()> &Take, AppTicket &T, uint32_t Corr);
  /// Launch enter and exit of a launch with a pass-replay range.
  bool passEnter(CounterLaunch &IF);
  void passExit(CounterLaunch &IF, CUresult LaunchResult);
  /// A round under way runs its remaining passes empty and is decoded (at
  /// exit, in closeSessions, and at a context's destruction: the records get
  /// the passes they have, the other metrics not_evaluated).
  void closeRoundOf(HwContext &C, std::vector<LaunchRecord> &Done);
  /// Ends a round without values (after a failure): its records' groups
  /// missing, the kernel activity back to the concurrent kind.
  void abandonRound(HwContext &C);
  /// Kernel mode: fresh objects for a list outside the object's first one.
  std::atomic<uint64_t> ListRecreates{0};
  std::string AppPlans; ///< "mask M: G groups" for the notes (under M)
  /// Batched sessions (HwSession): opened, ranges in them, of those ranges
  /// the ones that collected a group, sessions whose ranges did not match
  /// the launches seen (their groups are collected again later), host time
  /// of Start and of Stop+Decode+evaluate.
  std::atomic<uint64_t> Sessions{0}, SessionRanges{0}, SessionUsed{0}, SessionMismatches{0};
  std::atomic<uint64_t> SessionRetries{0}; ///< groups whose session values were lost
  std::atomic<uint64_t> SessionOpenNs{0}, SessionSizeNs{0}, SessionCloseNs{0};
  std::atomic<int> SessionsOpen{0}; ///< contexts with a session open (a cheap test per launch)
  /// Every kernel launch's API entry (callback \p Id, \p Params), the
  /// runtime's own included: one more range of the context's open session,
  /// unless it is captured into a graph. A session idle for long or full is
  /// closed first (the launch then runs in none).
  void sessionLaunch(CUcontext Ctx, uint32_t Corr, CUpti_CallbackId Id, const void *Params);
  /// A launch that failed: no kernel ran, no range.
  void sessionDrop(CUcontext Ctx, uint32_t Corr);
  /// Closes the context's session before something it cannot count runs
  /// (a communication kernel, whose entry \p Forget is dropped first; a
  /// graph; a legacy launch).
  void sessionClose(CUcontext Ctx, uint32_t Forget = 0);
  /// Closes every open session and pass-replay round whose context is not
  /// inside a launch (at exit).
  void closeSessions();
  /// Application mode's take(): the launch's role for the shape's records
  /// (\p InRange: HROOF_RANGE selects it); a new record only within the
  /// launch and per-shape limits, which count records, not replay launches.
  /// \p WorkKey: the launch's (launches/WorkKey.h); records and the groups
  /// they collect are matched by it, so counters never come from a launch
  /// with other by-value parameters.
  AppRole takeApp(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey, bool InRange,
                  AppTicket &T, std::string &Shape, uint32_t Corr);

  void onInit();
  /// Writes the records a closed batched session or pass round completed
  /// (Host->Write); called with no HwContext::M held (GroupSession.cpp).
  void writeCompletedRecords(std::vector<LaunchRecord> &Done);
  /// Whether this launch gets counters: under the launch limit of its
  /// kernel on this context and, with HROOF_COUNTERS_PER_SHAPE, under that
  /// of its work key (\p WorkKey, launches/WorkKey.h: shape and by-value
  /// parameter bytes; unused without that limit).
  /// \p Lender: set, when the per-shape limit refuses the launch, to the
  /// correlation id of the profiled launch of its work key (0: none).
  bool take(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey, uint32_t Corr,
            uint32_t &Lender);
  /// Opens the range (context setup on first use). False: no range (an
  /// application-replay group it was to collect is given back).
  bool onLaunchEnter(CounterLaunch &IF);
  /// HROOF_CACHE_CONTROL=all: flushes the L2 before IF's range ("" or why not).
  std::string flushL2(CounterLaunch &IF);
  L2Flusher Flusher;
  /// Closes the range and fills IF.R.Hw or IF.R.HwProblem.
  void onLaunchExit(CounterLaunch &IF, CUresult LaunchResult);
  void onContextDestroy(CUcontext Ctx);
  void onFinish();
  void off(const std::string &Why);
  /// Kernel replay restores device memory between a launch's passes, which
  /// erases what another GPU or process writes into it meanwhile: a DDP run
  /// with NCCL hung in its first backward pass, and cuda-samples simpleIPC
  /// computed wrong results (measured: docs/validation/multi-gpu.md,
  /// "multi-GPU runs on 2 H100s"). So once \p Cause (a communication
  /// kernel, or an API sharing device memory with another process) appears,
  /// the process goes on in application replay (one pass a launch, no
  /// restore), saying so on stderr and in the profile.
  void toApplicationReplay(const std::string &Cause);
  std::string setup(HwContext &C, CUcontext Ctx);
  std::string setupContext(HwContext &C, CUcontext Ctx);
  /// The context's HwConfig with the tensor types of \p TypeMask (a mask
  /// over tensorTypeMetrics()), made at first use ("" or why not).
  std::string config(HwContext &C, unsigned TypeMask, HwConfig *&Out);

private:
  bool enterRange(CounterLaunch &IF);
  /// Application replay, launch enter under C.M: \p Cfg is a one-pass
  /// group; IF joins the open session of that group, or one is opened
  /// (closing another first). False with IF.R.HwProblem on an error.
  bool joinSession(CounterLaunch &IF, HwContext &C, HwConfig &Cfg);
  std::string openSession(HwContext &C, HwConfig &Cfg);
  /// Stop, Decode, and each ticket's values delivered; records this
  /// completes are appended to \p Done (written by the caller, unlocked).
  void closeSession(HwContext &C, std::vector<LaunchRecord> &Done);
  /// Launch exit of a launch in a session.
  void sessionExit(CounterLaunch &IF, CUresult LaunchResult);
  /// Under C.M: closes C's session; the records it completes wait in
  /// C.Session.Completed.
  void closeSessionOf(HwContext &C);
  /// flushL2 by a thread that holds C.M (the flush kernel's launch callback
  /// must not lock it again).
  std::string flushLocked(CounterLaunch &IF, HwContext &C);
  /// Application mode: the groups the list of type mask \p Key takes from
  /// the context's plan (planned with CUPTI's pass counts at first use),
  /// of one pass only with OnePassOnly in \p Key ("" or why not).
  std::string appGroups(HwContext &C, unsigned Key, std::vector<HwConfig *> &Out);
  /// In a record's key (a type mask): its groups of one pass only (SharedMemory).
  static constexpr unsigned OnePassOnly = 1u << 31;
  std::string appPlan(HwContext &C);
  /// Pass replay, under C.M: a round's steps (PassReplayCounters.cpp).
  std::string openRound(HwContext &C, CUcontext Ctx, uint32_t Corr,
                        std::vector<LaunchRecord> &Done);
  /// Pass mode's two lists (made at first use): the own group, the rest.
  std::string passConfigs(HwContext &C);
  /// Pass mode, a new record (appConfig): its two groups, its own launch's
  /// config in \p Cfg.
  std::string passRecordConfig(CounterLaunch &IF, HwContext &C, HwConfig *&Cfg);
  std::string startPass(HwContext &C);
  void stopPass(HwContext &C, std::vector<LaunchRecord> &Done);
  void decodeRound(HwContext &C, std::vector<LaunchRecord> &Done);
  /// Application mode in a process whose memory others write: IF's group
  /// needs several passes, so it is given up (its metrics not_evaluated,
  /// the record goes on without them) and the launch gets no range.
  void skipMultiPassGroup(CounterLaunch &IF, const HwConfig &Cfg);
  /// Application mode: the config of IF's group (a new record starts here).
  std::string appConfig(CounterLaunch &IF, HwContext &C, HwConfig *&Cfg);
  /// Application mode, launch exit: the group's values to IF's record.
  void appDeliver(CounterLaunch &IF, size_t GroupPasses, std::map<std::string, double> Values,
                  const std::string &NotEvaluated);
  /// A HwConfig for \p Metrics (host object, config image, pass count).
  std::string makeConfig(HwContext &C, const std::vector<std::string> &Metrics,
                         std::unique_ptr<HwConfig> &Out);
  /// Launch enter, step by step.
  HwContext &context(CUcontext Ctx);
  unsigned typeMask(CounterLaunch &IF, const HwContext &C);
  std::string recreate(HwContext &C, CUcontext Ctx, uint64_t &RecreateNs);
  /// Whether \p Cfg needs a fresh range profiler object (ReplayPolicy.h):
  /// its list is not within the object's first config's, or, in application
  /// mode (\p App), its pass count is not the object's either.
  bool freshObject(HwContext &C, const HwConfig &Cfg, bool App);
  std::string startRange(HwContext &C, HwConfig &Cfg, uint64_t (&Ts)[4]);
  /// Launch exit: checks (or learns) the kernel's tensor types against the
  /// range's \p Values; returns the problem found ("" if none).
  std::string checkTypes(const AppTypes &K, const std::map<std::string, double> &Values,
                         std::vector<std::string> &InferredZero);
  /// What checkTypes needs of IF's kernel.
  AppTypes kernelTypes(const CounterLaunch &IF, const HwContext &C) const;
  /// Launch exit: the values of a decoded range into the launch record.
  void evaluate(CounterLaunch &IF, HwContext &C, HwConfig &Cfg, size_t Ranges);
};


/// The finish note of HROOF_REPLAY=application (AppReplayCounters.cpp).
std::string appReplayNote(HardwareCounters &H);
/// The metric list of \p Metrics with the tensor types of mask \p Mask (a
/// bit per tensorTypeMetrics()).
std::vector<std::string> listOfMask(const std::vector<std::string> &Metrics, unsigned Mask);

/// The finish note of HROOF_REPLAY=passes (PassReplayCounters.cpp).
std::string passReplayNote(HardwareCounters &H);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_HARDWARECOUNTERS_H
