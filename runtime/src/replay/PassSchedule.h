//===- PassSchedule.h - pass replay: which launch runs which counter pass --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_REPLAY=passes (docs/runtime.md "Pass replay"). Application replay
// (ApplicationReplay.h) splits the metric set into one-pass groups and runs
// each on a range profiler object of its own, and a fresh object costs its
// first Start, far more than a later Start on the same object, whatever it
// collects. Pass replay keeps ONE object per context for the whole metric
// set, in CUPTI's user replay with user ranges
// (test/gpu/counters/pass_replay.cu), and relies on:
//  - pass p of a multi-pass config is whatever runs between the p-th Start
//    and Stop; a later pass's Start, and a new round's first Start on the
//    same object, cost a small fraction of a fresh object's first Start;
//  - ranges are matched across passes by NAME, not by order, also when
//    pushed from another host thread;
//  - a range missing from a pass leaves that pass's metrics NaN for it and
//    spoils nothing else.
// But a user range also counts work of its own: against kernel replay it
// inflates the L2 bytes of short kernels and the duration, while auto
// ranges (application replay's batched sessions) are tight (measured:
// docs/validation/deep-learning.md, "range-profiler costs and SASS metrics
// in user-replay sessions" and "pass replay"). So a record's own launch
// collects the one-pass group of the duration, clocks, L2 and DRAM in a
// batched session (GroupSession.cpp), and the rest of the metric set (SASS,
// tensor pipes and types, L1 and shared memory) comes from a round of pass
// replay: records wait for the round (pending), which starts at the first
// launch outside HROOF_RANGE; pass p = 0, 1, ... gives each record's range
// (named after the record) to the next launch of its shape, in a training
// loop the next steps. All records of a round share each pass, so a pass
// ends when every record had its launch in it, or when it has seen many
// launches without (those ranges read NaN). CUPTI says when every pass was
// submitted; then the round is decoded and each record gets its values.
//
// This class is the schedule alone (no CUDA, no CUPTI), unit-tested in
// test/unit/runtime/PassScheduleTest.cpp; PassReplayCounters.cpp runs it.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_PASSSCHEDULE_H
#define HROOF_RUNTIME_PASSSCHEDULE_H

#include "launches/WorkKey.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

class PassSchedule {
public:
  /// \p Capacity: records a round holds at most (its counter-data image;
  /// the first Start of the object costs more the more ranges it holds).
  /// \p IdleLimit: with records waiting and no launch outside the range to
  /// start their round, launches in a row that add no record before the
  /// round starts, at least, and at least as many as came before them: a
  /// range that matches every step (or none, no HROOF_RANGE) never ends,
  /// and a step may repeat its shapes for long (an LSTM's time steps)
  /// before a new one. \p Patience: launches a pass waits for its records'
  /// shapes, at least, and at least 1.25 times a step's launches.
  explicit PassSchedule(size_t Capacity = 128, size_t IdleLimit = 256, size_t Patience = 512)
      : Capacity(Capacity), IdleLimit(IdleLimit), Patience(Patience) {}

  struct Entry {
    std::string Shape; ///< the record's work key (launches/WorkKey.h)
    uint64_t Id = 0;   ///< the caller's id of the record (its range is rangeName(Id))
    int LastPass = -1; ///< the last pass that gave it a range
    /// Passes (bit p) whose range went to a launch of the same launch shape
    /// but other parameter bytes (takeSlot): the record's counters of those
    /// passes are estimates.
    uint64_t ShapeMatched = 0;
    /// A launch of its own work key served it in some pass.
    bool KeyCame = false;
  };

  /// No round under way.
  bool idle() const { return Pass < 0; }
  /// The pass under way, -1 when idle.
  int pass() const { return Pass; }
  /// Whether the current pass has been started (Start called, not Stop).
  bool started() const { return Started; }
  /// The records of the round under way.
  const std::vector<Entry> &entries() const { return Entries; }
  /// Records waiting for the next round.
  const std::vector<Entry> &pending() const { return Pending; }

