//===- SessionReplay.h - application replay in batched sessions -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_REPLAY=application (docs/runtime.md "Application replay"), and
// where kernel replay goes once other GPUs or processes write this
// process's memory (HardwareCounters::toApplicationReplay). The records and
// their one-pass groups are ApplicationReplay.h's (no CUDA); this is the
// CUDA side: which role a launch takes, the context's plan of groups, the
// config of the group a launch collects and the delivery of its values
// (AppReplayCounters.cpp), and the batched user-replay sessions a one-pass
// group's ranges run in (GroupSession.cpp). A group that needs more passes
// alone gets a kernel-replay range of its own on the shared range path
// (HardwareCounters.cpp). Pass replay (PassReplay.h) builds on it.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_REPLAY_SESSIONREPLAY_H
#define HROOF_RUNTIME_REPLAY_SESSIONREPLAY_H

#include "replay/ApplicationReplay.h"
#include "replay/CounterReplay.h"
#include "replay/GroupSession.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

struct HardwareCounters;

/// Application replay's part of a context (HwContext::Sessions), under the
/// context's M unless said otherwise.
struct SessionContext {
  /// The one-pass groups of the list with every tensor type, planned once
  /// at first use (SessionReplay::groups), and the part of them each metric
  /// list takes (by the same type mask as HwContext::Configs).
  std::vector<std::unique_ptr<HwConfig>> Plan;
  std::map<unsigned, std::vector<HwConfig *>> Groups;
  HwSession Session; ///< the open batch
  /// A session is started on this context (GroupSession.cpp, openSession):
  /// read by the launch hooks without M.
  std::atomic<bool> Active{false};
};

class SessionReplay : public CounterReplay {
public:
  explicit SessionReplay(HardwareCounters &H);
  ReplayMode mode() const override { return ReplayMode::Application; }
  bool usesWorkKey() const override { return true; }
  bool replaysOutsideRange() const override { return true; }
  /// The launch's role for its shape's records; a new record only within
  /// the launch and per-shape limits, which count records, not replay
  /// launches. Records and the groups they collect are matched by the work
  /// key, so counters never come from a launch with other by-value
  /// parameters.
  bool admit(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey, uint32_t Corr,
             bool InRange, LaunchAdmission &A) override;
  bool enter(CounterLaunch &IF) override;
  void exit(CounterLaunch &IF, CUresult LaunchResult) override;
  bool batchesOpen() const override { return SessionsOpen > 0; }
  /// One more range of the context's open session, unless the launch is
  /// captured into a graph. A session idle for long or full is closed
  /// first (the launch then runs in none).
  void launchIssued(CUcontext Ctx, uint32_t Corr, CUpti_CallbackId Id,
                    const void *Params) override;
  void launchFailed(CUcontext Ctx, uint32_t Corr) override;
  void closeBatch(CUcontext Ctx, uint32_t Forget = 0) override;
  bool hold(LaunchRecord &R) override { return App.hold(R); }
  std::vector<LaunchRecord> takeIncomplete() override { return App.takeIncomplete(); }
  /// A group's range must run at the group's own pass count (one pass: no
  /// memory save and restore by CUPTI), so on an object whose first config
  /// was that group (or a list of the same passes it is within).
  bool freshObject(HwContext &C, const HwConfig &Cfg, bool Fits) override;
  void rangeValues(CounterLaunch &IF, HwContext &C, const HwConfig &Cfg,
                   std::map<std::string, double> Values, const std::string &NotEvaluated) override;
  void rangeFailed(CounterLaunch &IF) override;
  void noteFinish(uint64_t Ranges, bool BeforeRanges) override;

  //===--- What the shared machinery asks (HardwareCounters) ------------===//

  /// Under C.M, before a kernel-replay range of launch \p Corr: the open
  /// session is closed (its records wait in the session's Completed).
  /// False: that failed (C.Failed).
  bool closeForRange(HwContext &C, uint32_t Corr);
  /// Under C.M: the records closed sessions completed, into \p Done (written
  /// by the caller once M is released).
  void takeCompleted(HwContext &C, std::vector<LaunchRecord> &Done);
  /// Closes every open session (and pass round) whose context is not inside
  /// a launch (at exit).
  void closeAll();
  /// Under C.M, before the context is destroyed: its session (and round)
  /// closed, the records they complete into \p Done.
  virtual void closeContext(HwContext &C, std::vector<LaunchRecord> &Done);
  /// After the context's profiler object is gone: the host objects of the
  /// mode's configs.
  virtual void releaseContext(HwContext &C);

  /// Other GPUs or processes write this process's device memory (set with
  /// toApplicationReplay): a group that needs several passes is not
  /// collected (kernel replay saves and restores memory between passes).
  std::atomic<bool> SharedMemory{false};
  ApplicationReplay App;

protected:
  HardwareCounters &H;

