//===- Injection.cpp - libhroof_rt.so: CUPTI injection, counter harvest ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Loaded into a CUDA application by CUDA_INJECTION64_PATH (the driver calls
// InitializeInjection from cuInit) or by linking it (a constructor calls the
// same function). It subscribes to the CUPTI callback API for the driver's
// kernel launch functions and to CONCURRENT_KERNEL activity records:
//
//  launch enter   CUfunction -> name (cuFuncGetName), module (cuFuncGetModule),
//                 __hroof_counters_<mangled> (cuModuleGetGlobal). Instrumented:
//                 lock that counter array (one launch of a kernel at a time),
//                 zero it on the launch's stream, read the integer arguments.
//  launch exit    copy the array back on the same stream, synchronize that
//                 stream, unlock; evaluate the embedded static model
//                 (__hroof_model, read once per module) with the launch's
//                 grid, block and arguments.
//  activity       duration, grid, block of every kernel (instrumented or not),
//                 matched to the launch by CUPTI correlation id.
//  every FlushMs  completed activity records delivered (ActivityFlusher.h), so
//                 launch records are written as they complete.
//  atexit         cuptiActivityFlushAll, then the profile's final write.
//
// Rules: never exit or abort the application; any error prints one line
// "hroof: ..." and switches off what failed (counting, or the whole runtime);
// the application's own calls and results are never changed.
//
// Hardware counters (docs/runtime.md "Hardware counters"): the CUPTI range
// profiler, auto range + kernel replay, one range per selected launch
// (HardwareCounters.h): enabled per context at its first profiled launch,
// started at launch enter, stopped, decoded and evaluated at launch exit; the
// values become the launch record's "counters" (HwMetrics.h).
//
// This file: the state (Runtime), the CUPTI callback dispatch, init and
// finish. Launches.cpp handles the launches, Activity.cpp the activity
// records (Injection.h lists the parts).
//===----------------------------------------------------------------------===//
#include "Injection.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>

