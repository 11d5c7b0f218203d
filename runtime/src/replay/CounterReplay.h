//===- CounterReplay.h - what a launch asks of the hardware counters ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How a launch's counters are collected (HROOF_REPLAY, docs/runtime.md
// "Hardware counters", "Application replay", "Pass replay"): one interface,
// one implementation per mode, each owning the state only it uses:
//   - KernelReplay (KernelReplay.h): one range per launch, replayed by CUPTI;
//   - SessionReplay (SessionReplay.h): application replay, a record's
//     one-pass groups from later launches of its work key, in batched
//     sessions;
//   - PassReplay (PassReplay.h): a record's own launch in a session, the
//     rest of the metric set from rounds of user-replay passes.
// The mode is made once at start (HardwareCounters::onInit, replayModeOf);
// the one switch, kernel replay to application replay once other GPUs or
// processes write this process's memory, is ReplaySwitch's: both objects
// live as long as the process, so a launch keeps the mode that admitted it
// (CounterLaunch::Replay) to its exit.
// The CUPTI machinery the modes share (contexts, configs, kernel-replay
// ranges, evaluation, tensor types, L2 flush) is HardwareCounters.h's.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_REPLAY_COUNTERREPLAY_H
#define HROOF_RUNTIME_REPLAY_COUNTERREPLAY_H

#include "launches/KernelInfo.h"
#include "profile/Profile.h"
#include "replay/ApplicationReplay.h"

#include <hroof/RuntimeSettings.h>

#include <cuda.h>
#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

struct CounterLaunch;
struct HwConfig;
struct HwContext;

/// The replay mode the settings ask for (HROOF_REPLAY).
inline ReplayMode replayModeOf(const Settings &S) {
  return S.PassReplay ? ReplayMode::Passes
         : S.AppReplay ? ReplayMode::Application
                       : ReplayMode::Kernel;
}

/// What the counters answer a launch (CounterReplay::admit).
struct LaunchAdmission {
  /// Application and pass replay: the launch's part in a record.
  AppRole Role = AppRole::None;
  AppTicket Ticket;  ///< Replay, ReplayOnly: the group it collects
  std::string Shape; ///< application and pass replay: its records' shape key
  /// Kernel replay past the per-shape limit: the correlation id of the
  /// launch of equal work whose counters it carries (CounterLoans.h).
  uint32_t Lender = 0;
};

class CounterReplay {
public:
  virtual ~CounterReplay() = default;
  virtual ReplayMode mode() const = 0;

  //===--- What a launch asks -----------------------------------------===//

  /// Whether admit needs the launch's work key (launches/WorkKey.h).
  virtual bool usesWorkKey() const = 0;
  /// Whether a launch outside HROOF_RANGE may collect counters (a group of
  /// an earlier record, no record of its own).
  virtual bool replaysOutsideRange() const { return false; }
  /// Whether launches issued now get no kernel activity record (pass
  /// replay with HROOF_ROUND_ACTIVITY=off, a round under way): their time
  /// is not measured.
  virtual bool launchesUntimed() const { return false; }
  /// A launch of HROOF_RANGE is issued: it needs its activity record, so
  /// records come back (of the serial kind) from now on.
  virtual void launchNeedsTime() {}
  /// Whether launch \p Corr of \p F on \p Ctx gets counters, and in which
  /// role (\p InRange: HROOF_RANGE selects it); within the launch limits.
  /// \p WorkKey: the launch's, when usesWorkKey().
  virtual bool admit(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey,
                     uint32_t Corr, bool InRange, LaunchAdmission &A) = 0;
  /// Launch enter of an admitted launch: its range (context setup on first
  /// use); sets IF.Replay to this mode. False: no range (a group it was to
  /// collect is given back).
  virtual bool enter(CounterLaunch &IF) = 0;
  /// Launch exit of a launch with a range (IF.Hw): closes it and fills
  /// IF.R.Hw or IF.R.HwProblem.
  virtual void exit(CounterLaunch &IF, CUresult LaunchResult) = 0;

  //===--- Every kernel launch's API entry (batched sessions) -----------===//

  /// Whether some context has a batched session open (a cheap test per
  /// launch before the hooks below).
  virtual bool batchesOpen() const { return false; }
  /// Launch \p Corr's API entry (callback \p Id, \p Params), the runtime's
  /// own included: one more range of its context's open session.
  virtual void launchIssued(CUcontext, uint32_t /*Corr*/, CUpti_CallbackId, const void *) {}
  /// A launch that failed: no kernel ran, no range.
  virtual void launchFailed(CUcontext, uint32_t /*Corr*/) {}
  /// Closes the context's session before something it cannot count runs
  /// (a communication kernel, whose entry \p Forget is dropped first; a
  /// graph; a legacy launch).
  virtual void closeBatch(CUcontext, uint32_t /*Forget*/ = 0) {}

  //===--- Records ------------------------------------------------------===//

  /// At the record's finalize: true when the mode keeps \p R until its
  /// counter groups are complete (it is written later).
  virtual bool hold(LaunchRecord &) { return false; }
  /// At exit: the records still held, written with what they have.
  virtual std::vector<LaunchRecord> takeIncomplete() { return {}; }

  //===--- What the shared range path asks (HardwareCounters) ------------===//

  /// Whether \p Cfg needs a fresh range profiler object, the object having
  /// run a config already (\p Fits: Cfg's list is within its first one's).
  virtual bool freshObject(HwContext &C, const HwConfig &Cfg, bool Fits) = 0;
  /// A kernel-replay range's values (of \p Cfg; \p Values, \p NotEvaluated: metrics
  /// CUPTI left NaN) into IF's record or the group it collects.
  virtual void rangeValues(CounterLaunch &IF, HwContext &C, const HwConfig &Cfg,
                           std::map<std::string, double> Values,
                           const std::string &NotEvaluated) = 0;
  /// IF's range gave no values.
  virtual void rangeFailed(CounterLaunch &) {}
  /// The mode's finish note, before (\p BeforeRanges) or after the notes of
  /// \p Ranges kernel-replay ranges.
  virtual void noteFinish(uint64_t /*Ranges*/, bool /*BeforeRanges*/) {}
};

/// The replay mode of the process: the one chosen at start, or, once,
/// its successor (kernel replay to application replay). Neither object is
/// freed before the switch is: a launch may still use the first.
class ReplaySwitch {
public:
  /// \p Initial: the mode chosen at start; \p Successor: where kernel replay
  /// goes (null: nowhere, or Initial is not kernel replay). Called before
  /// any launch reaches the counters (HardwareCounters::onInit).
  void set(CounterReplay *Initial, CounterReplay *Successor) {
    First = Initial;
    Next = Initial && Initial->mode() == ReplayMode::Kernel ? Successor : nullptr;
    Current = Initial;
  }
  CounterReplay &current() const { return *Current.load(); }
  /// Moves to the successor; true for the one call that does.
  bool toSuccessor() {
    CounterReplay *Was = First;
    return Next && Current.compare_exchange_strong(Was, Next);
  }

private:
  CounterReplay *First = nullptr, *Next = nullptr;
  std::atomic<CounterReplay *> Current{nullptr};
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_REPLAY_COUNTERREPLAY_H
