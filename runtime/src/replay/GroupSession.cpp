//===- GroupSession.cpp - application replay's batched ranges -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_REPLAY=application collects each one-pass group of a launch shape
// on some launch of that shape (ApplicationReplay.h). Opening and closing a
// range with the L2 and DRAM counters costs the same whatever the replay
// mode, and many times what a launch inside a started user-replay session
// adds (measured: docs/validation/deep-learning.md, "what a counter range
// costs; application replay in batched sessions"). So a group's ranges are
// batched: the context's profiler is started once in user replay with the
// group's config, every kernel launched meanwhile becomes one auto range
// (the application's, whether or not it collects anything, and the
// runtime's own), and the session is stopped and decoded when a launch
// needs another group, when it is full, when it has gone idle, or at exit.
// Range i is the i-th kernel launched after Start (memsets and copies make
// no range: measured), so the session keeps every launch's correlation id
// in order; a session whose range count differs from the launches it saw
// gives its groups back (collected later) instead of guessing.
//===----------------------------------------------------------------------===//
#include "replay/SessionReplay.h"
#include "replay/HardwareCounters.h"
#include "launches/LaunchArgs.h"

#include <algorithm>

namespace hroof {
namespace rt {

namespace {

/// Ranges a session holds at most (its counter-data image); launches
/// beyond close it. The first session of a fresh range profiler object
/// costs more the more ranges it is configured for, a later session on the
/// same object little whatever its capacity
/// (test/gpu/counters/session_cost.cu; measured:
/// docs/validation/deep-learning.md, the section named above), and each
/// group needs an object of its own (an object evaluates only its first
/// config, in user replay too): so small sessions, on the object the group
/// already has.
constexpr size_t SessionCapacity = 32;
/// Launches in a row that collect nothing before a session is closed: the
/// ski-rental price of one Stop/Start (measured:
/// docs/validation/deep-learning.md, the section named above) in launches
/// inside a session (about 0.5 ms each).
constexpr size_t SessionIdleLimit = 48;

} // namespace

std::string SessionReplay::openSession(HwContext &C, HwConfig &Cfg) {
  uint64_t T0 = nowNs();
  size_t Size = 0;
  std::string E = C.Target.counterDataSize(Cfg.Names, Size, SessionCapacity);
  C.DataCfg = nullptr; // sized for a session: a single range sizes again
  if (E.empty()) {
    C.Sessions.Session.Data.resize(Size);
    E = C.Target.initCounterData(C.Sessions.Session.Data);
  }
  SessionSizeNs += nowNs() - T0;
  if (E.empty())
    E = C.Target.setConfig(Cfg.Config, C.Sessions.Session.Data, CUPTI_UserReplay, SessionCapacity);
  if (E.empty())
    E = C.Target.start();
  if (!E.empty())
    return E;
  C.Sessions.Session.Cfg = &Cfg;
  C.Sessions.Session.Entries.clear();
  C.Sessions.Session.Idle = 0;
  // Set after Start, cleared before Stop: no CUPTI call of this thread runs
  // while the hooks would lock C.M (whether CUPTI's own work can reach a
  // launch callback is not documented), and contexts without a session
  // never take their lock in the hooks. The price: another thread's launch
  // issued while this one opens the session runs in it unlisted, and the
  // session's count check then gives its groups back.
  C.Sessions.Active = true;
  ++SessionsOpen;
  ++Sessions;
  SessionOpenNs += nowNs() - T0;
  return "";
}

namespace {

/// --verbose 3: every range of a decoded session, its first metrics.
void logSessionRanges(HwContext &C, HwConfig &Cfg) {
  HwSession &S = C.Sessions.Session;
  std::vector<double> V(Cfg.Names.size(), 0.0);
  for (size_t I = 0; I < S.Entries.size(); ++I) {
    if (!Cfg.Host.evaluate(S.Data, I, Cfg.Names, V).empty())
      continue;
    std::string Line;
    for (size_t M = 0; M < V.size() && M < 6; ++M)
      Line += " " + Cfg.Metrics[M] + "=" + std::to_string(V[M]);
    logLine("session range %zu of %zu: launch %u%s:%s", I, S.Entries.size(), S.Entries[I].Corr,
            S.Entries[I].Ticket ? " (collects a group)" : "", Line.c_str());
  }
}

} // namespace

void SessionReplay::closeSession(HwContext &C, std::vector<LaunchRecord> &Done) {
  HwSession &S = C.Sessions.Session;
  if (!S.Cfg)
    return;
  uint64_t T0 = nowNs();
  HwConfig &Cfg = *S.Cfg;
  S.Cfg = nullptr;
  C.Sessions.Active = false;
  --SessionsOpen;
  bool All = false;
  size_t Ranges = 0;
  std::string E = C.Target.stop(All);
  if (E.empty())
    E = C.Target.decode();
  if (E.empty())
    E = RangeProfilerTarget::rangeCount(S.Data, Ranges);
  SessionRanges += Ranges;
  // A range count other than the launches seen, or a pass not submitted:
  // the ranges cannot be told apart, so no value is used.
  bool Match = E.empty() && All && Ranges == S.Entries.size();
  if (E.empty() && !Match) {
    ++SessionMismatches;
    if (H.Host->P)
      H.Host->P->note("application replay: a batched session recorded " + std::to_string(Ranges) +
                    " ranges for " + std::to_string(S.Entries.size()) +
                    " kernel launches seen; its groups are collected again on later launches");
  }
  if (H.Host->S.Verbose >= 3 && Match)
    logSessionRanges(C, Cfg);
  RangeEvaluator Evaluate = [&](size_t I, std::vector<double> &V) {
    return Cfg.Host.evaluate(S.Data, I, Cfg.Names, V);
  };
  SessionDelivery D = deliverSession(S.Entries, Match, Cfg.Metrics, Evaluate, App, Done);
  SessionUsed += D.Delivered;
  AppOnePass += D.Delivered;
  SessionRetries += D.Retried;
  S.Entries.clear();
  if (!E.empty()) {
    C.Failed = true;
    H.off("application replay: closing a batched session: " + E);
  }
  SessionCloseNs += nowNs() - T0;
  if (H.Host->S.Verbose >= 2)
    logLine("batched session closed: %zu ranges, %.2f ms", Ranges, double(nowNs() - T0) / 1e6);
}

bool SessionReplay::joinSession(CounterLaunch &IF, HwContext &C, HwConfig &Cfg) {
  std::vector<LaunchRecord> Done;
  HwSession &S = C.Sessions.Session;
  std::string E;
  bool Flush = H.Host->S.FlushL2;
  // This launch's entry (launchIssued) is put back below, after the
  // flush's: this thread holds C.M until the launch is issued, so no other
  // launch comes between.
  S.forget(IF.R.Correlation);
  // Ranges this launch adds: its own, and the L2 flush's before it.
  size_t Adds = Flush ? 2 : 1;
  if (S.Cfg != &Cfg || S.Entries.size() + Adds > SessionCapacity) {
    closeSession(C, Done);
    if (C.Failed)
      E = "application replay: the previous batched session failed";
    bool First = !C.ObjCfg;
    uint64_t RecreateNs = 0;
    if (E.empty() && H.freshObject(C, Cfg, *this))
      E = H.recreate(C, IF.Ctx, RecreateNs);
    if (E.empty() && (First || !C.ObjCfg)) {
      C.ObjPasses = Cfg.Passes;
      C.ObjCfg = &Cfg;
    }
    if (E.empty())
      E = openSession(C, Cfg);
  }
  if (E.empty() && Flush)
    E = H.flushLocked(IF, C); // its kernel: one more entry (launchIssued)
  if (E.empty()) {
    S.Entries.push_back({IF.R.Correlation, IF.App});
    S.Idle = 0;
  }
  if (!E.empty()) {
    closeSession(C, Done); // if open: this launch's kernel would run in it unlisted
    C.Failed = true;
    IF.R.HwProblem = E;
    H.off(E);
  }
  IF.HwSession = E.empty();
  IF.HwPasses = 1;
  // Records completed by the closed session are written after C.M is
  // released (sessionExit): here only queued.
  for (LaunchRecord &R : Done)
    S.Completed.push_back(std::move(R));
  return E.empty();
}

void SessionReplay::launchIssued(CUcontext Ctx, uint32_t Corr, CUpti_CallbackId Id,
                                 const void *Params) {
  HwContext &C = H.context(Ctx);
  if (H.flushingIn(C)) { // this thread holds C.M: the runtime's own flush
    if (C.Sessions.Session.Cfg)
      C.Sessions.Session.Entries.push_back({0, std::nullopt});
    return;
  }
  if (!C.Sessions.Active || launchCaptured(Id, Params))
    return; // no session here; or a captured launch, which runs no kernel now
  std::vector<LaunchRecord> Done;
  {
    std::lock_guard<std::mutex> L(C.M);
    HwSession &S = C.Sessions.Session;
    std::swap(Done, S.Completed);
    if (S.Cfg && (S.Idle >= SessionIdleLimit || S.Entries.size() >= SessionCapacity))
      closeSession(C, Done); // this launch runs outside any session
    else if (S.Cfg) {
      S.Entries.push_back({InOwnDriverCalls ? 0 : Corr, std::nullopt});
      ++S.Idle;
    }
  }
  H.writeCompletedRecords(Done);
}

void SessionReplay::launchFailed(CUcontext Ctx, uint32_t Corr) {
  HwContext &C = H.context(Ctx);
  if (H.flushingIn(C) || !C.Sessions.Active)
    return;
  std::lock_guard<std::mutex> L(C.M);
  C.Sessions.Session.forget(Corr, true);
}

void SessionReplay::closeBatch(CUcontext Ctx, uint32_t Forget) {
  HwContext &C = H.context(Ctx);
  if (H.flushingIn(C) || !C.Sessions.Active)
    return;
  std::vector<LaunchRecord> Done;
  {
    std::lock_guard<std::mutex> L(C.M);
    std::swap(Done, C.Sessions.Session.Completed);
    if (Forget)
      C.Sessions.Session.forget(Forget, true);
    closeSession(C, Done);
  }
  H.writeCompletedRecords(Done);
}

void SessionReplay::sessionExit(CounterLaunch &IF, CUresult LaunchResult) {
  HwContext &C = *IF.Hw;
  HwSession &S = C.Sessions.Session;
  if (LaunchResult != CUDA_SUCCESS) {
    // No kernel ran: no range. Its group is collected by a later launch.
    S.forget(IF.R.Correlation);
    IF.R.HwProblem = "the launch failed";
    if (IF.App)
      App.failed(*IF.App);
  }
  std::vector<LaunchRecord> Done;
  std::swap(Done, S.Completed);
  if (S.Entries.size() >= SessionCapacity)
    closeSession(C, Done);
  IF.HwLock.unlock();
  H.writeCompletedRecords(Done);
}

void SessionReplay::closeAll() {
  std::vector<LaunchRecord> Done;
  for (HwContext *C : H.contexts()) {
    // At exit a launch of another thread may still be inside its range
    // (its lock is never released): that session stays open, its groups
    // missing (onFinish says so).
    std::unique_lock<std::mutex> L(C->M, std::try_to_lock);
    if (L.owns_lock())
      closeOpen(*C, Done);
  }
  H.writeCompletedRecords(Done);
}

void SessionReplay::closeOpen(HwContext &C, std::vector<LaunchRecord> &Done) {
  for (LaunchRecord &R : C.Sessions.Session.Completed)
    Done.push_back(std::move(R));
  C.Sessions.Session.Completed.clear();
  closeSession(C, Done);
}

bool SessionReplay::closeForRange(HwContext &C, uint32_t Corr) {
  HwSession &S = C.Sessions.Session;
  if (!S.Cfg)
    return true;
  S.forget(Corr);
  closeSession(C, S.Completed);
  return !C.Failed;
}

void SessionReplay::takeCompleted(HwContext &C, std::vector<LaunchRecord> &Done) {
  std::swap(Done, C.Sessions.Session.Completed);
}

void SessionReplay::closeContext(HwContext &C, std::vector<LaunchRecord> &Done) {
  closeSessionOf(C); // its records completed before the object goes
  std::swap(Done, C.Sessions.Session.Completed);
}

void SessionReplay::releaseContext(HwContext &C) {
  for (auto &Cfg : C.Sessions.Plan)
    if (Cfg->Host.initialized())
      Cfg->Host.deinitialize();
}

void SessionReplay::closeSessionOf(HwContext &C) {
  std::vector<LaunchRecord> Done;
  std::swap(Done, C.Sessions.Session.Completed);
  closeSession(C, Done);
  for (LaunchRecord &R : Done) // written after C.M is released (onContextDestroy)
    C.Sessions.Session.Completed.push_back(std::move(R));
}

} // namespace rt
} // namespace hroof