namespace hroof {
namespace rt {

Runtime &rt() {
  static Runtime *R = new Runtime; // never destroyed: used from atexit
  return *R;
}

bool selectedName(const std::string &Mangled) {
  Runtime &T = rt();
  if (T.Filter.empty())
    return true;
  std::lock_guard<std::mutex> L(T.M);
  auto It = T.NameSelected.find(Mangled);
  if (It != T.NameSelected.end())
    return It->second;
  bool S = T.Filter.matches(Mangled, demangle(Mangled));
  T.NameSelected[Mangled] = S;
  return S;
}

bool noteIssued(uint32_t Correlation, IssueKind Kind, std::string &Range) {
  Runtime &T = rt();
  bool Track = T.Ranges.active() || !T.RangeFilter.empty();
  if (!Track && Kind != IssueKind::Transfer)
    return true;
  Issued I;
  I.Kind = Kind;
  if (Track)
    I.Range = T.Ranges.path(threadId());
  std::lock_guard<std::mutex> L(T.M);
  if (!T.RangeFilter.empty()) {
    auto It = T.RangeSelected.find(I.Range);
    if (It == T.RangeSelected.end()) {
      if (T.RangeSelected.size() > 65536)
        T.RangeSelected.clear();
      bool Selected = T.RangeFilter.matches(I.Range, I.Range);
      bool Timing = !Selected && !T.TimingFilter.empty() && T.TimingFilter.matches(I.Range, I.Range);
      It = T.RangeSelected.emplace(I.Range, std::make_pair(Selected, Timing)).first;
    }
    I.Selected = It->second.first;
    I.Timing = It->second.second;
    if (Kind != IssueKind::Transfer)
      ++(I.Selected ? T.LaunchesInRange : T.LaunchesOutOfRange);
  }
  if (T.IssuedByCorrelation.size() >= IssuedLimit)
    T.IssuedByCorrelation.clear();
  Range = I.Range;
  bool Selected = I.Selected;
  T.IssuedByCorrelation[Correlation] = std::move(I);
  return Selected;
}

/// HROOF_TIMING_RANGE: only beside HROOF_RANGE (without it every launch is
/// profiled, and none is left to time).
static void setupTimingRange(Runtime &T) {
  if (T.S.TimingRange.empty())
    return;
  if (T.RangeFilter.empty()) {
    std::string Why = "HROOF_TIMING_RANGE is ignored without HROOF_RANGE (every launch is "
                      "profiled)";
    logLine("%s", Why.c_str());
    T.P->note(Why);
    return;
  }
  std::string E = T.TimingFilter.set(T.S.TimingRange, "HROOF_TIMING_RANGE");
  if (!E.empty()) {
    logLine("%s", E.c_str());
    return;
  }
  T.P->setTimingFilter(T.S.TimingRange);
}

void markIssuedReplayed(uint32_t Correlation) {
  Runtime &T = rt();
  std::lock_guard<std::mutex> L(T.M);
  auto It = T.IssuedByCorrelation.find(Correlation);
  if (It != T.IssuedByCorrelation.end())
    It->second.Replayed = true;
}

std::optional<Issued> takeIssued(uint32_t Correlation, std::initializer_list<IssueKind> Kinds) {
  Runtime &T = rt();
  std::lock_guard<std::mutex> L(T.M);
  auto It = T.IssuedByCorrelation.find(Correlation);
  if (It == T.IssuedByCorrelation.end() ||
      std::find(Kinds.begin(), Kinds.end(), It->second.Kind) == Kinds.end())
    return std::nullopt;
  Issued I = It->second;
  if (I.Kind != IssueKind::Graph)
    T.IssuedByCorrelation.erase(It);
  return I;
}

void finalize(PendingLaunch &&PL) {
  Runtime &T = rt();
  if (!PL.R.Collective)
    PL.R.Collective = T.Ranges.takeCollective(PL.R.Correlation);
  // HROOF_REPLAY=application: a record waits for its counters' other groups.
  if (T.Hw.replay().hold(PL.R))
    return;
  if (T.P)
    for (LaunchRecord &R : T.Hw.Loans.settle(std::move(PL.R)))
      T.P->addLaunch(R);
  T.reportWriteError();
}

//===--- Resources, callback entry, init and finish ------------------------===//

void onContextCreated(CUcontext Ctx) {
  Runtime &T = rt();
  CUdevice Dev;
  if (cuCtxPushCurrent(Ctx) != CUDA_SUCCESS)
    return;
  if (cuCtxGetDevice(&Dev) == CUDA_SUCCESS) {
    char Name[256] = {0};
    int Major = 0, Minor = 0, Sms = 0;
    cuDeviceGetName(Name, sizeof Name, Dev);
    cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev);
    cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev);
    cuDeviceGetAttribute(&Sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev);
    if (T.P)
      T.P->addDevice(deviceToJson(int(Dev), Name, Major, Minor, Sms));
  }
  CUcontext Old;
  cuCtxPopCurrent(&Old);
}

/// CUPTI names the unloaded module by id, not handle: forget every cached
/// function and module (they are looked up again at their next launch), so a
/// reused handle never finds stale counters. Array locks stay.
void onModuleUnload() {
  Runtime &T = rt();
  std::lock_guard<std::mutex> L(T.M);
  T.Modules.clear();
  T.Funcs.clear();
}

void finish();

/// A destroyed context's functions: its address may be reused by a new
/// context, whose kernels must not find the old counter arrays, nor their
/// sum buffers (no launch of the context is in flight: their locks are free).
void forgetContext(CUcontext Ctx) {
  Runtime &T = rt();
  std::lock_guard<std::mutex> L(T.M);
  for (auto It = T.Funcs.begin(); It != T.Funcs.end();)
    It = It->first.second == Ctx ? T.Funcs.erase(It) : std::next(It);
  for (auto &[Ptr, A] : T.Arrays)
    if (A->SumCtx == Ctx) {
      A->SumCtx = nullptr;
      A->Sum = {};
      A->SumProblem.clear();
      A->Zeroed = false;
    }
}

/// Driver API callbacks of the application's copies and memsets (named
/// cuMemcpy* / cuMemset*), enabled at init.
std::vector<bool> &transferCallbacks() {
  static std::vector<bool> Ids(CUPTI_DRIVER_TRACE_CBID_SIZE, false);
  return Ids;
}

