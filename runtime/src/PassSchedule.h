//===- PassSchedule.h - pass replay: which launch runs which counter pass --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_REPLAY=passes (docs/runtime.md "Pass replay"). Application replay
// (ApplicationReplay.h) splits the metric set into one-pass groups and runs
// each on a range profiler object of its own, and a fresh object costs its
// first Start, about 155-190 ms on the H100 and H200, whatever it collects:
// in a PyTorch step that was 16 objects, about 2.8 s
// (docs/validation/sass-sessions-2026-11-27.md). Pass replay keeps ONE
// object per context for the whole metric set, in CUPTI's user replay with
// user ranges (H100, 2026-11-27, test/gpu/counters/pass_replay.cu,
// docs/validation/pass-replay-2026-11-27.md):
//  - pass p of a multi-pass config is whatever runs between the p-th Start
//    and Stop; a later pass's Start costs about 0.01 ms, a new round's first
//    Start on the same object about 20 ms;
//  - ranges are matched across passes by NAME, not by order, also when
//    pushed from another host thread;
//  - a range missing from a pass leaves that pass's metrics NaN for it and
//    spoils nothing else.
// So a round is: pass 0 records launches (a range named after each record
// around its launch; only launches with a record are in a range), and pass
// p = 1, 2, ... gives each record's range to a later launch of the same
// shape: the p-th repetition, in a training loop the next steps. All
// records of a round share each pass, so a pass ends when every record had
// its launch in it, or when it has seen many launches without (its missing
// ranges then read NaN). CUPTI says when every pass was submitted; then the
// round is decoded and each record gets its values.
//
// This class is the schedule alone (no CUDA, no CUPTI), unit-tested in
// test/unit/runtime/PassScheduleTest.cpp; PassReplayCounters.cpp runs it.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_PASSSCHEDULE_H
#define HROOF_RUNTIME_PASSSCHEDULE_H

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
  /// \p IdleLimit: launches in a row in pass 0 that start no record before
  /// pass 0 ends, at least, and at least as many as pass 0 saw before them:
  /// a range that matches every step (or none, no HROOF_RANGE) has no
  /// launch outside it to end pass 0, and a step may repeat its shapes for
  /// long (an LSTM's time steps) before a new one. \p Patience: launches a later pass waits for its records'
  /// shapes, at least, and at least twice the launches of pass 0.
  explicit PassSchedule(size_t Capacity = 128, size_t IdleLimit = 256, size_t Patience = 512)
      : Capacity(Capacity), IdleLimit(IdleLimit), Patience(Patience) {}

  struct Entry {
    std::string Shape;
    uint64_t Id = 0;   ///< the caller's id of the record (its ticket)
    size_t LastPass = 0; ///< the last pass that gave it a range
  };

  /// No round under way.
  bool idle() const { return Pass < 0; }
  /// The pass under way (0: recording), -1 when idle.
  int pass() const { return Pass; }
  /// Whether the current pass has been started (Start called, not Stop).
  bool started() const { return Started; }
  const std::vector<Entry> &entries() const { return Entries; }

  /// A launch arrives (\p InRange: HROOF_RANGE selects it). True when the
  /// open pass must be stopped before this launch: pass 0 ends at the first
  /// launch outside the range after it recorded something, or after a run
  /// of launches that recorded nothing (IdleLimit); a later pass when it
  /// has waited too long.
  bool endsPassBefore(bool InRange) {
    if (Pass < 0 || !Started)
      return false;
    if (Pass == 0) // idle: at least IdleLimit, and as long as all before
      return !Entries.empty() && (!InRange || Idle >= std::max(IdleLimit, Launches - Idle));
    size_t Wait = std::max(Patience, 2 * Pass0Launches);
    return Launches >= Wait;
  }

  /// Whether a record of this round has shape \p Shape.
  bool hasShape(const std::string &Shape) const {
    for (const Entry &E : Entries)
      if (E.Shape == Shape)
        return true;
    return false;
  }
  /// Pass 0 (or no round): whether a record can still join this round.
  bool canRecord() const { return Pass <= 0 && Entries.size() < Capacity; }
  /// Starts a round if none is under way (the caller starts pass 0).
  void beginRound() {
    if (Pass < 0) {
      Pass = 0;
      Entries.clear();
      Launches = Idle = Pass0Launches = 0;
    }
  }
  /// Pass 0: a record of \p Shape starts with this launch; its range name
  /// is rangeName(index).
  size_t record(const std::string &Shape, uint64_t Id) {
    Entries.push_back({Shape, Id, 0});
    Idle = 0;
    return Entries.size() - 1;
  }
  /// Counts a launch of the started pass (call for every launch seen while
  /// a pass is started; \p Recorded: it started a record).
  void launched(bool Recorded) {
    ++Launches;
    Idle = Recorded ? 0 : Idle + 1;
  }
  /// A later pass: the oldest record of \p Shape without a range in this
  /// pass gets this launch (its index), or none (-1).
  long takeSlot(const std::string &Shape) {
    if (Pass < 1 || !Started)
      return -1;
    for (size_t I = 0; I < Entries.size(); ++I)
      if (Entries[I].LastPass < size_t(Pass) && Entries[I].Shape == Shape) {
        Entries[I].LastPass = size_t(Pass);
        return long(I);
      }
    return -1;
  }
  /// A later pass in which every record had its range: stop it now.
  bool passComplete() const {
    if (Pass < 1 || !Started)
      return false;
    for (const Entry &E : Entries)
      if (E.LastPass < size_t(Pass))
        return false;
    return true;
  }
  /// The caller started the current pass.
  void passStarted() {
    Started = true;
    Launches = Idle = 0;
  }
  /// The caller stopped the current pass; \p AllSubmitted: CUPTI has every
  /// pass (then the caller decodes and calls roundDone), else the next pass
  /// is to be started.
  void passStopped(bool AllSubmitted) {
    Started = false;
    if (Pass == 0)
      Pass0Launches = Launches;
    Missing += Pass > 0 ? missingInPass() : 0;
    if (!AllSubmitted)
      ++Pass;
  }
  /// Records x passes that ran without their range so far in this round.
  size_t missing() const { return Missing; }
  void roundDone() {
    Pass = -1;
    Started = false;
    Entries.clear();
    Missing = 0;
  }
  static std::string rangeName(size_t Index) { return "r" + std::to_string(Index); }

private:
  size_t missingInPass() const {
    size_t N = 0;
    for (const Entry &E : Entries)
      N += E.LastPass < size_t(Pass);
    return N;
  }
  size_t Capacity, IdleLimit, Patience;
  int Pass = -1;
  bool Started = false;
  std::vector<Entry> Entries;
  size_t Launches = 0, Idle = 0, Pass0Launches = 0, Missing = 0;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_PASSSCHEDULE_H
