//===- AppReplayCounters.cpp - application replay on the range profiler ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUDA side of HROOF_REPLAY=application (ApplicationReplay.h has the
// records and the grouping): which role a launch takes, the one-pass groups
// of a context planned once with CUPTI's own pass counts
// (cuptiProfilerHostGetNumOfPasses, no GPU work) for every tensor type and
// shared by the kernels' metric lists, the config of the group a
// launch collects, and the delivery of its values. A one-pass group's range
// is one of a batched user-replay session (GroupSession.cpp); a group that
// needs more passes alone gets a kernel-replay range of its own, as in
// kernel mode (HardwareCounters.cpp). Either runs on an object whose first
// config was the group's (freshObject).
//===----------------------------------------------------------------------===//
#include "replay/HardwareCounters.h"
#include "launches/WorkKey.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hroof {
namespace rt {

AppRole HardwareCounters::takeApp(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey,
                                  bool InRange, AppTicket &T, std::string &Shape, uint32_t Corr) {
  char CtxText[32];
  snprintf(CtxText, sizeof CtxText, " ctx=%p", (void *)Ctx);
  Shape = WorkKey + CtxText;
  // The limits of take(), counting records only: a replay launch is a pass
  // of an earlier record, not a launch profiled on its own.
  auto Take = [&] {
    std::lock_guard<std::mutex> L(M);
    int64_t &N = Taken[{F.Mangled, Ctx}];
    if (N >= Limit)
      return false;
    if (PerShape > 0) {
      int64_t &S = TakenPerShape[{Shape, Ctx}];
      if (S >= PerShape)
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
  };
  // The group the context's object runs now, if a record of this shape
  // misses it: any other group costs a fresh object (freshObject). In a
  // loop whose steps launch the same shapes, the object then changes group
  // about once a step, not at every launch.
  if (passMode())
    return takePass(Ctx, Shape, InRange, Take, T, Corr);
  const HwConfig *Obj = context(Ctx).ObjCfg;
  AppRole Role = App.role(Shape, InRange, Take, T, Obj ? &Obj->Metrics : nullptr);
  if (Role == AppRole::ReplayOnly)
    ++AppReplayOutside;
  return Role;
}

std::string HardwareCounters::makeConfig(HwContext &C, const std::vector<std::string> &Metrics,
                                         std::unique_ptr<HwConfig> &Out) {
  auto H = std::make_unique<HwConfig>();
  H->Metrics = Metrics;
  H->Sorted = Metrics;
  std::sort(H->Sorted.begin(), H->Sorted.end());
  for (const std::string &Name : H->Metrics) {
    H->Names.push_back(Name.c_str());
    H->Sass = H->Sass || sassMetric(Name);
  }
  if (std::string E = H->Host.initialize(C.Chip, C.Avail); !E.empty())
    return E;
  HwConfig &X = *H;
  Out = std::move(H); // owned from here on (torn down with the context)
  // The counter-data image is sized when a range first uses this list
  // (startRange, openSession): sizing here, on the object a batched session
  // may be running on, would change the list that session's image takes.
  return X.Host.configure(X.Names, X.Config, X.Passes);
}

std::vector<std::string> listOfMask(const std::vector<std::string> &Metrics, unsigned Mask) {
  TensorTypes Types;
  for (size_t I = 0; I < tensorTypeMetrics().size(); ++I)
    if (Mask & (1u << I))
      Types.Types.insert(tensorTypeMetrics()[I]);
  return metricsForTypes(Metrics, Types);
}

std::string HardwareCounters::appPlan(HwContext &C) {
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
    std::string E = makeConfig(C, G, Cfg);
    if (Cfg)
      C.AppPlan.push_back(std::move(Cfg));
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
  std::lock_guard<std::mutex> L(M);
  if (AppPlans.size() < 2048)
    AppPlans += (AppPlans.empty() ? "" : "; ") + Line;
  if (Host->S.Verbose >= 1)
    logLine("application replay on device %d: %s", C.Device, Line.c_str());
  return "";
}

std::string HardwareCounters::appGroups(HwContext &C, unsigned Key,
                                        std::vector<HwConfig *> &Out) {
  auto &Slot = C.AppGroups[Key];
  if (Slot.empty()) {
    if (C.AppPlan.empty())
      if (std::string E = appPlan(C); !E.empty())
        return E;
    std::vector<std::vector<std::string>> Lists;
    for (const auto &Cfg : C.AppPlan)
      Lists.push_back(Cfg->Metrics);
    for (size_t G : groupsFor(Lists, listOfMask(C.Metrics, Key & ~OnePassOnly)))
      if (!(Key & OnePassOnly) || C.AppPlan[G]->Passes == 1)
        Slot.push_back(C.AppPlan[G].get());
  }
  Out = Slot;
  return "";
}

std::string HardwareCounters::appConfig(CounterLaunch &IF, HwContext &C, HwConfig *&Cfg) {
  if (passMode() && IF.AppNewRecord)
    return passRecordConfig(IF, C, Cfg);
  std::vector<HwConfig *> Groups;
  if (IF.AppNewRecord) {
    // A new record: its metric list as kernel mode would choose it (every
    // tensor type while the kernel's types are being learned), and the
    // groups of the context's plan that hold it.
    // With memory others write, the groups of several passes are left out
    // (skipMultiPassGroup says why) and their metrics named not evaluated.
    unsigned Mask = typeMask(IF, C);
    unsigned Key = Mask | (SharedMemory ? OnePassOnly : 0);
    if (std::string E = appGroups(C, Key, Groups); !E.empty())
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
                             kernelTypes(IF, C), std::move(Wanted));
    App.leaveOut(IF.App->Record, Left,
                 "they need several passes: not collected while other GPUs or processes "
                 "write this memory");
  } else if (std::string E = appGroups(C, IF.App->Mask, Groups); !E.empty()) {
    return E;
  }
  if (IF.App->Group >= Groups.size())
    return "application replay: group " + std::to_string(IF.App->Group) + " of a list with " +
           std::to_string(Groups.size());
  Cfg = Groups[IF.App->Group];
  return "";
}

void HardwareCounters::appDeliver(CounterLaunch &IF, size_t GroupPasses,
                                  std::map<std::string, double> Values,
                                  const std::string &NotEvaluated) {
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

void HardwareCounters::skipMultiPassGroup(CounterLaunch &IF, const HwConfig &Cfg) {
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
std::string appReplayNote(HardwareCounters &H) {
  ApplicationReplay::Stats S = H.App.stats();
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
           U(S.Records), U(S.Completed), U(S.ReplayLaunches), U(H.AppReplayOutside.load()),
           U(S.Failed), U(S.NotEvaluated), U(H.AppSharedSkips.load()), U(S.OtherWork), U(S.IdleTypeGroups), U(H.AppOnePass.load()), U(H.AppOverPasses.load()),
           U(H.AppMultiPass.load()), U(H.AppSwitches.load()), double(H.AppPlanNs.load()) / 1e6,
           U(H.AppOracleCalls.load()));
  std::string Note = Buf;
  if (uint64_t N = H.Sessions.load()) {
    snprintf(Buf, sizeof Buf,
             "; batched sessions: %llu (%llu ranges, %llu of them collected a group, %llu "
             "session(s) whose range count did not match the launches seen, %llu group(s) "
             "given back to be collected again), %.2f ms to start (%.2f ms of it sizing the "
             "counter data) and %.2f ms to stop+decode+evaluate each",
             U(N), U(H.SessionRanges.load()), U(H.SessionUsed.load()),
             U(H.SessionMismatches.load()), U(H.SessionRetries.load()),
             double(H.SessionOpenNs.load()) / 1e6 / double(N),
             double(H.SessionSizeNs.load()) / 1e6 / double(N),
             double(H.SessionCloseNs.load()) / 1e6 / double(N));
    Note += Buf;
  }
  std::lock_guard<std::mutex> L(H.M);
  return Note + (H.AppPlans.empty() ? "" : "; " + H.AppPlans);
}

} // namespace rt
} // namespace hroof