/// The name of a driver API that shares device memory with another process
/// (another process may write it while kernel replay restores it), or null.
const char *memorySharingApi(CUpti_CallbackId Id) {
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuIpcGetMemHandle: return "cuIpcGetMemHandle";
  case CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle:
  case CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2: return "cuIpcOpenMemHandle";
  case CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle: return "cuMemExportToShareableHandle";
  case CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle:
    return "cuMemImportFromShareableHandle";
  default: return nullptr;
  }
}

void CUPTIAPI callback(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Id, const void *Data) {
  Runtime &T = rt();
  if (!T.Active || T.Finished)
    return;
  try {
    if (Domain == CUPTI_CB_DOMAIN_NVTX) {
      onNvtx(Id, static_cast<const CUpti_NvtxData *>(Data));
    } else if (Domain == CUPTI_CB_DOMAIN_DRIVER_API) {
      const auto *CB = static_cast<const CUpti_CallbackData *>(Data);
      std::string Range;
      if (Id < transferCallbacks().size() && transferCallbacks()[Id]) {
        if (CB->callbackSite == CUPTI_API_ENTER && !InOwnDriverCalls)
          noteIssued(CB->correlationId, IssueKind::Transfer, Range);
        return;
      }
      if (Id == CUPTI_DRIVER_TRACE_CBID_cuLaunch || Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid ||
          Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync ||
          Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice) {
        // Launches the runtime does not decode (legacy and multi-device
        // APIs): not profiled, but their kernels may add to a counter array
        // whose slots a sum left zero, so arrays are zeroed before each
        // counted launch from now on (as after a graph launch).
        T.UnseenLaunches = true;
        if (T.Hw.replay().batchesOpen() && CB->callbackSite == CUPTI_API_ENTER)
          T.Hw.replay().closeBatch(CB->context); // kernels it cannot count
        return;
      }
      if (const char *Api = memorySharingApi(Id)) {
        bool Ok = !CB->functionReturnValue ||
                  *static_cast<const CUresult *>(CB->functionReturnValue) == CUDA_SUCCESS;
        if (CB->callbackSite == CUPTI_API_EXIT && Ok)
          T.Hw.toApplicationReplay(std::string(Api) + " shares device memory with another process");
        return;
      }
      if (Id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
          Id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
        if (CB->callbackSite == CUPTI_API_ENTER) {
          if (T.Hw.replay().batchesOpen()) // a graph's kernels: not one range each it knows of
            T.Hw.replay().closeBatch(CB->context);
          T.UnseenLaunches = true; // counter arrays: zeroed before each launch
          noteIssued(CB->correlationId, IssueKind::Graph, Range);
        } else
          onGraphLaunch();
        return;
      }
      // Application replay's batched session: every kernel is one of its
      // ranges (GroupSession.cpp); a launch that failed runs in none (one
      // with a session range of its own: sessionExit).
      if (T.Hw.replay().batchesOpen() && CB->callbackSite == CUPTI_API_ENTER) {
        T.Hw.replay().launchIssued(CB->context, CB->correlationId, Id, CB->functionParams);
      } else if (T.Hw.replay().batchesOpen() && !InOwnDriverCalls && CB->functionReturnValue &&
                 *static_cast<const CUresult *>(CB->functionReturnValue) != CUDA_SUCCESS) {
        // A launch with a range of its own: in a session, sessionExit drops
        // it; a kernel-replay range holds the context's M and closed its
        // session when it began (nothing to drop, and locking would hang).
        const auto *IF = reinterpret_cast<const InFlight *>(*CB->correlationData);
        if (!IF || (!IF->HwSession && !IF->Hw))
          T.Hw.replay().launchFailed(CB->context, CB->correlationId);
      }
      if (InOwnDriverCalls)
        return; // the runtime's own kernel (counter sum, L2 flush of cache-control all)
      if (CB->callbackSite == CUPTI_API_ENTER)
        onLaunchEnter(Id, CB);
      else
        onLaunchExit(CB);
    } else if (Domain == CUPTI_CB_DOMAIN_RESOURCE) {
      const auto *RD = static_cast<const CUpti_ResourceData *>(Data);
      (void)RD;
      if (Id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
        onContextCreated(RD->context);
      else if (Id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
        T.Hw.onContextDestroy(RD->context);
        T.Summer.forget(RD->context);
        forgetContext(RD->context);
      } else if (Id == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING)
        onModuleUnload();
      else if (Id == CUPTI_CBID_RESOURCE_MODULE_LOADED && RD->resourceDescriptor)
        T.Hw.onModuleLoaded(*static_cast<const CUpti_ModuleResourceData *>(RD->resourceDescriptor));
    }
  } catch (const std::exception &E) {
    T.disable(std::string("internal error: ") + E.what());
  } catch (...) {
    T.disable("internal error");
  }
}

void finish() {
  Runtime &T = rt();
  {
    std::lock_guard<std::mutex> L(T.InitLock);
    if (!T.Initialized || T.Finished)
      return;
  }
  T.Flusher.stop();
  if (T.Sub)
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  T.Hw.onFinish();
  std::vector<PendingLaunch> Left;
  {
    std::lock_guard<std::mutex> L(T.M);
    for (auto &[Corr, PL] : T.Pending)
      if (PL.HaveCallback || PL.HaveActivity)
        Left.push_back(std::move(PL));
    T.Pending.clear();
  }
  size_t Untimed = 0;
  for (PendingLaunch &PL : Left) {
    Untimed += !PL.HaveActivity;
    finalize(std::move(PL));
  }
  // Launches past the per-shape limit whose lender wrote no counters.
  std::vector<LaunchRecord> Unlent = T.Hw.Loans.drain();
  if (T.P && !Unlent.empty()) {
    for (const LaunchRecord &R : Unlent)
      T.P->addLaunch(R);
    T.P->note("per-shape sampling: " + std::to_string(Unlent.size()) +
              " launch record(s) without counters (the launch of equal work they were to "
              "carry counters from wrote none)");
  }
  // Records still missing one-pass groups: written with what they have and
  // counters_incomplete, never silently partial.
  std::vector<LaunchRecord> Incomplete = T.Hw.replay().takeIncomplete();
  if (T.P && !Incomplete.empty()) {
    for (const LaunchRecord &R : Incomplete)
      T.P->addLaunch(R);
    std::string Why = "application replay: " + std::to_string(Incomplete.size()) +
                      " record(s) written with counters_incomplete (their shape ran too few "
                      "times to collect every one-pass group)";
    logLine("%s", Why.c_str());
    T.P->note(Why);
  }
  NvtxRanges::Stats RS = T.Ranges.stats();
  if (T.P && RS.UnbalancedPops)
    T.P->note(std::to_string(RS.UnbalancedPops) + " NVTX pop(s) with no open range (ignored)");
  if (T.P && RS.UnknownEnds)
    T.P->note(std::to_string(RS.UnknownEnds) + " NVTX range end(s) of an unknown id (ignored)");
  if (T.P && RS.UnknownStrings)
    T.P->note(std::to_string(RS.UnknownStrings) +
              " NVTX message(s) naming an unregistered string handle");
  if (T.P && (RS.DroppedTooDeep || RS.DroppedStartEnd))
    T.P->note("NVTX ranges past the depth limit not followed: " +
              std::to_string(RS.DroppedTooDeep + RS.DroppedStartEnd));
  if (T.P && !T.RangeFilter.empty() && !T.LaunchesInRange) {
    std::string Why = "HROOF_RANGE='" + T.S.Range + "' matched no launch (" +
                      std::to_string(T.LaunchesOutOfRange) +
                      " launched outside it; NVTX ranges reach the runtime only when "
                      "NVTX_INJECTION64_PATH names it, as hroof run does)";
    logLine("%s", Why.c_str());
    T.P->note(Why);
  }
  if (std::string C = hostCostNote(); T.P && !C.empty())
    T.P->note(C);
  if (T.P && T.TransfersNotAttributed)
    T.P->note(std::to_string(T.TransfersNotAttributed) +
              " copy/memset record(s) of no copy call seen by the runtime (its own, or "
              "internal to CUPTI) left out");
  if (Untimed && T.P)
    T.P->note(std::to_string(Untimed) +
              " counted launch(es) have no duration: "
              "CUPTI delivered no activity record for them (a kernel fault "
              "or the process ending first)");
  T.Finished = true;
  if (T.P) {
    T.P->finish();
    T.reportWriteError();
  }
}

void atExit() {
  try {
    finish();
  } catch (...) {
    // A finish that threw must still leave the runtime inert: CUPTI
    // callbacks of the driver's teardown would otherwise run in full.
    Runtime &T = rt();
    T.Finished = true;
    T.Active = false;
  }
}

/// NVTX callbacks, the copy and memset calls and their activity records:
/// a failure costs that feature only (one note), never the runtime.
void enableRangesAndTransfers() {
  Runtime &T = rt();
  CUptiResult R = cuptiEnableDomain(1, T.Sub, CUPTI_CB_DOMAIN_NVTX);
  if (R != CUPTI_SUCCESS)
    T.noteOnce("NVTX callbacks unavailable (" + cuptiErr(R) + "): no range paths");
  for (uint32_t Id = 1; Id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++Id) {
    const char *Name = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, Id, &Name) != CUPTI_SUCCESS || !Name)
      continue;
    if (std::strncmp(Name, "cuMemcpy", 8) && std::strncmp(Name, "cuMemset", 8))
      continue;
    if (cuptiEnableCallback(1, T.Sub, CUPTI_CB_DOMAIN_DRIVER_API, Id) == CUPTI_SUCCESS)
      transferCallbacks()[Id] = true;
  }
  for (CUpti_ActivityKind K :
       {CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET})
    if ((R = cuptiActivityEnable(K)) != CUPTI_SUCCESS)
      T.noteOnce("copy/memset activity " + std::to_string(int(K)) + " unavailable (" + cuptiErr(R) +
                 ")");
}

