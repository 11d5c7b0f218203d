//===- PassReplayCounters.cpp - pass replay on the range profiler ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA side of HROOF_REPLAY=passes (PassSchedule.h has the schedule and
// the measurements behind it). Per context, two lists of the metric set
// (every tensor type): the record's own group (time, clocks, L2, DRAM), one
// pass, collected on the recorded launch itself in a batched session of
// auto ranges (GroupSession.cpp), and the rest, collected by rounds of pass
// replay on one range profiler object in user replay with user ranges: a
// round's pass p gives each record's range (named after the record) to the
// next launch of its shape; when CUPTI has every pass the round is decoded
// and each record's values go to ApplicationReplay, which holds the records
// until both groups are in. A launch with a pass range keeps the context's
// lock from admit (its role) to passExit (its pop), so no other launch
// runs inside the range and no pass ends under it.
//
// CUPTI's concurrent-kernel activity zeroes SASS-patched metrics in user
// replay; the serial kernel kind does not (measured:
// docs/validation/deep-learning.md, "range-profiler costs and SASS metrics
// in user-replay sessions" and "pass replay").
// While a round is under way the runtime's kernel activity is the serial
// kind: the durations keep coming, and kernels of different streams run
// one after another meanwhile.
//===----------------------------------------------------------------------===//
#include "replay/PassReplay.h"
#include "replay/HardwareCounters.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace hroof {
namespace rt {

namespace {

/// The lock (and the record's index) that admit hands to passEnter on
/// the same thread: the launch callback's enter runs both in a row.
struct PassHold {
  std::unique_lock<std::mutex> Lock;
  long Entry = -1;
};
thread_local PassHold Held;

/// counters_estimated of a record whose passes (bits of \p Mask, of
/// \p Passes) ran on launches of its shape with other parameter bytes.
std::string shapeMatchedNote(uint64_t Mask, int Passes) {
  std::string List;
  for (int P = 0; P < 64; ++P)
    if (Mask >> P & 1)
      List += (List.empty() ? "" : ", ") + std::to_string(P + 1);
  return "counter pass(es) " + List + " of " + std::to_string(Passes) +
         " came from later launches of the same kernel and launch shape whose by-value "
         "parameter bytes differ from this launch's (no launch of equal bytes came)";
}

/// Records a round holds at most: one range each per pass in the
/// counter-data image, whose size the round's first Start pays for
/// (measured: docs/validation/deep-learning.md, "what a counter range
/// costs; application replay in batched sessions"). A training step of a
/// transformer has over 128 work keys, so 256 with a per-shape limit.
size_t roundCapacity(int64_t CountersPerShape) { return CountersPerShape > 0 ? 256 : 512; }

/// Pass 0 ends after this many launches in a row that recorded nothing (and
/// as many as it saw before them: PassSchedule::endsPassBefore); a later
/// pass waits this many launches (at least twice pass 0's) for its
/// records' shapes.
constexpr size_t IdleLimit = 256, Patience = 128;

long entryOfRange(const std::string &Name) {
  if (Name.size() < 2 || Name[0] != 'r')
    return -1;
  char *End = nullptr;
  long I = strtol(Name.c_str() + 1, &End, 10);
  return End && !*End ? I : -1;
}

} // namespace

void PassReplay::roundsOpen(int Delta) {
  std::lock_guard<std::mutex> L(ActivityM);
  int Before = RoundsOpen;
  RoundsOpen += Delta;
  if (Before == 0 && Delta > 0) {
    // SASS metrics read 0 beside concurrent-kernel records; serial records
    // serialize the program's kernels, no records leave them as they are.
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (H.Host->S.RoundActivityOff)
      ActivityOff = true;
    else
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL);
  } else if (RoundsOpen == 0 && Before > 0) {
    if (!ActivityOff)
      cuptiActivityDisable(CUPTI_ACTIVITY_KIND_KERNEL);
    ActivityOff = false;
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  }
}