  /// Whether a record can still wait for the next round.
  bool canRecord() const { return Pending.size() < Capacity; }
  /// A record of \p Shape waits for the next round.
  void record(const std::string &Shape, uint64_t Id) {
    Pending.push_back({Shape, Id, -1});
    Idle = 0;
  }
  bool pendingShape(const std::string &Shape) const {
    for (const Entry &E : Pending)
      if (E.Shape == Shape)
        return true;
    return false;
  }
  /// A launch arrives while no round is under way (\p InRange: HROOF_RANGE
  /// selects it; \p NoRange: there is no HROOF_RANGE; \p Recorded: it
  /// started a record). True when the waiting records' round is to start at
  /// this launch: the first launch outside the range, or without a range
  /// one of a shape waiting that started no record (the program repeats),
  /// or after an idle run (IdleLimit).
  bool startsRound(bool InRange, bool NoRange, bool Recorded, const std::string &Shape) {
    if (Pass >= 0 || Pending.empty())
      return false;
    ++Seen;
    Idle = Recorded ? 0 : Idle + 1;
    if (Recorded)
      return false;
    return !InRange || (NoRange && pendingShape(Shape)) ||
           Idle >= std::max(IdleLimit, Seen - Idle);
  }
  /// Starts a round with the waiting records (the caller starts pass 0).
  void beginRound() {
    Pass = 0;
    Started = false;
    Entries = std::move(Pending);
    Pending.clear();
    StepLaunches = Seen; // the launches while they waited: about a step
    Launches = Pass0Launches = Seen = Idle = 0;
    Pass0Complete = false;
  }
  /// True when the started pass has waited too long for its records' shapes
  /// and is to be stopped before this launch: Patience launches, and at
  /// least 1.25 times as many as came while the records waited (about a
  /// step) or as a complete pass 0 saw: a step of thousands of launches
  /// spreads its records over all of them, and the step after it brings
  /// each record's launch back within one step. Waiting longer costs a
  /// step of the program per pass whenever a record's launch never comes,
  /// and a round needs one step per pass (8 on GH100) to end before the
  /// program does.
  bool endsPassBefore() const {
    // Pass 0's own length only when it was complete: a pass 0 that ran to
    // its patience would stretch every later pass.
    size_t Step = Pass0Complete ? std::max(StepLaunches, Pass0Launches) : StepLaunches;
    return Pass >= 0 && Started && Launches >= std::max(Patience, Step + Step / 4);
  }
  /// Counts a launch of the started pass.
  void launched() { Launches += Started; }
  /// Launches the started (or just stopped) pass has seen.
  size_t passLaunches() const { return Launches; }
  /// The oldest record of work key \p Key without a range in the started
  /// pass gets this launch (its index in entries()), or none (-1). A launch
  /// whose key is no record's (kernels that pass host pointers, random-number
  /// offsets or uninitialized padding by value never repeat their bytes)
  /// may serve the oldest record of its launch shape instead, and that pass
  /// of the record is marked (Entry::ShapeMatched). A persistent GEMM kernel
  /// keeps its shape across problem sizes, and each size's own launches
  /// come back: so a launch of a record's key never serves a record whose
  /// own key came back; from pass 1 on, one that has served all its records
  /// in this pass may serve a record of its shape whose key never came
  /// back (in pass 0 that is not known yet). A launch of a key no record
  /// has may serve any record of its shape: a word that looks like a host
  /// address in one step (a random-number offset inside the heap's range)
  /// may not in the next, so a record's own key can stop coming.
  long takeSlot(const std::string &Key) {
    if (Pass < 0 || !Started)
      return -1;
    bool Known = false;
    for (size_t I = 0; I < Entries.size(); ++I) {
      if (Entries[I].Shape != Key)
        continue;
      Known = true;
      if (Entries[I].LastPass < Pass) {
        Entries[I].LastPass = Pass;
        Entries[I].KeyCame = true;
        return long(I);
      }
    }
    if (Known && Pass == 0)
      return -1;
    // Records the pass waits for (served in an earlier pass) first: given
    // to a record never served, the launch would leave one the pass waits
    // for without its launch until the patience runs out.
    std::string Shape = workKeyShape(Key);
    for (bool Waited : {true, false})
      for (size_t I = 0; I < Entries.size(); ++I) {
        Entry &E = Entries[I];
        if (E.LastPass >= Pass || (Known && E.KeyCame) || (Waited && E.LastPass < 0) ||
            workKeyShape(E.Shape) != Shape)
          continue;
        E.LastPass = Pass;
        if (Pass < 64)
          E.ShapeMatched |= uint64_t(1) << Pass;
        return long(I);
      }
    return -1;
  }
  /// Every record had its range in the started pass: stop it now. From
  /// pass 1 on, a record that no launch served in any earlier pass is not
  /// waited for: its launch does not come back (a work key that never
  /// repeats, of a shape no other launch serves), and waiting for it until
  /// the patience runs out would spend two steps of the loop on every pass.
  bool passComplete() const {
    if (Pass < 0 || !Started)
      return false;
    for (const Entry &E : Entries)
      if (E.LastPass < Pass && (Pass == 0 || E.LastPass >= 0))
        return false;
    return true;
  }
  /// The caller started the current pass.
  void passStarted() {
    Started = true;
    Launches = 0;
  }
  /// The caller stopped the current pass; \p AllSubmitted: CUPTI has every
  /// pass (then the caller decodes and calls roundDone), else the next pass
  /// is to be started.
  void passStopped(bool AllSubmitted) {
    if (Pass == 0) {
      Pass0Launches = Launches;
      Pass0Complete = passComplete();
    }
    Started = false;
    for (const Entry &E : Entries)
      Missing += E.LastPass < Pass;
    if (!AllSubmitted)
      ++Pass;
  }
  /// Records x passes that ran without their range so far in this round.
  size_t missing() const { return Missing; }
  void roundDone() {
    Pass = -1;
    Started = false;
    Entries.clear();
    Missing = StepLaunches = 0;
  }
  static std::string rangeName(uint64_t Id) { return "r" + std::to_string(Id); }

private:
  size_t Capacity, IdleLimit, Patience;
  int Pass = -1;
  bool Started = false;
  std::vector<Entry> Entries, Pending;
  size_t Launches = 0, Pass0Launches = 0, Missing = 0, Seen = 0, Idle = 0, StepLaunches = 0;
  bool Pass0Complete = false;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_PASSSCHEDULE_H
