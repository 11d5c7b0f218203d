//===- PassReplayCounters.cpp - pass replay on the range profiler ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA side of HROOF_REPLAY=passes (PassSchedule.h has the schedule and
// the measurements behind it). Per context: one range profiler object with
// the whole metric set (every tensor type) in user replay with user ranges;
// a round's pass 0 pushes a range named after each new record around its
// launch, each later pass gives every record's range to a later launch of
// its shape; when CUPTI has every pass the round is decoded and each
// record's values go to ApplicationReplay, which holds the records until
// then (one "group": the whole list). A launch with a range keeps the
// context's lock from takePass (its role) to passExit (its pop), so no
// other launch runs inside the range and no pass ends under it.
//
// CUPTI's concurrent-kernel activity zeroes SASS-patched metrics in user
// replay; the serial kernel kind does not (H200 and H100, 2026-11-27:
// docs/validation/sass-sessions-2026-11-27.md, pass-replay-2026-11-27.md).
// While a round is under way the runtime's kernel activity is the serial
// kind: the durations keep coming, and kernels of different streams run
// one after another meanwhile.
//===----------------------------------------------------------------------===//
#include "Injection.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace hroof {
namespace rt {

namespace {

/// The lock (and the record's index) that takePass hands to passEnter on
/// the same thread: the launch callback's enter runs both in a row.
struct PassHold {
  std::unique_lock<std::mutex> Lock;
  long Entry = -1;
};
thread_local PassHold Held;

/// Records a round holds at most. The object's first Start costs more the
/// more ranges its image holds (H100: about 200 ms at 32, 780 ms at 512:
/// docs/validation/replay-cost-2026-11-27.md); one launch per shape and
/// step (--counters-per-shape 1) stays well below 128 in the PyTorch example.
size_t roundCapacity() { return rt().S.CountersPerShape > 0 ? 128 : 512; }

/// Pass 0 ends after this many launches in a row that recorded nothing (and
/// as many as it saw before them: PassSchedule::endsPassBefore); a later
/// pass waits this many launches (at least twice pass 0's) for its
/// records' shapes.
constexpr size_t IdleLimit = 256, Patience = 512;

void serialKernelActivity(bool Serial) {
  cuptiActivityDisable(Serial ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL : CUPTI_ACTIVITY_KIND_KERNEL);
  cuptiActivityEnable(Serial ? CUPTI_ACTIVITY_KIND_KERNEL : CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}

long entryOfRange(const std::string &Name) {
  if (Name.size() < 2 || Name[0] != 'r')
    return -1;
  char *End = nullptr;
  long I = strtol(Name.c_str() + 1, &End, 10);
  return End && !*End ? I : -1;
}

} // namespace

std::string HardwareCounters::openRound(HwContext &C) {
  uint64_t T0 = nowNs();
  if (!C.PassCfg) {
    if (std::string E = config(C, (1u << tensorTypeMetrics().size()) - 1, C.PassCfg); !E.empty())
      return E;
    C.ObjCfg = C.PassCfg;
    C.ObjPasses = C.PassCfg->Passes;
    C.Passes = PassSchedule(roundCapacity(), IdleLimit, Patience);
  }
  HwConfig &Cfg = *C.PassCfg;
  size_t Size = 0, Cap = roundCapacity();
  std::string E = C.Target.counterDataSize(Cfg.Names, Size, Cap);
  C.DataCfg = nullptr;
  if (E.empty()) {
    C.PassData.assign(Size, 0);
    E = C.Target.initCounterData(C.PassData);
  }
  if (E.empty())
    E = C.Target.setConfig(Cfg.Config, C.PassData, CUPTI_UserReplay, Cap, CUPTI_UserRange);
  if (!E.empty())
    return E;
  if (PassRoundsOpen++ == 0)
    serialKernelActivity(true);
  C.Passes.beginRound();
  C.PassTickets.clear();
  ++PassRounds;
  E = startPass(C);
  PassOpenNs += nowNs() - T0;
  return E;
}

std::string HardwareCounters::startPass(HwContext &C) {
  uint64_t T0 = nowNs();
  std::string E = C.Target.start();
  if (E.empty())
    C.Passes.passStarted();
  if (rt().S.Verbose >= 2)
    logLine("pass replay: pass %d started (%zu records)%s%s", C.Passes.pass(),
            C.Passes.entries().size(), E.empty() ? "" : ": ", E.c_str());
  if (C.Passes.pass() > 0)
    PassStartNs += nowNs() - T0;
  return E;
}

void HardwareCounters::stopPass(HwContext &C, std::vector<LaunchRecord> &Done) {
  uint64_t T0 = nowNs();
  bool All = false;
  std::string E = C.Target.stop(All);
  PassStopNs += nowNs() - T0;
  if (rt().S.Verbose >= 2)
    logLine("pass replay: pass %d stopped, all submitted %d%s%s", C.Passes.pass(), int(All),
            E.empty() ? "" : ": ", E.c_str());
  ++PassPassesRun;
  size_t Before = C.Passes.missing();
  C.Passes.passStopped(All || !E.empty());
  PassMissing += C.Passes.missing() - Before;
  if (!E.empty()) {
    C.Failed = true;
    off("pass replay: stopping a pass: " + E);
  }
  if (All || !E.empty())
    decodeRound(C, Done);
}

void HardwareCounters::decodeRound(HwContext &C, std::vector<LaunchRecord> &Done) {
  uint64_t T0 = nowNs();
  HwConfig &Cfg = *C.PassCfg;
  size_t Ranges = 0;
  std::string E = C.Failed ? "the range profiler failed" : C.Target.decode();
  if (E.empty())
    E = RangeProfilerTarget::rangeCount(C.PassData, Ranges);
  if (rt().S.Verbose >= 2)
    logLine("pass replay: round decoded, %zu ranges for %zu records%s%s", Ranges,
            C.PassTickets.size(), E.empty() ? "" : ": ", E.c_str());
  std::vector<bool> Delivered(C.PassTickets.size(), false);
  for (size_t R = 0; E.empty() && R < Ranges; ++R) {
    std::string Name;
    std::vector<double> V(Cfg.Names.size(), 0.0);
    if (!RangeProfilerTarget::rangeName(C.PassData, R, Name).empty())
      continue;
    long I = entryOfRange(Name);
    if (I < 0 || size_t(I) >= C.PassTickets.size() || !C.PassTickets[I] || Delivered[I] ||
        !Cfg.Host.evaluate(C.PassData, R, Cfg.Names, V).empty())
      continue;
    std::map<std::string, double> Values;
    std::string NotEvaluated;
    splitValues(Cfg.Metrics, V, Values, NotEvaluated);
    Delivered[I] = true;
    ++AppOnePass;
    if (std::optional<LaunchRecord> Rec = App.deliver(*C.PassTickets[I], std::move(Values),
                                                      NotEvaluated))
      Done.push_back(std::move(*Rec));
  }
  // A record whose range CUPTI did not keep: its launch is collected by no
  // later round (its pass 0 is gone); it stays incomplete, said at exit.
  for (size_t I = 0; I < C.PassTickets.size(); ++I)
    if (C.PassTickets[I] && !Delivered[I])
      App.failed(*C.PassTickets[I]);
  if (!E.empty()) {
    C.Failed = true;
    off("pass replay: decoding a round: " + E);
  }
  C.PassTickets.clear();
  C.Passes.roundDone();
  if (--PassRoundsOpen == 0)
    serialKernelActivity(false);
  PassDecodeNs += nowNs() - T0;
}

AppRole HardwareCounters::takePass(CUcontext Ctx, const std::string &Shape, bool InRange,
                                   const std::function<bool()> &Take, AppTicket &T) {
  HwContext &C = context(Ctx);
  if (Held.Lock.owns_lock()) // a role whose launch never entered: released
    Held.Lock.unlock();
  std::unique_lock<std::mutex> Lock(C.M);
  if (!Enabled || C.Failed)
    return AppRole::None;
  if (!C.Ready) {
    std::string E = setup(C, Ctx);
    if (!E.empty()) {
      C.Failed = true;
      off(E);
      return AppRole::None;
    }
  }
  std::vector<LaunchRecord> Done;
  PassSchedule &S = C.Passes;
  std::string E;
  // Pass 0 records what it can; a launch it cannot record may end it: one
  // outside HROOF_RANGE, or without a range one of a shape recorded already
  // (the program repeats: this launch can serve pass 1).
  bool Pass0 = S.pass() == 0 && S.started();
  bool TookRecord = Pass0 && InRange && S.canRecord() && Take();
  if (!TookRecord && (S.endsPassBefore(InRange) ||
                      (Pass0 && rt().S.Range.empty() && S.hasShape(Shape))))
    stopPass(C, Done);
  if (!C.Failed && !S.idle() && !S.started())
    E = startPass(C);
  AppRole Role = AppRole::None;
  long Entry = -1;
  if (TookRecord) {
    Role = AppRole::Record;
  } else if (E.empty() && !C.Failed && S.pass() >= 1) {
    Entry = S.takeSlot(Shape);
    if (Entry >= 0 && C.PassTickets[Entry]) {
      T = *C.PassTickets[Entry];
      Role = InRange ? AppRole::Replay : AppRole::ReplayOnly;
    }
  } else if (E.empty() && !C.Failed && S.idle() && InRange && Take()) {
    E = openRound(C);
    if (E.empty())
      Role = AppRole::Record;
  }
  if (!E.empty()) {
    C.Failed = true;
    off("pass replay: " + E);
    Role = AppRole::None;
  }
  if (S.started())
    S.launched(Role == AppRole::Record);
  if (Role != AppRole::None) {
    Held.Lock = std::move(Lock);
    Held.Entry = Entry;
  } else {
    Lock.unlock();
  }
  writeCompletedRecords(Done);
  return Role;
}

bool HardwareCounters::passEnter(InFlight &IF) {
  std::unique_lock<std::mutex> Lock = std::move(Held.Lock);
  long I = Held.Entry;
  Held.Entry = -1;
  HwContext &C = context(IF.Ctx);
  if (!Lock.owns_lock() || Lock.mutex() != &C.M || !Enabled || C.Failed)
    return false;
  IF.R.HwTried = true;
  if (IF.AppNewRecord) {
    // One "group": the whole list, every pass of it from this round. The
    // record keeps the metrics kernel mode would choose for the kernel.
    // typeMask first: it sets what kernelTypes reads (learning or known).
    unsigned All = (1u << tensorTypeMetrics().size()) - 1, Mask = typeMask(IF, C);
    IF.App = App.startRecord(IF.AppShape, IF.R.Correlation, All, {C.PassCfg->Metrics},
                             kernelTypes(IF, C), listOfMask(C.Metrics, Mask));
    I = long(C.Passes.record(IF.AppShape, IF.R.Correlation));
    C.PassTickets.push_back(IF.App);
  }
  std::string E;
  if (rt().S.FlushL2)
    E = flushLocked(IF, C);
  if (E.empty())
    E = C.Target.pushRange(PassSchedule::rangeName(size_t(I)).c_str());
  if (rt().S.Verbose >= 2)
    logLine("pass replay: launch %u in range r%ld of pass %d%s%s", IF.R.Correlation, I,
            C.Passes.pass(), E.empty() ? "" : ": ", E.c_str());
  if (!E.empty()) {
    IF.R.HwProblem = E;
    C.Failed = true;
    off("pass replay: " + E);
    return false;
  }
  IF.PassEntry = I;
  IF.Hw = &C;
  IF.HwCfg = C.PassCfg;
  IF.HwPasses = C.PassCfg->Passes;
  IF.Device = C.Device;
  IF.HwLock = std::move(Lock);
  return true;
}

void HardwareCounters::passExit(InFlight &IF, CUresult LaunchResult) {
  HwContext &C = *IF.Hw;
  IF.Hw = nullptr;
  IF.HwCfg = nullptr;
  long I = IF.PassEntry;
  std::string E = C.Target.popRange();
  ++PassRanges;
  if (LaunchResult != CUDA_SUCCESS) {
    IF.R.HwProblem = "the launch failed";
    if (IF.AppNewRecord && size_t(I) < C.PassTickets.size() && C.PassTickets[I]) {
      App.failed(*C.PassTickets[I]); // no kernel ran: the record is dropped
      C.PassTickets[I].reset();
    }
  } else if (!IF.AppNewRecord) {
    IF.R.HwProblem = "pass replay: this launch ran counter pass " +
                     std::to_string(C.Passes.pass() + 1) + " for launch " +
                     std::to_string(IF.App ? IF.App->Record : 0);
  }
  std::vector<LaunchRecord> Done;
  if (!E.empty()) {
    C.Failed = true;
    off("pass replay: " + E);
  } else if (C.Passes.passComplete()) {
    stopPass(C, Done);
  }
  IF.HwLock.unlock();
  writeCompletedRecords(Done);
}

void HardwareCounters::closeRoundOf(HwContext &C, std::vector<LaunchRecord> &Done) {
  PassSchedule &S = C.Passes;
  // The passes the program did not run, run empty: CUPTI decodes only a
  // round with every pass, and a missing range only blanks its pass.
  for (int Guard = 0; !S.idle() && !C.Failed && Guard < 64; ++Guard) {
    if (!S.started() && !startPass(C).empty())
      break;
    stopPass(C, Done);
  }
  if (!S.idle()) { // failed on the way
    for (auto &T : C.PassTickets)
      if (T)
        App.failed(*T);
    C.PassTickets.clear();
    S.roundDone();
    if (--PassRoundsOpen == 0)
      serialKernelActivity(false);
  }
}

void HardwareCounters::closeRounds() {
  std::vector<HwContext *> All;
  {
    std::lock_guard<std::mutex> L(M);
    for (auto &[Ctx, C] : Ctxs)
      All.push_back(C.get());
  }
  std::vector<LaunchRecord> Done;
  for (HwContext *C : All) {
    std::unique_lock<std::mutex> L(C->M, std::try_to_lock);
    if (L.owns_lock())
      closeRoundOf(*C, Done);
  }
  writeCompletedRecords(Done);
}

std::string passReplayNote(HardwareCounters &H) {
  auto U = [](uint64_t V) { return (unsigned long long)V; };
  auto Ms = [](uint64_t Ns, uint64_t N) { return N ? double(Ns) / 1e6 / double(N) : 0.0; };
  uint64_t Rounds = H.PassRounds, Passes = H.PassPassesRun;
  char Buf[768];
  snprintf(Buf, sizeof Buf,
           "pass replay: %llu round(s), %llu pass(es) run, %llu ranges, %llu record-pass(es) "
           "whose shape did not come back within the pass (those metrics not_evaluated); host "
           "time: %.2f ms to open a round (its first Start), %.2f ms a later Start, %.2f ms a "
           "Stop, %.2f ms to decode and deliver a round",
           U(Rounds), U(Passes), U(H.PassRanges.load()), U(H.PassMissing.load()),
           Ms(H.PassOpenNs, Rounds), Ms(H.PassStartNs, Passes > Rounds ? Passes - Rounds : 0),
           Ms(H.PassStopNs, Passes), Ms(H.PassDecodeNs, Rounds));
  ApplicationReplay::Stats S = H.App.stats();
  snprintf(Buf + strlen(Buf), sizeof Buf - strlen(Buf),
           "; %llu records started, %llu completed, %llu completed with metrics not evaluated",
           U(S.Records), U(S.Completed), U(S.NotEvaluated));
  return Buf;
}

} // namespace rt
} // namespace hroof