/// Driver APIs that are only watched; a CUPTI that refuses one costs nothing
/// else. Legacy launches: counter arrays are zeroed from then on. Memory
/// shared with other processes: kernel replay stops (toApplicationReplay).
void enableWatchedApis() {
  Runtime &T = rt();
  for (CUpti_CallbackId Id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunch, CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernelMultiDevice,
        CUPTI_DRIVER_TRACE_CBID_cuIpcGetMemHandle, CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle,
        CUPTI_DRIVER_TRACE_CBID_cuIpcOpenMemHandle_v2,
        CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle,
        CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle})
    cuptiEnableCallback(1, T.Sub, CUPTI_CB_DOMAIN_DRIVER_API, Id);
}

int initialize() {
  Runtime &T = rt();
  std::lock_guard<std::mutex> L(T.InitLock);
  if (T.Initialized)
    return 1;
  T.Initialized = true;
  T.S = Settings::fromEnvironment();
  for (const std::string &Pr : T.S.Problems)
    logLine("%s", Pr.c_str());
  if (!T.S.Enable)
    return 1;
  std::string FE = T.Filter.set(T.S.KernelFilter);
  if (!FE.empty())
    logLine("%s", FE.c_str());
  std::string RE = T.RangeFilter.set(T.S.Range, "HROOF_RANGE");
  if (!RE.empty())
    logLine("%s", RE.c_str());
  T.P = std::make_unique<Profile>(T.S.LaunchLimit, T.S.FlushMs);
  setupTimingRange(T);
  // Header.
  std::string Cmd;
  {
    std::ifstream In("/proc/self/cmdline", std::ios::binary);
    std::string Arg;
    while (std::getline(In, Arg, '\0'))
      Cmd += (Cmd.empty() ? "" : " ") + Arg;
  }
  char Host[256] = {0};
  gethostname(Host, sizeof Host - 1);
  std::string Rank = rankFromEnvironment();
  ProfileHeader PH{long(getpid()), Rank, Host, Cmd, rtEnvText(RtEnv::RunId),
                   long(std::time(nullptr))};
  nlohmann::json H = headerToJson(PH, T.S);
  H.update(distributedFromEnvironment());
  setLogTimes(T.S.Verbose >= 2);
  std::string Path = profilePath(T.S.Output, long(getpid()), Rank);
  std::string E = T.P->open(Path, H);
  if (!E.empty())
    logLine("%s; profiling goes on without a file", E.c_str());
  else if (T.S.Verbose >= 1)
    logLine("profile: %s", Path.c_str());
  for (const std::string &Pr : T.S.Problems)
    T.P->note(Pr);
  if (!FE.empty())
    T.P->note(FE);
  if (!RE.empty())
    T.P->note(RE);

  CUptiResult R = cuptiSubscribe(&T.Sub, callback, nullptr);
  if (R != CUPTI_SUCCESS) {
    T.Sub = nullptr;
    std::string Why = R == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                          ? "another CUPTI client is attached (Nsight Compute, "
                            "Nsight Systems, a framework profiler such as Kineto)"
                          : cuptiErr(R);
    logLine("cannot subscribe to CUPTI: %s; the runtime switches itself off", Why.c_str());
    T.P->note("cannot subscribe to CUPTI: " + Why);
    T.P->finish();
    return 1;
  }
  CUpti_CallbackId Launches[] = {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                                 CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                 CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                                 CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                                 CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                                 CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
                                 CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
                                 CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz};
  std::string Fail;
  for (CUpti_CallbackId Id : Launches)
    if ((R = cuptiEnableCallback(1, T.Sub, CUPTI_CB_DOMAIN_DRIVER_API, Id)) != CUPTI_SUCCESS)
      Fail = "enabling launch callbacks: " + cuptiErr(R);
  enableWatchedApis();
  for (CUpti_CallbackId Id :
       {CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
        CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING, CUPTI_CBID_RESOURCE_MODULE_LOADED})
    if ((R = cuptiEnableCallback(1, T.Sub, CUPTI_CB_DOMAIN_RESOURCE, Id)) != CUPTI_SUCCESS)
      Fail = "enabling resource callbacks: " + cuptiErr(R);
  if (Fail.empty() &&
      (R = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted)) != CUPTI_SUCCESS)
    Fail = "registering activity buffers: " + cuptiErr(R);
  if (Fail.empty() &&
      (R = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) != CUPTI_SUCCESS)
    Fail = "enabling kernel activity: " + cuptiErr(R);
  if (Fail.empty())
    enableRangesAndTransfers();
  if (!Fail.empty()) {
    logLine("%s; the runtime switches itself off", Fail.c_str());
    T.P->note(Fail);
    cuptiUnsubscribe(T.Sub);
    T.Sub = nullptr;
    T.P->finish();
    return 1;
  }
  if (T.S.FlushMs > 0) {
    cuptiActivityFlushPeriod(uint32_t(T.S.FlushMs));
    T.Flusher.start(T.S.FlushMs, [] { cuptiActivityFlushAll(0); });
  }
  T.Hw.onInit();
  T.Counting = T.S.Counting;
  T.Active = true;
  std::atexit(atExit);
  return 1;
}

} // namespace rt
} // namespace hroof

using namespace hroof::rt;

extern "C" {

/// Called by the CUDA driver (CUDA_INJECTION64_PATH) from cuInit; also by the
/// constructor below when the library is linked. Idempotent, thread-safe.
__attribute__((visibility("default"))) int InitializeInjection(void) {
  try {
    return initialize();
  } catch (const std::exception &E) {
    logLine("initialization failed: %s; the runtime switches itself off", E.what());
  } catch (...) {
    logLine("initialization failed; the runtime switches itself off");
  }
  return 1;
}

/// Writes the profile now (also done at exit). For applications that link the
/// library and want the file before they exit.
__attribute__((visibility("default"))) void hroof_rt_finish(void) { atExit(); }

} // extern "C"

/// Linked (not injected): initialize when the library is loaded. Under
/// CUDA_INJECTION64_PATH the driver's InitializeInjection call finds it done.
__attribute__((constructor)) static void hroofRtLoad() {
  const char *Inj = std::getenv("CUDA_INJECTION64_PATH");
  if (Inj && std::strstr(Inj, "libhroof_rt"))
    return; // the driver calls InitializeInjection from cuInit
  InitializeInjection();
}