void PassReplay::launchNeedsTime() {
  if (!ActivityOff.load(std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> L(ActivityM);
  if (ActivityOff && RoundsOpen > 0) {
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL);
    ActivityOff = false;
  }
}

/// Whether \p M belongs to a record's own group: what a user range inflates
/// (its own work: time, L2 and DRAM traffic) and the clock rates.
static bool ownGroupMetric(const std::string &M) {
  return M.rfind("gpu__", 0) == 0 || M.rfind("lts__", 0) == 0 || M.rfind("dram__", 0) == 0 ||
         M.find("cycles_elapsed") != std::string::npos;
}

std::string PassReplay::passConfigs(HwContext &C) {
  if (C.Pass.FullCfg)
    return "";
  uint64_t T0 = nowNs();
  unsigned All = (1u << tensorTypeMetrics().size()) - 1;
  std::vector<std::string> Own;
  for (const std::string &M : listOfMask(C.Metrics, All))
    if (ownGroupMetric(M))
      Own.push_back(M);
  // With the tensor pipes (and HFMA2.MMA, which the hmma pipe's count
  // includes in kernels without tensor code) where they fit in the same
  // pass: a record's pipes then tell, before its round, the tensor types it
  // did not use, and the round leaves their passes out (roundTypeMask).
  // The lists tried: with the pipes and HFMA2.MMA; the same without the
  // dmma pipe (it only tells fp64, rare in training, from the rest); with
  // the pipes; without any.
  std::vector<std::string> WithPipes = Own;
  const std::vector<std::string> &Pipes = tensorPipeMetrics();
  for (const std::string &M : listOfMask(C.Metrics, All))
    if (std::find(Pipes.begin(), Pipes.end(), M) != Pipes.end())
      WithPipes.push_back(M);
  std::vector<std::vector<std::string>> Tries;
  if (WithPipes.size() == Own.size() + Pipes.size()) {
    Tries.push_back(WithPipes);
    Tries.back().push_back(hfma2PipeMetric());
    Tries.push_back(Tries.back());
    auto &NoDmma = Tries.back();
    NoDmma.erase(std::remove_if(NoDmma.begin(), NoDmma.end(),
                                [](const std::string &M) {
                                  return M.find("pipe_tensor_op_dmma") != std::string::npos;
                                }),
                 NoDmma.end());
    Tries.push_back(WithPipes);
  }
  Tries.push_back(Own);
  std::unique_ptr<HwConfig> O;
  for (const std::vector<std::string> &List : Tries) {
    O.reset();
    std::string E = H.makeConfig(C, List, O);
    if (E.empty() && O && O->Passes == 1)
      break;
    if (&List == &Tries.back())
      return !E.empty() ? E
                        : "pass replay: the list of time, clocks, L2 and DRAM needs " +
                              std::to_string(O ? O->Passes : 0) + " passes, not 1";
  }
  C.Pass.PipesInOwn = O->Metrics.size() > Own.size();
  bool Hfma2 = std::find(O->Metrics.begin(), O->Metrics.end(), hfma2PipeMetric()) !=
               O->Metrics.end();
  OwnList = !Hfma2 ? (C.Pass.PipesInOwn ? 1 : 0)
            : O->Metrics.size() == Own.size() + Pipes.size() + 1 ? 3 : 2;
  C.Pass.OwnCfg = O.get();
  C.Pass.Configs.push_back(std::move(O));
  if (std::string E = restConfig(C, All, C.Pass.FullCfg); !E.empty())
    return E;
  C.Pass.Cfg = C.Pass.FullCfg;
  C.Pass.Schedule = PassSchedule(roundCapacity(H.Host->S.CountersPerShape), IdleLimit, Patience);
  if (H.Host->S.Verbose >= 2)
    logLine("pass replay: the lists made in %.2f ms (own list: %zu metrics)",
            double(nowNs() - T0) / 1e6, C.Pass.OwnCfg->Metrics.size());
  return "";
}

std::string PassReplay::restConfig(HwContext &C, unsigned Mask, HwConfig *&Cfg) {
  if (auto It = C.Pass.CfgOfMask.find(Mask); It != C.Pass.CfgOfMask.end()) {
    Cfg = It->second;
    return "";
  }
  const std::vector<std::string> &Own = C.Pass.OwnCfg->Metrics;
  std::vector<std::string> Rest;
  for (const std::string &M : listOfMask(C.Metrics, Mask))
    if (std::find(Own.begin(), Own.end(), M) == Own.end())
      Rest.push_back(M);
  std::unique_ptr<HwConfig> R;
  std::string E = H.makeConfig(C, Rest, R);
  if (!E.empty())
    return E;
  Cfg = C.Pass.CfgOfMask[Mask] = R.get();
  C.Pass.Configs.push_back(std::move(R));
  return "";
}

unsigned PassReplay::roundTypeMask(const HwContext &C) const {
  unsigned All = (1u << tensorTypeMetrics().size()) - 1, Mask = 0;
  for (const PassSchedule::Entry &En : C.Pass.Schedule.pending()) {
    auto It = C.Pass.TypeMask.find(En.Id);
    unsigned M = It == C.Pass.TypeMask.end() ? All : It->second;
    if (M == All && C.Pass.PipesInOwn)
      if (std::optional<std::vector<std::string>> Idle = App.idleTypes(uint32_t(En.Id)))
        for (size_t I = 0; I < tensorTypeMetrics().size(); ++I)
          if (std::find(Idle->begin(), Idle->end(), tensorTypeMetrics()[I]) != Idle->end())
            M &= ~(1u << I);
    Mask |= M;
  }
  return Mask;
}

std::string PassReplay::groupConfig(CounterLaunch &IF, HwContext &C, HwConfig *&Cfg) {
  if (!IF.AppNewRecord) // never so: a pass round's launch enters passEnter
    return SessionReplay::groupConfig(IF, C, Cfg);
  if (std::string E = passConfigs(C); !E.empty())
    return E;
  // typeMask first: it sets what kernelTypes reads (learning or known).
  unsigned All = (1u << tensorTypeMetrics().size()) - 1, Mask = H.typeMask(IF, C);
  IF.App = App.startRecord(IF.AppShape, IF.R.Correlation, All,
                           {C.Pass.OwnCfg->Metrics, C.Pass.FullCfg->Metrics},
                           H.kernelTypes(IF, C), listOfMask(C.Metrics, Mask));
  C.Pass.TypeMask[IF.R.Correlation] = Mask;
  AppTicket Rest = *IF.App;
  Rest.Group = 1;
  Rest.NewRecord = false;
  C.Pass.Tickets[IF.R.Correlation] = Rest;
  C.Pass.Schedule.record(IF.AppShape, IF.R.Correlation);
  Cfg = C.Pass.OwnCfg;
  return "";
}

std::string PassReplay::openRound(HwContext &C, CUcontext Ctx, uint32_t Corr,
                                        std::vector<LaunchRecord> &Done) {
  uint64_t T0 = nowNs();
  // The records' own groups, on the object about to go; this launch, listed
  // by the session's launch hook, runs after it.
  C.Sessions.Session.forget(Corr);
  closeSessionOf(C);
  for (LaunchRecord &R : C.Sessions.Session.Completed)
    Done.push_back(std::move(R));
  C.Sessions.Session.Completed.clear();
  // The round's list: only the tensor types its records may have used.
  unsigned Mask = roundTypeMask(C);
  for (uint64_t N = uint64_t(__builtin_popcount(Mask)), Was = RoundTypesMax.load();
       N > Was && !RoundTypesMax.compare_exchange_weak(Was, N);)
    ;
  std::string E = restConfig(C, Mask, C.Pass.Cfg);
  if (E.empty() && H.Host->S.Verbose >= 1)
    logLine("pass replay: a round of %zu records, %zu of %zu tensor types, %zu passes",
            C.Pass.Schedule.pending().size(), size_t(__builtin_popcount(Mask)),
            tensorTypeMetrics().size(), C.Pass.Cfg->Passes);
  if (E.empty() && C.ObjCfg && C.ObjCfg != C.Pass.Cfg) {
    uint64_t Ns = 0;
    E = H.recreate(C, Ctx, Ns);
    ++AppSwitches;
  }
  HwConfig &Cfg = *C.Pass.Cfg;
  // The image holds one range per record of the round (no record joins a
  // round under way): its first Start costs more the more ranges it holds.
  size_t Size = 0, Cap = std::max<size_t>(1, C.Pass.Schedule.pending().size());
  if (E.empty())
    E = C.Target.counterDataSize(Cfg.Names, Size, Cap);
  C.DataCfg = nullptr;
  if (E.empty()) {
    C.Pass.Data.assign(Size, 0);
    E = C.Target.initCounterData(C.Pass.Data);
  }
  if (E.empty())
    E = C.Target.setConfig(Cfg.Config, C.Pass.Data, CUPTI_UserReplay, Cap, CUPTI_UserRange);
  if (!E.empty())
    return E;
  C.ObjCfg = C.Pass.Cfg;
  C.ObjPasses = Cfg.Passes;
  roundsOpen(+1);
  C.Pass.Schedule.beginRound();
  ++PassRounds;
  E = startPass(C);
  PassOpenNs += nowNs() - T0;
  if (H.Host->S.Verbose >= 2)
    logLine("pass replay: round opened in %.2f ms", double(nowNs() - T0) / 1e6);
  return E;
}

std::string PassReplay::startPass(HwContext &C) {
  uint64_t T0 = nowNs();
  std::string E = C.Target.start();
  if (E.empty())
    C.Pass.Schedule.passStarted();
  if (H.Host->S.Verbose >= 2)
    logLine("pass replay: pass %d started (%zu records)%s%s", C.Pass.Schedule.pass(),
            C.Pass.Schedule.entries().size(), E.empty() ? "" : ": ", E.c_str());
  if (C.Pass.Schedule.pass() > 0)
    PassStartNs += nowNs() - T0;
  return E;
}

void PassReplay::stopPass(HwContext &C, std::vector<LaunchRecord> &Done) {
  uint64_t T0 = nowNs();
  bool All = false;
  std::string E = C.Target.stop(All);
  PassStopNs += nowNs() - T0;
  if (H.Host->S.Verbose >= 2) {
    logLine("pass replay: pass %d stopped after %zu launches, all submitted %d%s%s",
            C.Pass.Schedule.pass(), C.Pass.Schedule.passLaunches(), int(All), E.empty() ? "" : ": ", E.c_str());
    // The records this pass did not serve: why a pass ran to its patience.
    size_t Shown = 0;
    for (const PassSchedule::Entry &En : C.Pass.Schedule.entries())
      if (En.LastPass < C.Pass.Schedule.pass() && Shown++ < 8)
        logLine("pass replay:   no launch for record r%llu (last pass %d): %s",
                (unsigned long long)En.Id, En.LastPass, En.Shape.c_str());
  }
  ++PassPassesRun;
  size_t Before = C.Pass.Schedule.missing();
  C.Pass.Schedule.passStopped(All || !E.empty());
  PassMissing += C.Pass.Schedule.missing() - Before;
  if (!E.empty()) {
    C.Failed = true;
    H.off("pass replay: stopping a pass: " + E);
  }
  if (All || !E.empty())
    decodeRound(C, Done);
}

void PassReplay::decodeRound(HwContext &C, std::vector<LaunchRecord> &Done) {
  uint64_t T0 = nowNs();
  HwConfig &Cfg = *C.Pass.Cfg;
  size_t Ranges = 0;
  std::string E = C.Failed ? "the range profiler failed" : C.Target.decode();
  if (E.empty())
    E = RangeProfilerTarget::rangeCount(C.Pass.Data, Ranges);
  if (H.Host->S.Verbose >= 2)
    logLine("pass replay: round decoded, %zu ranges for %zu records%s%s", Ranges,
            C.Pass.Tickets.size(), E.empty() ? "" : ": ", E.c_str());
  std::set<uint64_t> Delivered;
  std::map<uint64_t, uint64_t> ShapeMatched; // record id -> passes from other bytes
  for (const PassSchedule::Entry &En : C.Pass.Schedule.entries())
    if (En.ShapeMatched)
      ShapeMatched[En.Id] = En.ShapeMatched;
  for (size_t R = 0; E.empty() && R < Ranges; ++R) {
    std::string Name;
    std::vector<double> V(Cfg.Names.size(), 0.0);
    if (!RangeProfilerTarget::rangeName(C.Pass.Data, R, Name).empty())
      continue;
    long Id = entryOfRange(Name);
    auto It = Id < 0 ? C.Pass.Tickets.end() : C.Pass.Tickets.find(uint64_t(Id));
    if (It == C.Pass.Tickets.end() || C.Pass.Spoiled.count(It->first) ||
        !Cfg.Host.evaluate(C.Pass.Data, R, Cfg.Names, V).empty())
      continue;
    std::map<std::string, double> Values;
    std::string NotEvaluated;
    splitValues(Cfg.Metrics, V, Values, NotEvaluated);
    Delivered.insert(It->first);
    ++AppOnePass;
    if (std::optional<LaunchRecord> Rec = App.deliver(It->second, std::move(Values), NotEvaluated)) {
      if (auto M = ShapeMatched.find(It->first); M != ShapeMatched.end())
        Rec->CountersEstimated = shapeMatchedNote(M->second, C.Pass.Schedule.pass() + 1);
      Done.push_back(std::move(*Rec));
    }
  }
  // A record of the round without values (its range spoiled by a failed
  // launch, or not kept): its group is missing again; at exit the record is
  // written with counters_incomplete.
  for (const PassSchedule::Entry &En : C.Pass.Schedule.entries()) {
    auto It = C.Pass.Tickets.find(En.Id);
    if (It == C.Pass.Tickets.end())
      continue;
    if (!Delivered.count(En.Id))
      App.failed(It->second);
    C.Pass.TypeMask.erase(It->first);
    C.Pass.Tickets.erase(It);
    C.Pass.Spoiled.erase(En.Id);
  }
  if (!E.empty()) {
    C.Failed = true;
    H.off("pass replay: decoding a round: " + E);
  }
  C.Pass.Schedule.roundDone();
  roundsOpen(-1);
  PassDecodeNs += nowNs() - T0;
  if (H.Host->S.Verbose >= 2)
    logLine("pass replay: round delivered in %.2f ms", double(nowNs() - T0) / 1e6);
}

bool PassReplay::admit(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey,
                       uint32_t Corr, bool InRange, LaunchAdmission &A) {
  A.Shape = shapeKey(WorkKey, Ctx);
  A.Role = takePass(Ctx, A.Shape, InRange, [&] { return takeRecord(F, Ctx, A.Shape); },
                    A.Ticket, Corr);
  lendOrRemember(A, Corr, InRange, A);
  return A.Role != AppRole::None;
}

AppRole PassReplay::takePass(CUcontext Ctx, const std::string &Shape, bool InRange,
                             const std::function<bool()> &Take, AppTicket &T, uint32_t Corr) {
  HwContext &C = H.context(Ctx);
  if (Held.Lock.owns_lock()) // a role whose launch never entered: released
    Held.Lock.unlock();
  std::unique_lock<std::mutex> Lock(C.M);
  if (!H.Enabled || C.Failed) {
    abandonRound(C); // a round cut short: the kernel activity goes back
    return AppRole::None;
  }
  if (!C.Ready) {
    std::string E = H.setup(C, Ctx);
    if (!E.empty()) {
      C.Failed = true;
      H.off(E);
      return AppRole::None;
    }
  }
  std::vector<LaunchRecord> Done;
  PassSchedule &S = C.Pass.Schedule;
  std::string E;
  if (S.endsPassBefore()) // waited too long: its missing ranges read NaN
    stopPass(C, Done);
  if (!C.Failed && !S.idle() && !S.started())
    E = startPass(C);
  // A new record only between rounds: its own launch runs in a batched
  // session, on an object of another config than the round's.
  bool Full = E.empty() && !C.Failed && S.idle() && InRange && !S.canRecord();
  PassFullSkips += Full;
  bool TookRecord = E.empty() && !C.Failed && S.idle() && InRange && !Full && Take();
  if (E.empty() && !C.Failed && S.idle() && C.Pass.Cfg &&
      S.startsRound(InRange, H.Host->S.Range.empty(), TookRecord, Shape))
    E = openRound(C, Ctx, Corr, Done);
  AppRole Role = TookRecord ? AppRole::Record : AppRole::None;
  long Entry = -1;
  if (E.empty() && !C.Failed && !TookRecord && S.started()) {
    Entry = S.takeSlot(Shape);
    auto It = Entry < 0 ? C.Pass.Tickets.end() : C.Pass.Tickets.find(S.entries()[Entry].Id);
    if (It != C.Pass.Tickets.end()) {
      T = It->second;
      Role = InRange ? AppRole::Replay : AppRole::ReplayOnly;
    }
  }
  if (!E.empty()) {
    C.Failed = true;
    H.off("pass replay: " + E);
    Role = AppRole::None;
  }
  S.launched();
  if (Role == AppRole::Replay || Role == AppRole::ReplayOnly) {
    Held.Lock = std::move(Lock);
    Held.Entry = Entry;
  } else {
    Lock.unlock();
  }
  H.writeCompletedRecords(Done);
  return Role;
}

bool PassReplay::passEnter(CounterLaunch &IF) {
  std::unique_lock<std::mutex> Lock = std::move(Held.Lock);
  long I = Held.Entry;
  Held.Entry = -1;
  HwContext &C = H.context(IF.Ctx);
  if (!Lock.owns_lock() || Lock.mutex() != &C.M || !H.Enabled || C.Failed || I < 0 ||
      size_t(I) >= C.Pass.Schedule.entries().size())
    return false;
  IF.R.HwTried = true;
  std::string E;
  if (H.Host->S.FlushL2)
    E = H.flushLocked(IF, C);
  uint64_t Id = C.Pass.Schedule.entries()[I].Id;
  if (E.empty())
    E = C.Target.pushRange(PassSchedule::rangeName(Id).c_str());
  if (H.Host->S.Verbose >= 2)
    logLine("pass replay: launch %u in range r%llu of pass %d%s%s", IF.R.Correlation,
            (unsigned long long)Id, C.Pass.Schedule.pass(), E.empty() ? "" : ": ", E.c_str());
  if (!E.empty()) {
    IF.R.HwProblem = E;
    C.Failed = true;
    H.off("pass replay: " + E);
    return false;
  }
  IF.PassEntry = I;
  IF.Hw = &C;
  IF.HwCfg = C.Pass.Cfg;
  IF.HwPasses = C.Pass.Cfg->Passes;
  IF.Device = C.Device;
  IF.HwLock = std::move(Lock);
  return true;
}

void PassReplay::passExit(CounterLaunch &IF, CUresult LaunchResult) {
  HwContext &C = *IF.Hw;
  IF.Hw = nullptr;
  IF.HwCfg = nullptr;
  long I = IF.PassEntry;
  std::string E = C.Target.popRange();
  ++PassRanges;
  if (LaunchResult != CUDA_SUCCESS) {
    IF.R.HwProblem = "the launch failed";
    C.Pass.Spoiled.insert(C.Pass.Schedule.entries()[I].Id); // its range holds no kernel
  } else {
    IF.R.HwProblem = "pass replay: this launch ran counter pass " +
                     std::to_string(C.Pass.Schedule.pass() + 1) + " for launch " +
                     std::to_string(C.Pass.Schedule.entries()[I].Id);
  }
  std::vector<LaunchRecord> Done;
  if (!E.empty()) {
    C.Failed = true;
    H.off("pass replay: " + E);
  } else if (C.Pass.Schedule.passComplete()) {
    stopPass(C, Done);
  }
  IF.HwLock.unlock();
  H.writeCompletedRecords(Done);
}

void PassReplay::abandonRound(HwContext &C) {
  PassSchedule &S = C.Pass.Schedule;
  if (S.idle())
    return;
  for (const PassSchedule::Entry &En : S.entries())
    if (auto It = C.Pass.Tickets.find(En.Id); It != C.Pass.Tickets.end()) {
      App.failed(It->second);
      C.Pass.TypeMask.erase(It->first);
      C.Pass.Tickets.erase(It);
    }
  S.roundDone();
  roundsOpen(-1);
}

void PassReplay::closeRoundOf(HwContext &C, std::vector<LaunchRecord> &Done) {
  PassSchedule &S = C.Pass.Schedule;
  if (S.idle())
    return;
  // The passes the program did not run, run empty: CUPTI decodes only a
  // round with every pass, and a missing range only blanks its pass.
  int Pass = S.pass(), Total = int(C.Pass.Cfg ? C.Pass.Cfg->Passes : 0);
  size_t Records = S.entries().size();
  for (int Guard = 0; !S.idle() && !C.Failed && Guard < 64; ++Guard) {
    if (!S.started() && !startPass(C).empty())
      break;
    stopPass(C, Done);
  }
  abandonRound(C); // failed on the way
  if (Total > Pass && H.Host->P) {
    // Pass p was under way: p + 1 .. Total had no launch at all, and p's
    // own launches may not all have come.
    std::string Why = "pass replay: the program ended in counter pass " + std::to_string(Pass + 1) +
                      " of " + std::to_string(Total) + ": " + std::to_string(Records) +
                      " record(s) lack the metrics of the passes it did not finish "
                      "(not_evaluated); the program must repeat the profiled work once per pass "
                      "after it: profile an earlier step or run more steps";
    logLine("%s", Why.c_str());
    H.Host->P->note(Why);
  }
}

bool PassReplay::enter(CounterLaunch &IF) {
  if (IF.App && !IF.AppNewRecord) {
    IF.Replay = this;
    return passEnter(IF); // a pass round's range (a record's own launch: a session)
  }
  return SessionReplay::enter(IF);
}

void PassReplay::exit(CounterLaunch &IF, CUresult LaunchResult) {
  if (IF.PassEntry >= 0)
    passExit(IF, LaunchResult);
  else
    SessionReplay::exit(IF, LaunchResult);
}

std::string PassReplay::refuseGroup(CounterLaunch &IF, HwContext &C) {
  if (IF.AppNewRecord && !C.Pass.Schedule.idle())
    return "pass replay: a round of counter passes was under way";
  return "";
}

void PassReplay::closeOpen(HwContext &C, std::vector<LaunchRecord> &Done) {
  closeRoundOf(C, Done); // the round under way, if any, then the session
  SessionReplay::closeOpen(C, Done);
}

void PassReplay::closeContext(HwContext &C, std::vector<LaunchRecord> &Done) {
  closeSessionOf(C); // its records completed before the object goes
  closeRoundOf(C, C.Sessions.Session.Completed);
  std::swap(Done, C.Sessions.Session.Completed);
}

void PassReplay::releaseContext(HwContext &C) {
  SessionReplay::releaseContext(C);
  for (auto &Cfg : C.Pass.Configs)
    if (Cfg->Host.initialized())
      Cfg->Host.deinitialize();
}

void PassReplay::noteFinish(uint64_t Ranges, bool BeforeRanges) {
  CounterHost &T = *H.Host;
  if (!BeforeRanges) { // application replay's note too, after the ranges'
    SessionReplay::noteFinish(Ranges, BeforeRanges);
    return;
  }
  if (!T.P)
    return;
  std::string Note = passNote();
  T.P->note(Note);
  if (T.S.Verbose >= 1)
    logLine("%s", Note.c_str());
}

std::string PassReplay::passNote() {
  auto U = [](uint64_t V) { return (unsigned long long)V; };
  auto Ms = [](uint64_t Ns, uint64_t N) { return N ? double(Ns) / 1e6 / double(N) : 0.0; };
  uint64_t Rounds = PassRounds, Passes = PassPassesRun;
  char Buf[768];
  snprintf(Buf, sizeof Buf,
           "pass replay: %llu round(s), %llu pass(es) run, %llu ranges, %llu record-pass(es) "
           "whose shape did not come back within the pass (those metrics not_evaluated); host "
           "time: %.2f ms to open a round (its first Start), %.2f ms a later Start, %.2f ms a "
           "Stop, %.2f ms to decode and deliver a round",
           U(Rounds), U(Passes), U(PassRanges.load()), U(PassMissing.load()),
           Ms(PassOpenNs, Rounds), Ms(PassStartNs, Passes > Rounds ? Passes - Rounds : 0),
           Ms(PassStopNs, Passes), Ms(PassDecodeNs, Rounds));
  ApplicationReplay::Stats S = App.stats();
  snprintf(Buf + strlen(Buf), sizeof Buf - strlen(Buf),
           "; %llu records started, %llu completed, %llu completed with metrics not evaluated",
           U(S.Records), U(S.Completed), U(S.NotEvaluated));
  if (Rounds)
    snprintf(Buf + strlen(Buf), sizeof Buf - strlen(Buf),
             "; a record's own launch collected %s; the rounds' lists held %llu tensor "
             "type(s) at most",
             OwnList == 3   ? "the tensor pipes and HFMA2.MMA"
             : OwnList == 2 ? "the tensor pipes but dmma, and HFMA2.MMA (all did not fit its pass)"
             : OwnList == 1 ? "the tensor pipes (HFMA2.MMA did not fit its pass)"
                            : "no tensor pipes (they did not fit its pass)",
             U(RoundTypesMax.load()));
  if (uint64_t Full = PassFullSkips.load())
    snprintf(Buf + strlen(Buf), sizeof Buf - strlen(Buf),
             "; %llu launch(es) in the range got no record because the round was full (%zu "
             "records): the report counts them at their kernel's mean",
             U(Full), roundCapacity(H.Host->S.CountersPerShape));
  return Buf;
}

} // namespace rt
} // namespace hroof
