//===- HardwareCounters.cpp - hardware counters of the selected launches --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HardwareCounters (HardwareCounters.h): the replay mode made at start and
// its one switch; per context, the range profiler object and the host
// objects and config images of its metric lists; the kernel-replay range,
// opened at launch enter and closed, decoded and evaluated at exit; the
// tensor types learned per kernel. The CUPTI calls are RangeProfiler.cpp's.
//===----------------------------------------------------------------------===//
#include "replay/HardwareCounters.h"
#include "launches/WorkKey.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hroof {
namespace rt {

namespace {

/// Every tensor type metric (a mask over tensorTypeMetrics()).
const unsigned AllTypes = (1u << tensorTypeMetrics().size()) - 1;

/// The context whose M this thread holds while it launches the runtime's
/// own kernel (the L2 flush of cache-control all).
thread_local const HwContext *FlushingIn = nullptr;

} // namespace

HardwareCounters::HardwareCounters() : Kernel(std::make_unique<KernelReplay>(*this)) {
  Mode.set(Kernel.get(), nullptr); // until onInit
}

HardwareCounters::~HardwareCounters() = default;

void HardwareCounters::writeCompletedRecords(std::vector<LaunchRecord> &Done) {
  for (LaunchRecord &R : Done)
    Host->Write(std::move(R));
  Done.clear();
}

bool HardwareCounters::flushingIn(const HwContext &C) { return FlushingIn == &C; }

std::string HardwareCounters::flushLocked(CounterLaunch &IF, HwContext &C) {
  FlushingIn = &C;
  std::string E = flushL2(IF);
  FlushingIn = nullptr;
  return E;
}

void HardwareCounters::off(const std::string &Why) {
  CounterHost &T = *Host;
  if (Enabled.exchange(false)) {
    logLine("hardware counters off: %s (durations and dynamic counts go on)", Why.c_str());
    if (T.P)
      T.P->note("hardware counters off: " + Why);
  }
}

void HardwareCounters::toApplicationReplay(const std::string &Cause) {
  if (!Enabled)
    return;
  Sessions->SharedMemory = true; // even when application replay was asked for
  if (!Mode.toSuccessor())
    return; // already application or pass replay
  std::string Why = "hardware counters: " + Cause +
                    ", so from here on each launch is profiled by application replay (one pass "
                    "a launch, no memory restore: kernel replay's restore erases what other GPUs "
                    "and processes write meanwhile; docs/multi-gpu.md); metrics that need more "
                    "than one pass alone are not collected, and records may be "
                    "counters_incomplete";
  logLine("%s", Why.c_str());
  if (Host->P)
    Host->P->note(Why);
}

void HardwareCounters::onInit() {
  CounterHost &T = *Host;
  Set = parseCountersSetting(T.S.Counters);
  Limit = T.S.LaunchLimit;
  PerShape = T.S.CountersPerShape;
  ReplayMode Asked = replayModeOf(T.S);
  Loans.Lending = PerShape > 0; // every mode: a launch past the limit borrows (CounterLoans.h)
  // Application replay is made in kernel mode too: toApplicationReplay may
  // switch to it later.
  if (Asked == ReplayMode::Passes)
    Sessions = std::make_unique<PassReplay>(*this);
  else
    Sessions = std::make_unique<SessionReplay>(*this);
  Mode.set(Asked == ReplayMode::Kernel ? static_cast<CounterReplay *>(Kernel.get())
                                       : Sessions.get(),
           Sessions.get());
  if (Asked == ReplayMode::Passes) {
    const char *Warn = "HROOF_REPLAY=passes is experimental: a record's duration, clocks, L2 and "
                       "DRAM bytes come from its own launch, every other counter from the next "
                       "launches of its work key (one counter pass each, after --range), which "
                       "it assumes do the same work; a launch whose work key no record has may "
                       "serve a record of its launch shape, named in counters_estimated "
                       "(docs/runtime.md, \"Pass replay\"); kernel replay is the default";
    logLine("%s", Warn);
    if (T.P)
      T.P->note(Warn);
  } else if (Asked == ReplayMode::Application) {
    // Said where the user looks: what the mode does and its assumption (its
    // cost: docs/runtime.md, "Application replay").
    const char *Warn = "HROOF_REPLAY=application is experimental: it takes a record's counter "
                       "groups from later launches of its work key (kernel, launch shape, "
                       "by-value parameter bytes), which it assumes do the same work; a launch "
                       "whose duration or L2 bytes differ gives its group back, other work of "
                       "about the same duration and L2 traffic goes unnoticed (docs/runtime.md, "
                       "\"Application replay\"); kernel replay is the default";
    logLine("%s", Warn);
    if (T.P)
      T.P->note(Warn);
  }
  if (!Set.Problem.empty()) {
    logLine("%s; ignored", Set.Problem.c_str());
    if (T.P)
      T.P->note(Set.Problem);
  }
  // cuptiProfilerInitialize is called at the first profiled launch (setup):
  // inside cuInit, where InitializeInjection runs, it fails with
  // CUPTI_ERROR_UNKNOWN (docs/validation/counters.md, "Degrading").
  Enabled = Set.Enabled;
  if (Enabled && Set.LearnTensorTypes && T.S.TypeCache != "none") {
    std::string Path = T.S.TypeCache == "auto" ? defaultTypeCachePath() : T.S.TypeCache;
    std::string E =
        Path.empty() ? "no HOME or XDG_CACHE_HOME for the default place" : Cache.load(Path);
    if (E.empty() && Cache.skippedLines())
      E = std::to_string(Cache.skippedLines()) + " malformed line(s) in " + Path + " ignored";
    CacheOn = !Path.empty();
    if (!E.empty()) {
      logLine("tensor-type cache: %s", E.c_str());
      if (T.P)
        T.P->note("tensor-type cache: " + E);
    }
  }
}

void HardwareCounters::onModuleLoaded(const CUpti_ModuleResourceData &MD) {
  if (!CacheOn)
    return;
  uint64_t T0 = nowNs();
  auto Hashes = cubinFunctionHashes(MD.pCubin, MD.cubinSize);
  std::lock_guard<std::mutex> L(CodeM);
  HashNs += nowNs() - T0;
  ++HashedModules;
  HashedBytes += MD.cubinSize;
  for (auto &[Name, Hash] : Hashes) {
    auto [It, New] = CodeHash.emplace(std::move(Name), Hash);
    if (!New && It->second != Hash)
      It->second = 0; // one name, two codes: never looked up
  }
}

uint64_t HardwareCounters::codeHash(const std::string &Mangled) {
  std::lock_guard<std::mutex> L(CodeM);
  auto It = CodeHash.find(Mangled);
  return It == CodeHash.end() ? 0 : It->second;
}

std::string HardwareCounters::setup(HwContext &C, CUcontext Ctx) {
  {
    std::lock_guard<std::mutex> L(M);
    if (!ProfilerInitDone) {
      ProfilerInitDone = true;
      ProfilerInitProblem = RangeProfilerTarget::initializeProfiler();
    }
  }
  std::string E = setupContext(C, Ctx);
  if (!E.empty() && !ProfilerInitProblem.empty())
    E += " (after " + ProfilerInitProblem + ")";
  return E;
}

std::string HardwareCounters::setupContext(HwContext &C, CUcontext Ctx) {
  CounterHost &T = *Host;
  CUdevice Dev = 0;
  CUresult CR = cuCtxGetDevice(&Dev);
  if (CR != CUDA_SUCCESS)
    return std::string("cuCtxGetDevice: ") + cuErr(CR);
  C.Device = int(Dev);
  char DevName[256] = {0};
  cuDeviceGetName(DevName, sizeof DevName, Dev);
  if (std::string E = RangeProfilerTarget::checkDevice(Dev, DevName); !E.empty())
    return E;
  if (std::string E = RangeProfilerTarget::chipName(Dev, C.Chip); !E.empty())
    return E;
  const std::string &Chip = C.Chip;
  if (std::string E = RangeProfilerTarget::counterAvailability(Ctx, C.Avail); !E.empty())
    return E;
  // Metric names checked on this chip; the missing ones dropped, said once.
  RangeProfilerHost Check;
  if (std::string E = Check.initialize(Chip, C.Avail); !E.empty())
    return E;
  std::string Dropped;
  for (const std::string &Name : Set.Metrics) {
    if (Check.hasMetric(Name))
      C.Metrics.push_back(Name);
    else
      Dropped += (Dropped.empty() ? "" : ", ") + Name;
  }
  Check.deinitialize();
  {
    std::lock_guard<std::mutex> L(M);
    if (!Dropped.empty() && !DroppedReported) {
      DroppedReported = true;
      std::string Msg = "hardware counters: not available on " + Chip + ", dropped: " + Dropped;
      logLine("%s", Msg.c_str());
      if (T.P)
        T.P->note(Msg);
    }
  }
  if (C.Metrics.empty())
    return "none of the requested metrics exists on " + Chip;
  if (std::string E = C.Target.enable(Ctx); !E.empty())
    return E;
  HwConfig *All = nullptr, *NoTypes = nullptr;
  if (std::string E = config(C, AllTypes, All); !E.empty())
    return E;
  std::string Passes = std::to_string(All->Passes) + " replay passes per launch";
  if (Set.LearnTensorTypes) {
    if (std::string E = config(C, 0, NoTypes); !E.empty())
      return E;
    Passes = std::to_string(All->Passes) +
             " replay passes at a kernel's first profiled launch (every tensor "
             "type), then " +
             std::to_string(NoTypes->Passes) + " plus those of the tensor types it used";
  }
  if (T.S.Verbose >= 1)
    logLine("hardware counters on device %d (%s, chip %s): %zu metrics, %s", int(Dev), DevName,
            Chip.c_str(), C.Metrics.size(), Passes.c_str());
  if (T.P)
    T.P->note("hardware counters: chip " + Chip + ", " + std::to_string(C.Metrics.size()) +
              " metrics, " + Passes);
  C.Ready = true;
  return "";
}

std::string HardwareCounters::config(HwContext &C, unsigned TypeMask, HwConfig *&Out) {
  auto &Slot = C.Configs[TypeMask];
  if (Slot) {
    Out = Slot.get();
    return "";
  }
  TensorTypes Types;
  for (size_t I = 0; I < tensorTypeMetrics().size(); ++I)
    if (TypeMask & (1u << I))
      Types.Types.insert(tensorTypeMetrics()[I]);
  std::unique_ptr<HwConfig> H;
  std::string E = makeConfig(C, metricsForTypes(C.Metrics, Types), H);
  if (!H) { // the host object did not initialize: nothing to keep
    C.Configs.erase(TypeMask);
    return E;
  }
  Slot = std::move(H); // owned from here on (torn down with the context)
  if (!E.empty())
    return E;
  Out = Slot.get();
  return "";
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

HwContext &HardwareCounters::context(CUcontext Ctx) {
  std::lock_guard<std::mutex> L(M);
  auto &P = Ctxs[Ctx];
  if (!P)
    P = std::make_unique<HwContext>();
  return *P;
}

std::vector<HwContext *> HardwareCounters::contexts() {
  std::vector<HwContext *> All;
  std::lock_guard<std::mutex> L(M);
  for (auto &[Ctx, C] : Ctxs)
    All.push_back(C.get());
  return All;
}

unsigned HardwareCounters::typeMask(CounterLaunch &IF, const HwContext &C) {
  // The metric list: every tensor type at a kernel's first profiled launch,
  // then only the types it used (each type costs replay passes of its own).
  // A kernel not seen in this run may have its types in the cache (TypeCache.h).
  // The code hash is looked up only then (lock order: M, then CodeM).
  IF.HwLearning = false;
  IF.HwTypes.reset();
  IF.HwCode = 0;
  unsigned Mask = AllTypes;
  if (Set.LearnTensorTypes) {
    std::lock_guard<std::mutex> L(M);
    auto It = Learned.find(IF.F->Mangled);
    if (It == Learned.end() && CacheOn && (IF.HwCode = codeHash(IF.F->Mangled))) {
      if (const TensorTypes *Cached = Cache.find(C.Chip, IF.HwCode, IF.F->Mangled)) {
        It = Learned.emplace(IF.F->Mangled, makeLearned(*Cached, IF.HwCode)).first;
        ++FromCache;
      }
    }
    if (It == Learned.end()) {
      IF.HwLearning = true;
    } else {
      IF.HwTypes = It->second;
      Mask = IF.HwTypes->Mask;
    }
  }
  return Mask;
}

std::string HardwareCounters::recreate(HwContext &C, CUcontext Ctx, uint64_t &RecreateNs) {
  uint64_t R0 = nowNs();
  C.Target.disable();
  std::string E = C.Target.enable(Ctx);
  ++Reenables;
  RecreateNs = nowNs() - R0;
  C.DataCfg = nullptr;
  C.ObjCfg = nullptr; // the caller's config runs first on the new object
  return E;
}

bool HardwareCounters::freshObject(HwContext &C, const HwConfig &Cfg, CounterReplay &Mode) {
  const HwConfig *Obj = C.ObjCfg;
  if (!Obj)
    return false; // no range yet: this config is the object's first
  return Mode.freshObject(C, Cfg, listFitsObject(Obj->Sorted, Cfg.Sorted));
}

std::string HardwareCounters::startRange(HwContext &C, HwConfig &Cfg, uint64_t (&Ts)[4]) {
  std::string E;
  Ts[0] = nowNs();
  if (C.DataCfg != &Cfg) {
    // The counter-data image takes its metric list from the range profiler
    // object's last GetCounterDataSize (seen on the H100: with another list's
    // image the evaluated values of the missing metrics are NaN).
    size_t Size = 0;
    E = C.Target.counterDataSize(Cfg.Names, Size);
    if (E.empty() && Size != Cfg.Data.size())
      Cfg.Data.resize(Size);
    if (E.empty())
      C.DataCfg = &Cfg;
    ++Sizings;
  }
  Ts[1] = nowNs();
  if (E.empty())
    E = C.Target.initCounterData(Cfg.Data);
  // SetConfig for every range: configuring once per context and only
  // re-initializing the counter data saved nothing measurable: the replay
  // is the cost (docs/validation/deep-learning.md, "the cost of the
  // counters: plain run, hroof run, ncu").
  Ts[2] = nowNs();
  if (E.empty())
    E = C.Target.setConfig(Cfg.Config, Cfg.Data);
  Ts[3] = nowNs();
  if (E.empty())
    E = C.Target.start();
  return E;
}

/// HROOF_CACHE_CONTROL=all: the L2 flush before the range (L2Flush.h). A
/// failed flush is an error like any other of the counters (they go off
/// with its message): DRAM bytes with the caches not flushed would not be
/// what the user asked for.
std::string HardwareCounters::flushL2(CounterLaunch &IF) {
  bool WasOwn = InOwnDriverCalls;
  InOwnDriverCalls = true; // the flush's launch is not the application's
  std::string E = Flusher.flush(IF.Ctx, IF.Stream);
  InOwnDriverCalls = WasOwn;
  return E;
}

HwContext *HardwareCounters::lockContext(CounterLaunch &IF, std::unique_lock<std::mutex> &Lock,
                                         uint64_t &T0) {
  HwContext *C = &context(IF.Ctx);
  Lock = std::unique_lock<std::mutex>(C->M);
  if (!Enabled || C->Failed)
    return nullptr;
  IF.R.HwTried = true;
  T0 = nowNs();
  if (!C->Ready) {
    std::string E = setup(*C, IF.Ctx);
    if (!E.empty()) {
      C->Failed = true;
      IF.R.HwProblem = E;
      off(E);
      return nullptr;
    }
  }
  return C;
}

bool HardwareCounters::openRange(CounterLaunch &IF, HwContext &C,
                                 std::unique_lock<std::mutex> &Lock, HwConfig *Cfg,
                                 const std::string &ConfigError, uint64_t T0) {
  std::string E = ConfigError;
  // A batched session and a range of its own cannot share the object.
  if (E.empty() && !Sessions->closeForRange(C, IF.R.Correlation))
    return false;
  // A range profiler object collects the counters of the first config it
  // ran, at that config's pass count (seen on the H100: 2-pass ranges after
  // an 8-pass one cost as much as 8-pass ones, with the right values; more
  // passes than the first did not evaluate; application replay's groups
  // after the first came back NaN). A list outside the first config's gets
  // a fresh object; in kernel mode one within it with fewer passes too, when
  // the passes it wasted cost a fresh object (ReplayPolicy.h).
  bool First = !C.ObjCfg; // no range on the context's object yet
  bool Recreate = E.empty() && freshObject(C, *Cfg, *IF.Replay);
  uint64_t RecreateNs = 0;
  if (Recreate)
    E = recreate(C, IF.Ctx, RecreateNs);
  if (E.empty() && (Recreate || First)) {
    C.ObjPasses = Cfg->Passes;
    C.ObjCfg = Cfg;
  }
  IF.HwPasses = C.ObjPasses;
  bool NewList = C.DataCfg != Cfg;
  uint64_t Ts[4] = {0, 0, 0, 0};
  if (E.empty() && Host->S.FlushL2)
    E = flushLocked(IF, C);
  if (E.empty())
    E = startRange(C, *Cfg, Ts);
  if (!E.empty()) {
    C.Failed = true;
    IF.R.HwProblem = E;
    off(E);
    return false;
  }
  uint64_t P4 = nowNs();
  if (First)
    C.Policy.seed(P4 - Ts[3]);
  else if (Recreate) {
    C.Policy.recreated(RecreateNs + (P4 - Ts[3]));
    ReenableNs += RecreateNs + (P4 - Ts[3]);
  }
  SizeNs += Ts[1] - Ts[0];
  InitNs += Ts[2] - Ts[1];
  (NewList || Recreate ? SetNewNs : SetSameNs) += Ts[3] - Ts[2];
  SetNews += NewList || Recreate;
  StartNs += P4 - Ts[3];
  IF.Hw = &C;
  IF.HwCfg = Cfg;
  IF.Device = C.Device;
  IF.HwLock = std::move(Lock);
  EnterNs += nowNs() - T0;
  IF.HwT = nowNs();
  return true;
}

AppTypes HardwareCounters::kernelTypes(const CounterLaunch &IF, const HwContext &C) const {
  AppTypes K;
  K.Learning = IF.HwLearning;
  K.Types = IF.HwTypes;
  K.Code = IF.HwCode;
  K.Mangled = IF.F->Mangled;
  K.Name = IF.F->Name;
  K.Chip = C.Chip;
  for (const std::string &T : tensorTypeMetrics())
    if (std::find(C.Metrics.begin(), C.Metrics.end(), T) != C.Metrics.end())
      K.TypeMetrics.push_back(T);
  return K;
}

std::string HardwareCounters::checkTypes(const AppTypes &K,
                                         const std::map<std::string, double> &Values,
                                         std::vector<std::string> &InferredZero) {
  std::string TypesProblem;
  std::lock_guard<std::mutex> L(M);
  if (K.Learning) {
    auto LT = makeLearned(learnTensorTypes(Values), K.Code);
    // Metrics left out count as used: true for this run, not for the cache.
    if (CacheOn && K.Code && !K.Partial)
      Cache.put(K.Chip, K.Code, K.Mangled, LT->Types);
    Learned[K.Mangled] = std::move(LT);
  } else if ((TypesProblem = checkTensorTypes(K.Types->Types, Values)).empty()) {
    for (const std::string &T : K.TypeMetrics)
      if (!Values.count(T))
        InferredZero.push_back(T);
  } else {
    Learned.erase(K.Mangled); // its next launch collects every type
    if (CacheOn && K.Types->Code)
      Cache.erase(K.Chip, K.Types->Code, K.Mangled);
    if (!RelearnReported) {
      RelearnReported = true;
      std::string Msg = "hardware counters: kernel " + K.Name + ": " + TypesProblem +
                        "; its tensor types are relearned";
      logLine("%s", Msg.c_str());
      if (Host->P)
        Host->P->note(Msg);
    }
  }
  return TypesProblem;
}

void HardwareCounters::evaluate(CounterLaunch &IF, HwContext &C, HwConfig &Cfg, size_t Ranges) {
  LaunchRecord &LR = IF.R;
  std::vector<double> V(Cfg.Names.size(), 0.0);
  if (std::string E = Cfg.Host.evaluate(Cfg.Data, Ranges - 1, Cfg.Names, V); !E.empty()) {
    LR.HwProblem = E;
    return;
  }
  std::map<std::string, double> Values;
  std::string NotEvaluated;
  splitValues(Cfg.Metrics, V, Values, NotEvaluated);
  {
    std::lock_guard<std::mutex> L(M);
    ++RangesByPasses[IF.HwPasses];
  }
  IF.Replay->rangeValues(IF, C, Cfg, std::move(Values), NotEvaluated);
}

void HardwareCounters::launchValues(CounterLaunch &IF, HwContext &C,
                                    const std::map<std::string, double> &Values,
                                    const std::string &NotEvaluated) {
  LaunchRecord &LR = IF.R;
  std::vector<std::string> InferredZero;
  std::string TypesProblem;
  if (Set.LearnTensorTypes)
    TypesProblem = checkTypes(kernelTypes(IF, C), Values, InferredZero);
  LR.Hw = countersToJson(Values, InferredZero);
  if (!TypesProblem.empty())
    (*LR.Hw)["tensor_flops_problem"] = TypesProblem;
  if (!NotEvaluated.empty())
    (*LR.Hw)["not_evaluated"] = NotEvaluated;
}

void HardwareCounters::closeRange(CounterLaunch &IF, CUresult LaunchResult) {
  HwContext &C = *IF.Hw;
  HwConfig &Cfg = *IF.HwCfg;
  IF.Hw = nullptr;
  IF.HwCfg = nullptr;
  LaunchRecord &LR = IF.R;
  uint64_t T1 = nowNs();
  LaunchNs += T1 - IF.HwT;
  C.Policy.ranged(IF.HwPasses, Cfg.Passes, T1 - IF.HwT);
  ++Ranges;
  bool AllPassesSubmitted = false;
  std::string E = C.Target.stop(AllPassesSubmitted);
  if (E.empty())
    E = C.Target.decode();
  size_t Ranges = 0;
  if (E.empty())
    E = RangeProfilerTarget::rangeCount(Cfg.Data, Ranges);
  if (!E.empty()) {
    // The range could not be closed: most often the kernel faulted (the
    // context is gone). Counters stop; the launch keeps its other data.
    CUresult Q = cuStreamQuery(IF.Stream);
    if (Q != CUDA_SUCCESS && Q != CUDA_ERROR_NOT_READY && LR.Error.empty())
      LR.Error = std::string("kernel failed: ") + cuErr(Q);
    LR.HwProblem = E;
    C.Failed = true;
    IF.Replay->rangeFailed(IF);
    IF.HwLock.unlock();
    off("kernel " + LR.Name + " (launch " + std::to_string(LR.Correlation) + "): " + E +
        (LR.Error.empty() ? "" : " after " + LR.Error));
    return;
  }
  if (LaunchResult != CUDA_SUCCESS)
    LR.HwProblem = "the launch failed";
  else if (Ranges == 0 || !AllPassesSubmitted)
    LR.HwProblem = Ranges == 0 ? "the range profiler recorded no range for this launch"
                               : "not all replay passes were submitted";
  else
    evaluate(IF, C, Cfg, Ranges);
  if (!LR.HwProblem.empty())
    IF.Replay->rangeFailed(IF);
  ExitNs += nowNs() - T1;
  // Records that the session closed at this range's start completed: written
  // now, not at the context's next session or at exit.
  std::vector<LaunchRecord> Done;
  Sessions->takeCompleted(C, Done);
  IF.HwLock.unlock();
  writeCompletedRecords(Done);
}

void HardwareCounters::onContextDestroy(CUcontext Ctx) {
  Flusher.forget(Ctx);
  std::unique_ptr<HwContext> C;
  {
    std::lock_guard<std::mutex> L(M);
    auto It = Ctxs.find(Ctx);
    if (It == Ctxs.end())
      return;
    C = std::move(It->second);
    Ctxs.erase(It);
  }
  std::vector<LaunchRecord> Done;
  {
    std::lock_guard<std::mutex> L(C->M);
    if (Sessions) // its session and round closed, their records completed
      Sessions->closeContext(*C, Done);
    if (C->Target.enabled())
      C->Target.disable();
    for (auto &[Mask, Cfg] : C->Configs)
      if (Cfg->Host.initialized())
        Cfg->Host.deinitialize();
    if (Sessions)
      Sessions->releaseContext(*C);
  }
  writeCompletedRecords(Done);
}

/// At exit nothing is torn down (the driver may already be); a launch of
/// another thread still inside its range loses its counters, said once.
void HardwareCounters::onFinish() {
  CounterHost &T = *Host;
  if (Sessions)
    Sessions->closeAll(); // and pass replay's rounds
  CounterReplay &R = replay();
  R.noteFinish(Ranges, true);
  if (Ranges && T.P) {
    noteRanges();
    R.noteFinish(Ranges, false);
  }
  noteTypeCache();
  std::lock_guard<std::mutex> L(M);
  size_t Busy = 0;
  for (auto &[Ctx, C] : Ctxs) {
    if (C->M.try_lock())
      C->M.unlock();
    else
      ++Busy;
  }
  if (Busy && T.P) {
    std::string Msg = "the process exited while " + std::to_string(Busy) +
                      " launch(es) were inside a hardware-counter range; "
                      "their counters are lost";
    logLine("%s", Msg.c_str());
    T.P->note(Msg);
  }
}

/// The notes of the kernel-replay ranges: host time per range, ranges by
/// passes, fresh objects, where configure+start goes.
void HardwareCounters::noteRanges() {
  CounterHost &T = *Host;
  char Buf[512];
  snprintf(Buf, sizeof Buf,
           "hardware counters: %llu ranges; host time per range: %.2f ms "
           "configure+start, %.2f ms launch with replay, %.2f ms "
           "stop+decode+evaluate",
           (unsigned long long)Ranges.load(), EnterNs / 1e6 / Ranges, LaunchNs / 1e6 / Ranges,
           ExitNs / 1e6 / Ranges);
  std::string Msg = Buf;
  {
    std::lock_guard<std::mutex> L(M);
    if (!RangesByPasses.empty()) {
      Msg += "; ranges by replay passes:";
      for (auto &[Passes, N] : RangesByPasses)
        Msg += " " + std::to_string(N) + " x " + std::to_string(Passes);
      Msg += "; range profiler re-created " + std::to_string(Reenables.load()) +
             " times (pass count or counter set changed)";
      if (Kernel->ListRecreates)
        Msg += ", " + std::to_string(Kernel->ListRecreates.load()) +
               " of them for a list outside the object's first";
      if (Reenables) {
        snprintf(Buf, sizeof Buf, ", %.1f ms each with its first Start",
                 double(ReenableNs.load()) / 1e6 / double(Reenables.load()));
        Msg += Buf;
      }
    }
  }
  T.P->note(Msg);
  if (T.S.Verbose >= 1)
    logLine("%s", Msg.c_str());
  auto Ms = [](uint64_t Ns, uint64_t N) { return N ? double(Ns) / 1e6 / double(N) : 0.0; };
  uint64_t Same = Ranges - SetNews;
  snprintf(Buf, sizeof Buf,
           "hardware counters: configure+start per range: %.2f ms counter-data "
           "sizing (%llu list changes, %.2f ms each), %.2f ms image init, "
           "SetConfig %.2f ms after a list change or new object (%llu), %.2f ms "
           "otherwise (%llu), %.2f ms Start",
           Ms(SizeNs, Ranges), (unsigned long long)Sizings.load(), Ms(SizeNs, Sizings),
           Ms(InitNs, Ranges), Ms(SetNewNs, SetNews), (unsigned long long)SetNews.load(),
           Ms(SetSameNs, Same), (unsigned long long)Same, Ms(StartNs, Ranges));
  T.P->note(Buf);
  if (T.S.Verbose >= 1)
    logLine("%s", Buf);
}

void HardwareCounters::noteTypeCache() {
  CounterHost &T = *Host;
  std::lock_guard<std::mutex> L(M);
  if (CacheOn) {
    // Saved before the busy check (onFinish): what was learned is complete
    // either way.
    std::string E = Cache.save();
    std::string Msg = "tensor-type cache " + Cache.path() + ": " + std::to_string(FromCache) +
                      " kernel(s) taken from it, " + std::to_string(Cache.puts()) +
                      " learned and " + (E.empty() ? "saved" : "not saved (" + E + ")");
    {
      std::lock_guard<std::mutex> LC(CodeM);
      char B[160];
      snprintf(B, sizeof B, "; code hashes of %llu module(s), %.1f MB, took %.1f ms",
               (unsigned long long)HashedModules, HashedBytes / 1e6, HashNs / 1e6);
      Msg += B;
    }
    if (!E.empty() || T.S.Verbose >= 1)
      logLine("%s", Msg.c_str());
    if (T.P && (FromCache || Cache.puts() || !E.empty()))
      T.P->note(Msg);
  }
}

} // namespace rt
} // namespace hroof