  /// Launch enter under C.M, before the group's config: why the launch gets
  /// no range ("": it may have one).
  virtual std::string refuseGroup(CounterLaunch &, HwContext &) { return ""; }
  /// The config of IF's group (a new record starts here).
  virtual std::string groupConfig(CounterLaunch &IF, HwContext &C, HwConfig *&Cfg);
  /// At exit, under C.M: what is open on C closed, records into \p Done.
  virtual void closeOpen(HwContext &C, std::vector<LaunchRecord> &Done);
  /// Whether a launch of \p F starts a record of \p Shape: the launch and
  /// per-shape limits (counting records only).
  bool takeRecord(const FuncInfo &F, CUcontext Ctx, const std::string &Shape);
  /// A record's shape key: the work key on its context.
  static std::string shapeKey(const std::string &WorkKey, CUcontext Ctx);
  /// With a per-shape limit, a launch in the range that starts no record
  /// carries the counters of its work key's first record (CounterLoans.h):
  /// \p A's Lender, from what admit saw (\p Corr, \p InRange).
  void lendOrRemember(const LaunchAdmission &In, uint32_t Corr, bool InRange,
                      LaunchAdmission &A);
  /// Under C.M: closes C's session; the records it completes wait in its
  /// Completed.
  void closeSessionOf(HwContext &C);
  /// The finish note's text: what the records cost in launches.
  std::string note();

  /// The finish note's numbers: group ranges of one-pass groups at one pass,
  /// of one-pass groups at more (on an object of more passes: must stay 0),
  /// of groups that need more alone; fresh objects for a change of group.
  std::atomic<uint64_t> AppOnePass{0}, AppOverPasses{0}, AppMultiPass{0}, AppSwitches{0};

private:
  std::mutex LendersM;
  /// The correlation id of each shape key's first record (lendOrRemember).
  std::unordered_map<std::string, uint32_t> FirstRecord;
  bool enterGroup(CounterLaunch &IF);
  /// Launch enter under C.M: \p Cfg is a one-pass group; IF joins the open
  /// session of that group, or one is opened (closing another first). False
  /// with IF.R.HwProblem on an error.
  bool joinSession(CounterLaunch &IF, HwContext &C, HwConfig &Cfg);
  std::string openSession(HwContext &C, HwConfig &Cfg);
  /// Stop, Decode, and each ticket's values delivered; records this
  /// completes are appended to \p Done (written by the caller, unlocked).
  void closeSession(HwContext &C, std::vector<LaunchRecord> &Done);
  /// Launch exit of a launch in a session.
  void sessionExit(CounterLaunch &IF, CUresult LaunchResult);
  /// The groups the list of type mask \p Key takes from the context's plan
  /// (planned with CUPTI's pass counts at first use), of one pass only with
  /// OnePassOnly in \p Key ("" or why not).
  std::string groups(HwContext &C, unsigned Key, std::vector<HwConfig *> &Out);
  /// In a record's key (a type mask): its groups of one pass only (SharedMemory).
  static constexpr unsigned OnePassOnly = 1u << 31;
  std::string plan(HwContext &C);
  /// In a process whose memory others write: IF's group needs several
  /// passes, so it is given up (its metrics not_evaluated, the record goes
  /// on without them) and the launch gets no range.
  void skipMultiPassGroup(CounterLaunch &IF, const HwConfig &Cfg);
  /// Launch exit: the group's values to IF's record.
  void deliver(CounterLaunch &IF, size_t GroupPasses, std::map<std::string, double> Values,
               const std::string &NotEvaluated);

  /// Work keys given records per launch shape (at most KeysPerShapeLimit
  /// with HROOF_COUNTERS_PER_SHAPE), and records per shape key, under H.M.
  std::map<std::pair<std::string, CUcontext>, int64_t> KeysPerShape, TakenPerShape;
  static constexpr int64_t KeysPerShapeLimit = 16;
  /// Groups given up for SharedMemory (the finish note).
  std::atomic<uint64_t> AppSharedSkips{0};
  std::atomic<uint64_t> AppPlanNs{0}, AppOracleCalls{0}, AppReplayOutside{0};
  std::string AppPlans; ///< "mask M: G groups" for the notes (under H.M)
  /// Batched sessions (HwSession): opened, ranges in them, of those ranges
  /// the ones that collected a group, sessions whose ranges did not match
  /// the launches seen (their groups are collected again later), host time
  /// of Start and of Stop+Decode+evaluate.
  std::atomic<uint64_t> Sessions{0}, SessionRanges{0}, SessionUsed{0}, SessionMismatches{0};
  std::atomic<uint64_t> SessionRetries{0}; ///< groups whose session values were lost
  std::atomic<uint64_t> SessionOpenNs{0}, SessionSizeNs{0}, SessionCloseNs{0};
  std::atomic<int> SessionsOpen{0}; ///< contexts with a session open (a cheap test per launch)
};

/// The metric list of \p Metrics with the tensor types of mask \p Mask (a
/// bit per tensorTypeMetrics()).
std::vector<std::string> listOfMask(const std::vector<std::string> &Metrics, unsigned Mask);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_REPLAY_SESSIONREPLAY_H
