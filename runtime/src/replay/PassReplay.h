//===- PassReplay.h - pass replay: rounds of user-replay passes -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_REPLAY=passes (docs/runtime.md "Pass replay"; PassSchedule.h has the
// schedule and the measurements behind it). A record's own launch collects
// the one-pass group of the duration, clocks, L2 and DRAM in a batched
// session, as application replay does (SessionReplay.h); the rest of the
// metric set comes from rounds of pass replay on one range profiler object
// (PassReplayCounters.cpp), and ApplicationReplay holds each record until both
// groups are in.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_REPLAY_PASSREPLAY_H
#define HROOF_RUNTIME_REPLAY_PASSREPLAY_H

#include "replay/PassSchedule.h"
#include "replay/SessionReplay.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

/// Pass replay's part of a context (HwContext::Pass), under the context's
/// M: the round's schedule, the two lists, the round's counter-data image
/// and the ticket of each record (none: dropped).
struct PassContext {
  PassSchedule Schedule;
  /// The record's own launch: time, clocks, L2, DRAM, and where they fit in
  /// the same pass, the tensor pipes (PipesInOwn), which tell the types a
  /// kernel did not use before its round.
  HwConfig *OwnCfg = nullptr;
  bool PipesInOwn = false;
  HwConfig *FullCfg = nullptr; ///< the rest with every tensor type: a record's group 1
  HwConfig *Cfg = nullptr;     ///< the round under way's list: the rest, its records' types
  std::map<unsigned, HwConfig *> CfgOfMask; ///< the rest, by tensor-type mask
  std::vector<std::unique_ptr<HwConfig>> Configs; ///< owns them
  /// Each record's tensor types as known when it was recorded (type mask;
  /// every type while it learns them), by record id.
  std::map<uint64_t, unsigned> TypeMask;
  std::vector<uint8_t> Data;
  /// The ticket of each record's pass-round group, by record id.
  std::map<uint64_t, AppTicket> Tickets;
  std::set<uint64_t> Spoiled; ///< records whose range ran a failed launch
};

class PassReplay final : public SessionReplay {
public:
  explicit PassReplay(HardwareCounters &H) : SessionReplay(H) {}
  ReplayMode mode() const override { return ReplayMode::Passes; }
  /// Under the context's lock, which a launch given a pass role keeps until
  /// its exit (enter, exit). A launch listed in a session closes it before it
  /// runs when a round starts.
  bool admit(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey, uint32_t Corr,
             bool InRange, LaunchAdmission &A) override;
  /// A pass round's range; a record's own launch: a session.
  bool enter(CounterLaunch &IF) override;
  void exit(CounterLaunch &IF, CUresult LaunchResult) override;
  void noteFinish(uint64_t Ranges, bool BeforeRanges) override;
  bool launchesUntimed() const override { return ActivityOff.load(std::memory_order_relaxed); }
  void launchNeedsTime() override;
  void closeContext(HwContext &C, std::vector<LaunchRecord> &Done) override;
  void releaseContext(HwContext &C) override;

private:
  /// A record's own launch runs in a batched session, which would take the
  /// object of a round under way (another thread's).
  std::string refuseGroup(CounterLaunch &IF, HwContext &C) override;
  /// A new record: its two groups, its own launch's config in \p Cfg.
  std::string groupConfig(CounterLaunch &IF, HwContext &C, HwConfig *&Cfg) override;
  void closeOpen(HwContext &C, std::vector<LaunchRecord> &Done) override;
  /// admit's work under the context's lock; \p Take: the limits of a new record.
  AppRole takePass(CUcontext Ctx, const std::string &Shape, bool InRange,
                   const std::function<bool()> &Take, AppTicket &T, uint32_t Corr);
  /// Launch enter and exit of a launch with a pass-replay range.
  bool passEnter(CounterLaunch &IF);
  void passExit(CounterLaunch &IF, CUresult LaunchResult);
  /// A round under way runs its remaining passes empty and is decoded (at
  /// exit and at a context's destruction: the records get the passes they
  /// have, the other metrics not_evaluated).
  void closeRoundOf(HwContext &C, std::vector<LaunchRecord> &Done);
  /// Ends a round without values (after a failure): its records' groups
  /// missing, the kernel activity back to the concurrent kind.
  void abandonRound(HwContext &C);
  /// A round's steps, under C.M.
  std::string openRound(HwContext &C, CUcontext Ctx, uint32_t Corr,
                        std::vector<LaunchRecord> &Done);
  /// The two lists (made at first use): the own group, the rest.
  std::string passConfigs(HwContext &C);
  /// The rest of the metric set with the tensor types of \p Mask only
  /// (made at first use), into \p Cfg.
  std::string restConfig(HwContext &C, unsigned Mask, HwConfig *&Cfg);
  /// The tensor types the waiting records may have used: each record's
  /// known types, else every type its pipes did not show idle.
  unsigned roundTypeMask(const HwContext &C) const;
  std::string startPass(HwContext &C);
  void stopPass(HwContext &C, std::vector<LaunchRecord> &Done);
  void decodeRound(HwContext &C, std::vector<LaunchRecord> &Done);
  /// The finish note's text.
  std::string passNote();

  /// The finish note's numbers: rounds, passes run, ranges, record-passes
  /// without their launch, host time of the first Start of each round, of
  /// every other Start, of Stop and of decoding.
  std::atomic<uint64_t> PassRounds{0}, PassPassesRun{0}, PassRanges{0}, PassMissing{0};
  /// Launches in the range that got no record because the round was full.
  std::atomic<uint64_t> PassFullSkips{0};
  std::atomic<uint64_t> PassOpenNs{0}, PassStartNs{0}, PassStopNs{0}, PassDecodeNs{0};
  /// The most tensor types a round's list held; what the own list holds
  /// besides time, clocks, L2 and DRAM (the finish note).
  std::atomic<uint64_t> RoundTypesMax{0};
  /// 3: the pipes and HFMA2.MMA, 2: the same but dmma, 1: the pipes, 0: none
  std::atomic<int> OwnList{0};
  /// One round more (+1) or less (-1) under way in the process: the first
  /// switches the kernel activity to the serial kind, or off
  /// (HROOF_ROUND_ACTIVITY=off), the last back to the concurrent kind.
  void roundsOpen(int Delta);
  std::mutex ActivityM;  ///< the count and the kind switch together
  int RoundsOpen = 0;    ///< contexts with a round under way
  std::atomic<bool> ActivityOff{false}; ///< no kernel activity records now
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_REPLAY_PASSREPLAY_H
