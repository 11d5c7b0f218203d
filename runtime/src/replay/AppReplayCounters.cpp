//===- AppReplayCounters.cpp - application replay on the range profiler ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// SessionReplay (SessionReplay.h), the CUDA side of HROOF_REPLAY=application
// (ApplicationReplay.h has the records and the grouping): which role a
// launch takes, the one-pass groups of a context planned once with CUPTI's
// own pass counts (cuptiProfilerHostGetNumOfPasses, no GPU work) for every
// tensor type and shared by the kernels' metric lists, the config of the
// group a launch collects, and the delivery of its values. A one-pass
// group's range is one of a batched user-replay session (GroupSession.cpp);
// a group that needs more passes alone gets a kernel-replay range of its
// own, as in kernel mode (HardwareCounters.cpp). Either runs on an object
// whose first config was the group's (freshObject).
//===----------------------------------------------------------------------===//
#include "replay/SessionReplay.h"
#include "replay/HardwareCounters.h"
#include "launches/WorkKey.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hroof {
namespace rt {

SessionReplay::SessionReplay(HardwareCounters &H) : H(H) {
  // A kernel's tensor types are checked (or learned) on the assembled
  // counters of a record, as kernel mode does on one range's.
  App.setTypeCheck([&H](const AppTypes &K, const std::map<std::string, double> &V,
                        std::vector<std::string> &Zero) {
    return H.Set.LearnTensorTypes ? H.checkTypes(K, V, Zero) : std::string();
  });
}

bool SessionReplay::takeRecord(const FuncInfo &F, CUcontext Ctx, const std::string &Shape) {
  std::lock_guard<std::mutex> L(H.M);
  int64_t &N = H.Taken[{F.Mangled, Ctx}];
  if (N >= H.Limit)
    return false;
  if (H.PerShape > 0) {
    int64_t &S = TakenPerShape[{Shape, Ctx}];
    if (S >= H.PerShape)
      return false;
    // Records of other parameter bytes per launch shape: a kernel whose
    // bytes never repeat (host pointers, random-number offsets, padding)
    // would otherwise start a record at every launch.
    int64_t &K = KeysPerShape[{workKeyShape(Shape), Ctx}];
    if (S == 0 && K >= KeysPerShapeLimit)
      return false;
    K += S == 0;
    ++S;
  }
  ++N;
  return true;
}

std::string SessionReplay::shapeKey(const std::string &WorkKey, CUcontext Ctx) {
  char CtxText[32];
  snprintf(CtxText, sizeof CtxText, " ctx=%p", (void *)Ctx);
  return WorkKey + CtxText;
}

bool SessionReplay::admit(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey,
                          uint32_t Corr, bool InRange, LaunchAdmission &A) {
  A.Shape = shapeKey(WorkKey, Ctx);
  // The limits of kernel replay, counting records only: a replay launch is
  // a pass of an earlier record, not a launch profiled on its own.
  auto Take = [&] { return takeRecord(F, Ctx, A.Shape); };
  // The group the context's object runs now, if a record of this shape
  // misses it: any other group costs a fresh object (freshObject). In a
  // loop whose steps launch the same shapes, the object then changes group
  // about once a step, not at every launch.
  const HwConfig *Obj = H.context(Ctx).ObjCfg;
  A.Role = App.role(A.Shape, InRange, Take, A.Ticket, Obj ? &Obj->Metrics : nullptr);
  if (A.Role == AppRole::ReplayOnly)
    ++AppReplayOutside;
  lendOrRemember(A, Corr, InRange, A);
  return A.Role != AppRole::None;
}

void SessionReplay::lendOrRemember(const LaunchAdmission &In, uint32_t Corr, bool InRange,
                                   LaunchAdmission &A) {
  if (H.PerShape <= 0 || (In.Role != AppRole::Record && (In.Role != AppRole::None || !InRange)))
    return;
  std::lock_guard<std::mutex> L(LendersM);
  if (In.Role == AppRole::Record) {
    FirstRecord.emplace(In.Shape, Corr);
    return;
  }
  auto It = FirstRecord.find(In.Shape);
  if (It != FirstRecord.end())
    A.Lender = It->second;
}

std::vector<std::string> listOfMask(const std::vector<std::string> &Metrics, unsigned Mask) {
  TensorTypes Types;
  for (size_t I = 0; I < tensorTypeMetrics().size(); ++I)
    if (Mask & (1u << I))
      Types.Types.insert(tensorTypeMetrics()[I]);
  return metricsForTypes(Metrics, Types);
}

std::string SessionReplay::plan(HwContext &C) {
  uint64_t T0 = nowNs();
  // Every tensor type's list, the metrics without a type first: they fill
  // the groups as a list without types alone would, so a kernel with no
  // (or few) Tensor Core types takes few groups, and the types fill what is
  // left, then groups of their own.
  std::vector<std::string> Metrics = listOfMask(C.Metrics, 0);
  for (const std::string &M : listOfMask(C.Metrics, (1u << tensorTypeMetrics().size()) - 1))
    if (std::find(Metrics.begin(), Metrics.end(), M) == Metrics.end())
      Metrics.push_back(M);
  // With the tensor pipes, HFMA2.MMA: the hmma pipe less these is what
  // tells a record's types idle (typesIdleByPipes). Both from one launch,
  // so planned together; not where the chip lacks it.
  const std::vector<std::string> &Pipes = tensorPipeMetrics();
  std::vector<std::vector<std::string>> Together;
  size_t Probe = 0;
  if (std::all_of(Pipes.begin(), Pipes.end(),
                  [&](const std::string &P) {
                    return std::find(Metrics.begin(), Metrics.end(), P) != Metrics.end();
                  }) &&
      std::find(Metrics.begin(), Metrics.end(), hfma2PipeMetric()) == Metrics.end() &&
      hostPassCount(C.Chip, C.Avail, {hfma2PipeMetric()}, Probe).empty() && Probe == 1) {
    Metrics.insert(Metrics.begin() + listOfMask(C.Metrics, 0).size(), hfma2PipeMetric());
    Together.push_back({"sm__inst_executed_pipe_tensor_op_hmma.sum", hfma2PipeMetric()});
  }
  // CUPTI's pass count of a trial list (hostPassCount: no GPU work).
  // Memoized: first fit asks about the same lists again.
  std::map<std::vector<std::string>, size_t> Memo;
  std::string OracleError;
  PassOracle Passes = [&](const std::vector<std::string> &Ms) -> size_t {
    auto [It, New] = Memo.emplace(Ms, 0);
    if (!New)
      return It->second;
    ++AppOracleCalls;
    size_t P = 0;
    std::string E = hostPassCount(C.Chip, C.Avail, Ms, P);
    if (!E.empty() && OracleError.empty())
      OracleError = E;
    return It->second = E.empty() ? P : 0;
  };
  GroupPlan Plan = planOnePassGroups(Metrics, Passes, Together);
  if (!OracleError.empty())
    return "application replay: planning the one-pass groups: " + OracleError;
  for (const auto &G : Plan.Groups) {
    std::unique_ptr<HwConfig> Cfg;
    std::string E = H.makeConfig(C, G, Cfg);
    if (Cfg)
      C.Sessions.Plan.push_back(std::move(Cfg));
    if (!E.empty())
      return E;
  }
  uint64_t Ns = nowNs() - T0;
  AppPlanNs += Ns;
  char Buf[256];
  snprintf(Buf, sizeof Buf, "%zu metrics (every tensor type) -> %zu one-pass groups (%.0f ms to plan)",
           Metrics.size(), Plan.Groups.size(), double(Ns) / 1e6);
  std::string Line = Buf;
  if (!Plan.MultiPass.empty()) {
    Line += "; needing more than one pass alone:";
    for (const std::string &N : Plan.MultiPass)
      Line += " " + N;
  }
  std::lock_guard<std::mutex> L(H.M);
  if (AppPlans.size() < 2048)
    AppPlans += (AppPlans.empty() ? "" : "; ") + Line;
  if (H.Host->S.Verbose >= 1)
    logLine("application replay on device %d: %s", C.Device, Line.c_str());
  return "";
}

std::string SessionReplay::groups(HwContext &C, unsigned Key, std::vector<HwConfig *> &Out) {
  auto &Slot = C.Sessions.Groups[Key];
  if (Slot.empty()) {
    if (C.Sessions.Plan.empty())
      if (std::string E = plan(C); !E.empty())
        return E;
    std::vector<std::vector<std::string>> Lists;
    for (const auto &Cfg : C.Sessions.Plan)
      Lists.push_back(Cfg->Metrics);
    for (size_t G : groupsFor(Lists, listOfMask(C.Metrics, Key & ~OnePassOnly)))
      if (!(Key & OnePassOnly) || C.Sessions.Plan[G]->Passes == 1)
        Slot.push_back(C.Sessions.Plan[G].get());
  }
  Out = Slot;
  return "";
}

std::string SessionReplay::groupConfig(CounterLaunch &IF, HwContext &C, HwConfig *&Cfg) {
  std::vector<HwConfig *> Groups;
  if (IF.AppNewRecord) {
    // A new record: its metric list as kernel mode would choose it (every
    // tensor type while the kernel's types are being learned), and the
    // groups of the context's plan that hold it.
    // With memory others write, the groups of several passes are left out
    // (skipMultiPassGroup says why) and their metrics named not evaluated.
    unsigned Mask = H.typeMask(IF, C);
    unsigned Key = Mask | (SharedMemory ? OnePassOnly : 0);
    if (std::string E = groups(C, Key, Groups); !E.empty())
      return E;
    if (Groups.empty())
      return "application replay: no metric of the set can be collected in one pass, and "
             "other GPUs or processes write this process's memory (no kernel replay then)";
    std::vector<std::vector<std::string>> Lists;
    std::vector<std::string> Wanted = listOfMask(C.Metrics, Mask), Kept, Left;
    for (HwConfig *G : Groups) {
      Lists.push_back(G->Metrics);
      Kept.insert(Kept.end(), G->Metrics.begin(), G->Metrics.end());
    }
    for (const std::string &M : Wanted)
      if (std::find(Kept.begin(), Kept.end(), M) == Kept.end())
        Left.push_back(M);
    IF.App = App.startRecord(IF.AppShape, IF.R.Correlation, Key, std::move(Lists),
                             H.kernelTypes(IF, C), std::move(Wanted));
    App.leaveOut(IF.App->Record, Left,
                 "they need several passes: not collected while other GPUs or processes "
                 "write this memory");
  } else if (std::string E = groups(C, IF.App->Mask, Groups); !E.empty()) {
    return E;
  }
  if (IF.App->Group >= Groups.size())
    return "application replay: group " + std::to_string(IF.App->Group) + " of a list with " +
           std::to_string(Groups.size());
  Cfg = Groups[IF.App->Group];
  return "";
}

bool SessionReplay::enter(CounterLaunch &IF) {
  IF.Replay = this;
  bool Ok = enterGroup(IF);
  if (!Ok && IF.App)
    App.failed(*IF.App); // a later launch of the shape collects the group
  return Ok;
}

bool SessionReplay::enterGroup(CounterLaunch &IF) {
  std::unique_lock<std::mutex> Lock;
  uint64_t T0 = 0;
  HwContext *C = H.lockContext(IF, Lock, T0);
  if (!C)
    return false;
  if (std::string Why = refuseGroup(IF, *C); !Why.empty()) {
    IF.R.HwProblem = Why;
    return false;
  }
  // A launch that starts a record has no ticket yet: groupConfig gives it one.
  HwConfig *Cfg = nullptr;
  std::string E = groupConfig(IF, *C, Cfg);
  if (E.empty() && Cfg->Passes > 1 && SharedMemory) {
    skipMultiPassGroup(IF, *Cfg);
    return false;
  }
  // A one-pass group joins a batched session (GroupSession.cpp); anything
  // else closes the open one first (openRange).
  if (E.empty() && Cfg->Passes == 1 && !Cfg->Sass) {
    if (!joinSession(IF, *C, *Cfg))
      return false;
    IF.Hw = C;
    IF.HwCfg = Cfg;
    IF.Device = C->Device;
    IF.HwLock = std::move(Lock);
    return true; // its cost: SessionOpenNs (the per-range notes count kernel-replay ranges)
  }
  return H.openRange(IF, *C, Lock, Cfg, E, T0);
}

void SessionReplay::exit(CounterLaunch &IF, CUresult LaunchResult) {
  if (IF.HwSession) {
    sessionExit(IF, LaunchResult);
    IF.Hw = nullptr;
    IF.HwCfg = nullptr;
    return;
  }
  H.closeRange(IF, LaunchResult);
}

bool SessionReplay::freshObject(HwContext &C, const HwConfig &Cfg, bool Fits) {
  // Each group is a list of its own: a change of group is a fresh object,
  // which the choice of groups keeps rare (admit).
  bool Fresh = !Fits || C.ObjPasses != Cfg.Passes;
  AppSwitches += Fresh;
  return Fresh;
}

void SessionReplay::rangeValues(CounterLaunch &IF, HwContext &C, const HwConfig &Cfg,
                                std::map<std::string, double> Values,
                                const std::string &NotEvaluated) {
  if (IF.App)
    deliver(IF, Cfg.Passes, std::move(Values), NotEvaluated);
  else // no group to collect: a launch's own values, as kernel replay's
    H.launchValues(IF, C, Values, NotEvaluated);
}

void SessionReplay::rangeFailed(CounterLaunch &IF) {
  if (IF.App)
    App.failed(*IF.App);
}

void SessionReplay::deliver(CounterLaunch &IF, size_t GroupPasses,
                            std::map<std::string, double> Values, const std::string &NotEvaluated) {
  // What the GPU check reads: a one-pass group at more passes means it ran
  // on an object of another config (CUPTI then saves and restores memory).
  if (GroupPasses > 1)
    ++AppMultiPass;
  else if (IF.HwPasses > 1)
    ++AppOverPasses;
  else
    ++AppOnePass;
  auto Time = Values.find("gpu__time_duration.sum");
  if (Time != Values.end() && Time->second >= 0)
    IF.AppTimeNs = uint64_t(std::llround(Time->second));
  IF.AppDone = App.deliver(*IF.App, std::move(Values), NotEvaluated);
}

void SessionReplay::skipMultiPassGroup(CounterLaunch &IF, const HwConfig &Cfg) {
  // Kernel replay of several passes restores memory between passes, and
  // with NCCL kernels of other GPUs writing this process's buffers that
  // hung a DDP job (measured: docs/validation/multi-gpu.md, "multi-GPU runs
  // with batched application replay"); one pass needs no restore.
  std::string Names;
  std::vector<std::string> Left; // the signatures are in group 0 too
  for (const std::string &N : Cfg.Metrics) {
    Names += (Names.empty() ? "" : ", ") + N;
    if (!signatureMetric(N))
      Left.push_back(N);
  }
  ++AppSharedSkips;
  App.leaveOut(IF.App->Record, Left,
               "it needs several passes: not collected while other GPUs or processes write "
               "this memory");
  IF.AppDone = App.deliver(*IF.App, {}, "");
  IF.R.HwProblem = "application replay: counter group " + std::to_string(IF.App->Group + 1) +
                   " of " + std::to_string(IF.App->Groups) + " (" + Names +
                   ") not collected: it needs " + std::to_string(Cfg.Passes) +
                   " passes, and kernel replay's memory restore is unsafe while other GPUs "
                   "or processes write this process's memory";
  IF.App.reset(); // nothing to give back: the group is done, without values
}

/// The finish note of application mode: what the records cost in launches.
std::string SessionReplay::note() {
  ApplicationReplay::Stats S = App.stats();
  auto U = [](uint64_t V) { return (unsigned long long)V; };
  char Buf[1536];
  snprintf(Buf, sizeof Buf,
           "application replay: %llu records started, %llu completed from %llu replay launches "
           "(%llu started outside --range), %llu dropped (their launch failed), %llu completed "
           "with metrics not evaluated, %llu multi-pass group(s) not collected (memory shared "
           "with other GPUs or processes), %llu group(s) collected again (the launch's duration "
           "or L2 bytes said it did other work than the recorded one), %llu tensor-type group(s) not "
           "collected (the tensor pipes that issue them were idle); group ranges: %llu one-pass at 1 pass, %llu one-pass at "
           "more passes, %llu of groups needing more passes alone; %llu fresh range profiler "
           "objects for a change of group; planning the groups took %.0f ms (%llu pass counts)",
           U(S.Records), U(S.Completed), U(S.ReplayLaunches), U(AppReplayOutside.load()),
           U(S.Failed), U(S.NotEvaluated), U(AppSharedSkips.load()), U(S.OtherWork), U(S.IdleTypeGroups), U(AppOnePass.load()), U(AppOverPasses.load()),
           U(AppMultiPass.load()), U(AppSwitches.load()), double(AppPlanNs.load()) / 1e6,
           U(AppOracleCalls.load()));
  std::string Note = Buf;
  if (uint64_t N = Sessions.load()) {
    snprintf(Buf, sizeof Buf,
             "; batched sessions: %llu (%llu ranges, %llu of them collected a group, %llu "
             "session(s) whose range count did not match the launches seen, %llu group(s) "
             "given back to be collected again), %.2f ms to start (%.2f ms of it sizing the "
             "counter data) and %.2f ms to stop+decode+evaluate each",
             U(N), U(SessionRanges.load()), U(SessionUsed.load()),
             U(SessionMismatches.load()), U(SessionRetries.load()),
             double(SessionOpenNs.load()) / 1e6 / double(N),
             double(SessionSizeNs.load()) / 1e6 / double(N),
             double(SessionCloseNs.load()) / 1e6 / double(N));
    Note += Buf;
  }
  std::lock_guard<std::mutex> L(H.M);
  return Note + (AppPlans.empty() ? "" : "; " + AppPlans);
}

void SessionReplay::noteFinish(uint64_t Ranges, bool BeforeRanges) {
  CounterHost &T = *H.Host;
  if (!T.P)
    return;
  if (BeforeRanges) {
    if (Sessions && !Ranges) // every group batched: no per-range notes
      T.P->note(note());
    return;
  }
  std::string Note = note();
  T.P->note(Note);
  if (T.S.Verbose >= 1)
    logLine("%s", Note.c_str());
}

} // namespace rt
} // namespace hroof
