//===- Injection.cpp - libhroof_rt.so: CUPTI injection, counter harvest ---===//
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
//  atexit         cuptiActivityFlushAll, then the profile's final write.
//
// Rules: never exit or abort the application; any error prints one line
// "hroof: ..." and switches off what failed (counting, or the whole runtime);
// the application's own calls and results are never changed.
//
// Hardware counters (DESIGN.md "Hardware counters", docs/runtime.md): the
// CUPTI range profiler, auto range + kernel replay, one range per selected
// launch (HardwareCounters below): enabled per context at its first profiled
// launch, started at launch enter, stopped, decoded and evaluated at launch
// exit; the values become the launch record's "counters" (HwMetrics.h).
//===----------------------------------------------------------------------===//
#include "HwMetrics.h"
#include "Profile.h"
#include "ReplayPolicy.h"
#include "TypeCache.h"

#include "hroof/CounterLayout.h"
#include "hroof/StaticModel.h"

#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

using namespace hroof;
using namespace hroof::rt;

namespace {

constexpr const char *CounterPrefix = "__hroof_counters_";
constexpr const char *ModelSymbol = "__hroof_model";
constexpr size_t CounterBytes = sizeof(uint64_t) * NumCounters;

void logLine(const char *Fmt, ...) {
  char Buf[1024];
  va_list Ap;
  va_start(Ap, Fmt);
  vsnprintf(Buf, sizeof Buf, Fmt, Ap);
  va_end(Ap);
  std::fprintf(stderr, "hroof: %s\n", Buf);
}

const char *cuErr(CUresult R) {
  const char *S = nullptr;
  if (cuGetErrorName(R, &S) != CUDA_SUCCESS || !S)
    return "unknown CUDA error";
  return S;
}

std::string cuptiErr(CUptiResult R) {
  const char *S = nullptr;
  if (cuptiGetResultString(R, &S) != CUPTI_SUCCESS || !S)
    return "CUPTI error " + std::to_string(int(R));
  return S;
}

uint64_t threadId() { return uint64_t(::syscall(SYS_gettid)); }

uint64_t nowNs() {
  timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return uint64_t(Ts.tv_sec) * 1000000000ull + uint64_t(Ts.tv_nsec);
}

/// One module's embedded static model, read once.
struct ModuleInfo {
  std::shared_ptr<StaticModule> Model; ///< null when absent or unreadable
  std::string Problem;                 ///< why there is no model
};

/// What the runtime knows about one CUfunction, computed at its first launch.
struct FuncInfo {
  std::string Mangled, Name;
  bool Selected = true;        ///< passes the kernel filter
  bool Instrumented = false;   ///< has a counter array
  CUdeviceptr Counters = 0;
  /// Copies of the counter array (the pass spreads warps' atomics over
  /// slots by SM to avoid contention); the counts are their sum.
  size_t CounterSlots = 1;
  CUmodule Module = nullptr;
  std::shared_ptr<ModuleInfo> Mod;
  const KernelModel *Model = nullptr; ///< in Mod->Model
  std::string ModelProblem;
  std::vector<std::pair<size_t, size_t>> Params; ///< offset, size (ABI)
  std::string ParamProblem;
  std::mutex *ArrayLock = nullptr;
  /// Static totals already evaluated, by launch shape and integer arguments:
  /// training loops repeat the same launches, and a thread-by-thread
  /// evaluation can take seconds. Bounded (StaticCacheLimit entries).
  std::mutex StaticCacheLock;
  std::map<std::string, std::pair<std::optional<TotalVector>, std::string>> StaticCache;
};
constexpr size_t StaticCacheLimit = 1024;

/// Carried from launch enter to launch exit (cbdata->correlationData).
struct HwContext;
struct HwConfig;

/// Every tensor type metric (a mask over tensorTypeMetrics()).
const unsigned AllTypes = (1u << tensorTypeMetrics().size()) - 1;

/// A kernel's learned tensor types, and the same as a mask over
/// tensorTypeMetrics() (the key of its context's HwConfig); Code: the
/// kernel's code hash, its key in the tensor-type cache (0: unknown).
struct LearnedTypes {
  TensorTypes Types;
  unsigned Mask = 0;
  uint64_t Code = 0;
};

std::shared_ptr<const LearnedTypes> makeLearned(TensorTypes Types, uint64_t Code) {
  auto LT = std::make_shared<LearnedTypes>();
  LT->Types = std::move(Types);
  LT->Code = Code;
  for (size_t I = 0; I < tensorTypeMetrics().size(); ++I)
    if (LT->Types.Types.count(tensorTypeMetrics()[I]))
      LT->Mask |= 1u << I;
  return LT;
}

struct InFlight {
  std::shared_ptr<FuncInfo> F;
  CUstream Stream = nullptr;
  CUcontext Ctx = nullptr;
  bool PerThread = false;             ///< a _ptsz launch
  bool Counted = false;               ///< dynamic counts are read at exit
  std::unique_lock<std::mutex> Lock;  ///< the counter array (Counted only)
  HwContext *Hw = nullptr;            ///< a range is open on this context
  int Device = -1;                    ///< the context's device (hardware counters)
  std::unique_lock<std::mutex> HwLock;
  HwConfig *HwCfg = nullptr;          ///< the metric list of the open range
  bool HwLearning = false;            ///< it collects every tensor type
  std::shared_ptr<const LearnedTypes> HwTypes; ///< else: the kernel's learned types
  uint64_t HwCode = 0;                ///< learning: the kernel's code hash (0: unknown)
  size_t HwPasses = 0;                ///< passes the range is replayed with
  uint64_t HwT = 0;                   ///< when the range was started
  LaunchRecord R;
  LaunchShape Shape;
  EvalEnv Env;
  std::string ArgProblem;
};

/// A launch waiting for its other half (callback counts / activity timing).
struct PendingLaunch {
  LaunchRecord R;
  bool HaveCallback = false, HaveActivity = false;
};

/// One metric list of a context: a host object configured with it (for
/// evaluation), its config image and a counter-data image for one range.
struct HwConfig {
  std::vector<std::string> Metrics;
  std::vector<const char *> Names; ///< c_str() of Metrics
  CUpti_Profiler_Host_Object *Host = nullptr;
  std::vector<uint8_t> Config, Data;
  size_t Passes = 0;
};

/// One context's range profiler: enabled at the context's first profiled
/// launch; one range (one launch) at a time, under M. One HwConfig per
/// metric list in use (all tensor types, or a kernel's learned ones).
struct HwContext {
  std::mutex M;
  bool Ready = false, Failed = false;
  int Device = -1;
  std::string Chip;
  std::vector<uint8_t> Avail;       ///< counter availability image
  CUpti_RangeProfiler_Object *Obj = nullptr;
  std::vector<std::string> Metrics; ///< those the device has
  /// By mask of the tensor type metrics it has (all of them: every type).
  std::map<unsigned, std::unique_ptr<HwConfig>> Configs;
  HwConfig *DataCfg = nullptr; ///< the list Obj last sized counter data for
  size_t ObjPasses = 0; ///< pass count of the configs Obj runs (0: none yet)
  ReplayPolicy Policy;  ///< when Obj is re-created for fewer passes
};

/// The CUPTI range profiler (cupti_range_profiler.h + cupti_profiler_host.h):
/// auto range, kernel replay, one range per launch. Any failure switches the
/// hardware counters off with one message; durations and dynamic counts go
/// on. Defined after rt().
struct HardwareCounters {
  std::atomic<bool> Enabled{false};
  CountersSetting Set;
  int64_t Limit = 0;
  std::mutex M; ///< guards the maps
  std::unordered_map<CUcontext, std::unique_ptr<HwContext>> Ctxs;
  std::unordered_map<std::string, int64_t> Taken; ///< per mangled name
  /// Tensor types learned per mangled name (Set.LearnTensorTypes).
  std::unordered_map<std::string, std::shared_ptr<const LearnedTypes>> Learned;
  std::map<size_t, uint64_t> RangesByPasses;
  bool RelearnReported = false;
  std::unordered_set<uint32_t> Done; ///< finalized ranges' correlation ids (Runtime::M)
  bool DroppedReported = false;
  bool ProfilerInitDone = false;
  std::atomic<uint64_t> EnterNs{0}, LaunchNs{0}, ExitNs{0}, Ranges{0};
  /// Where configure+start goes (the finish note, --verbose 1): counter-data
  /// sizing (list changes), image init, SetConfig after a list change or a
  /// new object vs with the same list, Start.
  std::atomic<uint64_t> SizeNs{0}, InitNs{0}, SetNewNs{0}, SetSameNs{0}, StartNs{0};
  std::atomic<uint64_t> Sizings{0}, SetNews{0};
  std::atomic<uint64_t> Reenables{0}; ///< range profiler objects re-created
  std::atomic<uint64_t> ReenableNs{0};
  /// Learned types kept across runs (TypeCache.h), under M; CacheOn is set
  /// once in onInit. CodeHash: the code hash of each function name seen in a
  /// loaded cubin (0: two different codes under that name), under CodeM.
  bool CacheOn = false;
  TensorTypeCache Cache;
  uint64_t FromCache = 0;
  std::mutex CodeM;
  std::unordered_map<std::string, uint64_t> CodeHash;
  uint64_t HashNs = 0, HashedModules = 0, HashedBytes = 0; ///< under CodeM
  void onModuleLoaded(const CUpti_ModuleResourceData &MD);
  uint64_t codeHash(const std::string &Mangled);
  std::string ProfilerInitProblem;

  void onInit();
  /// Whether this launch of \p F gets a range (counts it against the limit).
  bool take(const FuncInfo &F);
  /// Opens the range (context setup on first use). False: no range.
  bool onLaunchEnter(InFlight &IF);
  /// Closes the range and fills IF.R.Hw or IF.R.HwProblem.
  void onLaunchExit(InFlight &IF, CUresult LaunchResult);
  void onContextDestroy(CUcontext Ctx);
  void onFinish();
  void off(const std::string &Why);
  std::string setup(HwContext &C, CUcontext Ctx);
  std::string setupContext(HwContext &C, CUcontext Ctx);
  /// The context's HwConfig with the tensor types of \p TypeMask (a mask
  /// over tensorTypeMetrics()), made at first use ("" or why not).
  std::string config(HwContext &C, unsigned TypeMask, HwConfig *&Out);
};

struct Runtime {
  std::mutex InitLock;
  bool Initialized = false;
  std::atomic<bool> Active{false};    ///< callbacks do work
  std::atomic<bool> Counting{false};  ///< dynamic counting still on
  std::atomic<bool> Finished{false};
  Settings S;
  KernelFilter Filter;
  std::unique_ptr<Profile> P;
  CUpti_SubscriberHandle Sub = nullptr;
  HardwareCounters Hw;

  std::mutex M; ///< guards the maps below
  std::unordered_map<CUfunction, std::shared_ptr<FuncInfo>> Funcs;
  std::unordered_map<CUmodule, std::shared_ptr<ModuleInfo>> Modules;
  std::unordered_map<uint32_t, PendingLaunch> Pending;
  std::unordered_map<CUdeviceptr, std::unique_ptr<std::mutex>> ArrayLocks;
  std::unordered_map<std::string, bool> NameSelected;
  std::unordered_set<std::string> InstrumentedNames;

  void disable(const std::string &Why) {
    if (Active.exchange(false))
      logLine("%s; the runtime switches itself off (the application goes on)",
              Why.c_str());
    if (P)
      P->note("runtime disabled: " + Why);
  }
  void stopCounting(const std::string &Why) {
    if (Counting.exchange(false)) {
      logLine("%s", Why.c_str());
      if (P)
        P->note(Why);
    }
  }
  void reportWriteError() {
    if (P) {
      std::string E = P->takeWriteError();
      if (!E.empty())
        logLine("%s", E.c_str());
    }
  }
};

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

//===--- Hardware counters: the CUPTI range profiler ----------------------===//

const char *supportLevel(CUpti_Profiler_Support_Level L) {
  switch (L) {
  case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
    return "supported";
  case CUPTI_PROFILER_CONFIGURATION_DISABLED:
    return "disabled";
  case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
    return "unsupported";
  default:
    return "unknown";
  }
}

/// The message for a failed CUPTI profiler call, with the usual causes named.
std::string hwErr(const char *What, CUptiResult R) {
  std::string M = std::string(What) + ": " + cuptiErr(R);
  if (R == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
      R == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
    M = std::string("GPU performance counters are not permitted for this user (") +
        cuptiErr(R) + " in " + What +
        "; the driver restricts them to administrators: "
        "NVreg_RestrictProfilingToAdminUsers=0, or run as root; "
        "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
  else if (R == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ||
           R == CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED)
    M += " (another profiler, e.g. Nsight Compute, holds the counters)";
  return M;
}

void HardwareCounters::off(const std::string &Why) {
  Runtime &T = rt();
  if (Enabled.exchange(false)) {
    logLine("hardware counters off: %s (durations and dynamic counts go on)",
            Why.c_str());
    if (T.P)
      T.P->note("hardware counters off: " + Why);
  }
}

void HardwareCounters::onInit() {
  Runtime &T = rt();
  Set = parseCountersSetting(T.S.Counters);
  Limit = T.S.LaunchLimit;
  if (!Set.Problem.empty()) {
    logLine("%s; ignored", Set.Problem.c_str());
    if (T.P)
      T.P->note(Set.Problem);
  }
  // cuptiProfilerInitialize is called at the first profiled launch (setup):
  // inside cuInit, where InitializeInjection runs, it fails (seen on the H100:
  // CUPTI_ERROR_UNKNOWN).
  Enabled = Set.Enabled;
  if (Enabled && Set.LearnTensorTypes && T.S.TypeCache != "none") {
    std::string Path = T.S.TypeCache == "auto" ? defaultTypeCachePath() : T.S.TypeCache;
    std::string E = Path.empty() ? "no HOME or XDG_CACHE_HOME for the default place"
                                 : Cache.load(Path);
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

bool HardwareCounters::take(const FuncInfo &F) {
  std::lock_guard<std::mutex> L(M);
  int64_t &N = Taken[F.Mangled];
  if (N >= Limit)
    return false;
  ++N;
  return true;
}

std::string HardwareCounters::setup(HwContext &C, CUcontext Ctx) {
  Runtime &T = rt();
  {
    std::lock_guard<std::mutex> L(M);
    if (!ProfilerInitDone) {
      ProfilerInitDone = true;
      CUpti_Profiler_Initialize_Params P{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
      CUptiResult R = cuptiProfilerInitialize(&P);
      if (R != CUPTI_SUCCESS)
        ProfilerInitProblem = hwErr("cuptiProfilerInitialize", R);
    }
  }
  std::string E = setupContext(C, Ctx);
  if (!E.empty() && !ProfilerInitProblem.empty())
    E += " (after " + ProfilerInitProblem + ")";
  return E;
}

std::string HardwareCounters::setupContext(HwContext &C, CUcontext Ctx) {
  Runtime &T = rt();
  CUdevice Dev = 0;
  CUresult CR = cuCtxGetDevice(&Dev);
  if (CR != CUDA_SUCCESS)
    return std::string("cuCtxGetDevice: ") + cuErr(CR);
  C.Device = int(Dev);
  char DevName[256] = {0};
  cuDeviceGetName(DevName, sizeof DevName, Dev);
  CUpti_Profiler_DeviceSupported_Params DS{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  DS.cuDevice = Dev;
  DS.api = CUPTI_PROFILER_RANGE_PROFILING;
  CUptiResult R = cuptiProfilerDeviceSupported(&DS);
  if (R != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerDeviceSupported", R);
  if (DS.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
    std::string Why;
    auto Add = [&](const char *What, CUpti_Profiler_Support_Level L) {
      if (L != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        Why += std::string(Why.empty() ? "" : ", ") + What + " " + supportLevel(L);
    };
    Add("architecture", DS.architecture);
    Add("SLI", DS.sli);
    Add("vGPU", DS.vGpu);
    Add("confidential compute", DS.confidentialCompute);
    Add("CMP", DS.cmp);
    Add("WSL", DS.wsl);
    return "device " + std::to_string(Dev) + " (" + DevName +
           ") does not support the range profiler (" + Why + ")";
  }
  CUpti_Device_GetChipName_Params CN{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  CN.deviceIndex = size_t(Dev);
  if ((R = cuptiDeviceGetChipName(&CN)) != CUPTI_SUCCESS || !CN.pChipName)
    return hwErr("cuptiDeviceGetChipName", R);
  C.Chip = CN.pChipName;
  const std::string &Chip = C.Chip;
  CUpti_Profiler_GetCounterAvailability_Params CA{
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  CA.ctx = Ctx;
  if ((R = cuptiProfilerGetCounterAvailability(&CA)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerGetCounterAvailability", R);
  C.Avail.resize(CA.counterAvailabilityImageSize);
  CA.pCounterAvailabilityImage = C.Avail.data();
  if ((R = cuptiProfilerGetCounterAvailability(&CA)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerGetCounterAvailability", R);
  CUpti_Profiler_Host_Initialize_Params HI{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  HI.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  HI.pChipName = Chip.c_str();
  HI.pCounterAvailabilityImage = C.Avail.data();
  if ((R = cuptiProfilerHostInitialize(&HI)) != CUPTI_SUCCESS)
    return hwErr(("cuptiProfilerHostInitialize (chip " + Chip + ")").c_str(), R);
  // Metric names checked on this chip; the missing ones dropped, said once.
  std::string Dropped;
  for (const std::string &Name : Set.Metrics) {
    CUpti_Profiler_Host_GetMetricProperties_Params MP{
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    MP.pHostObject = HI.pHostObject;
    MP.pMetricName = Name.c_str();
    if (cuptiProfilerHostGetMetricProperties(&MP) == CUPTI_SUCCESS)
      C.Metrics.push_back(Name);
    else
      Dropped += (Dropped.empty() ? "" : ", ") + Name;
  }
  {
    CUpti_Profiler_Host_Deinitialize_Params D{
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    D.pHostObject = HI.pHostObject;
    cuptiProfilerHostDeinitialize(&D);
  }
  {
    std::lock_guard<std::mutex> L(M);
    if (!Dropped.empty() && !DroppedReported) {
      DroppedReported = true;
      std::string Msg = "hardware counters: not available on " + Chip +
                        ", dropped: " + Dropped;
      logLine("%s", Msg.c_str());
      if (T.P)
        T.P->note(Msg);
    }
  }
  if (C.Metrics.empty())
    return "none of the requested metrics exists on " + Chip;
  CUpti_RangeProfiler_Enable_Params EN{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  EN.ctx = Ctx;
  if ((R = cuptiRangeProfilerEnable(&EN)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerEnable", R);
  C.Obj = EN.pRangeProfilerObject;
  HwConfig *All = nullptr, *NoTypes = nullptr;
  if (std::string E = config(C, AllTypes, All); !E.empty())
    return E;
  std::string Passes = std::to_string(All->Passes) + " replay passes per launch";
  if (Set.LearnTensorTypes) {
    if (std::string E = config(C, 0, NoTypes); !E.empty())
      return E;
    Passes = std::to_string(All->Passes) +
             " replay passes at a kernel's first profiled launch (every tensor "
             "type), then " + std::to_string(NoTypes->Passes) +
             " plus those of the tensor types it used";
  }
  if (T.S.Verbose >= 1)
    logLine("hardware counters on device %d (%s, chip %s): %zu metrics, %s",
            int(Dev), DevName, Chip.c_str(), C.Metrics.size(), Passes.c_str());
  if (T.P)
    T.P->note("hardware counters: chip " + Chip + ", " +
              std::to_string(C.Metrics.size()) + " metrics, " + Passes);
  C.Ready = true;
  return "";
}

std::string HardwareCounters::config(HwContext &C, unsigned TypeMask,
                                     HwConfig *&Out) {
  auto &Slot = C.Configs[TypeMask];
  if (Slot) {
    Out = Slot.get();
    return "";
  }
  auto H = std::make_unique<HwConfig>();
  TensorTypes Types;
  for (size_t I = 0; I < tensorTypeMetrics().size(); ++I)
    if (TypeMask & (1u << I))
      Types.Types.insert(tensorTypeMetrics()[I]);
  H->Metrics = metricsForTypes(C.Metrics, Types);
  for (const std::string &Name : H->Metrics)
    H->Names.push_back(Name.c_str());
  CUptiResult R;
  CUpti_Profiler_Host_Initialize_Params HI{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  HI.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  HI.pChipName = C.Chip.c_str();
  HI.pCounterAvailabilityImage = C.Avail.data();
  if ((R = cuptiProfilerHostInitialize(&HI)) != CUPTI_SUCCESS) {
    C.Configs.erase(TypeMask);
    return hwErr(("cuptiProfilerHostInitialize (chip " + C.Chip + ")").c_str(), R);
  }
  H->Host = HI.pHostObject;
  HwConfig &X = *H;
  Slot = std::move(H); // owned from here on (torn down with the context)
  CUpti_Profiler_Host_ConfigAddMetrics_Params AM{
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  AM.pHostObject = X.Host;
  AM.ppMetricNames = X.Names.data();
  AM.numMetrics = X.Names.size();
  if ((R = cuptiProfilerHostConfigAddMetrics(&AM)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerHostConfigAddMetrics", R);
  CUpti_Profiler_Host_GetConfigImageSize_Params CS{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  CS.pHostObject = X.Host;
  if ((R = cuptiProfilerHostGetConfigImageSize(&CS)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerHostGetConfigImageSize", R);
  X.Config.resize(CS.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params CI{
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  CI.pHostObject = X.Host;
  CI.configImageSize = X.Config.size();
  CI.pConfigImage = X.Config.data();
  if ((R = cuptiProfilerHostGetConfigImage(&CI)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerHostGetConfigImage", R);
  CUpti_Profiler_Host_GetNumOfPasses_Params NP{
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  NP.configImageSize = X.Config.size();
  NP.pConfigImage = X.Config.data();
  X.Passes = cuptiProfilerHostGetNumOfPasses(&NP) == CUPTI_SUCCESS ? NP.numOfPasses : 0;
  CUpti_RangeProfiler_GetCounterDataSize_Params DSz{
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  DSz.pRangeProfilerObject = C.Obj;
  DSz.pMetricNames = X.Names.data();
  DSz.numMetrics = X.Names.size();
  DSz.maxNumOfRanges = 1;
  DSz.maxNumRangeTreeNodes = 1;
  if ((R = cuptiRangeProfilerGetCounterDataSize(&DSz)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerGetCounterDataSize", R);
  X.Data.resize(DSz.counterDataSize);
  C.DataCfg = &X;
  Out = &X;
  return "";
}

bool HardwareCounters::onLaunchEnter(InFlight &IF) {
  HwContext *C;
  {
    std::lock_guard<std::mutex> L(M);
    auto &P = Ctxs[IF.Ctx];
    if (!P)
      P = std::make_unique<HwContext>();
    C = P.get();
  }
  std::unique_lock<std::mutex> Lock(C->M);
  if (!Enabled || C->Failed)
    return false;
  IF.R.HwTried = true;
  uint64_t T0 = nowNs();
  if (!C->Ready) {
    std::string E = setup(*C, IF.Ctx);
    if (!E.empty()) {
      C->Failed = true;
      IF.R.HwProblem = E;
      off(E);
      return false;
    }
  }
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
      if (const TensorTypes *Cached = Cache.find(C->Chip, IF.HwCode, IF.F->Mangled)) {
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
  HwConfig *Cfg = nullptr;
  std::string E = config(*C, Mask, Cfg);
  CUptiResult R;
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params DI{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  // A range profiler object replays every range with the pass count of the
  // first config it ran (seen on the H100: 2-pass ranges after an 8-pass one
  // cost as much as 8-pass ones, with the right values; more passes than the
  // first did not evaluate). A config with more passes gets a fresh object;
  // one with fewer, when the passes it wasted cost a fresh object
  // (ReplayPolicy.h).
  bool First = !C->ObjPasses;
  bool Recreate = E.empty() && C->Policy.recreate(C->ObjPasses, Cfg->Passes);
  uint64_t RecreateNs = 0;
  if (Recreate) {
    uint64_t R0 = nowNs();
    CUpti_RangeProfiler_Disable_Params D{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    D.pRangeProfilerObject = C->Obj;
    cuptiRangeProfilerDisable(&D);
    C->Obj = nullptr;
    CUpti_RangeProfiler_Enable_Params EN{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    EN.ctx = IF.Ctx;
    if ((R = cuptiRangeProfilerEnable(&EN)) != CUPTI_SUCCESS)
      E = hwErr("cuptiRangeProfilerEnable", R);
    else
      C->Obj = EN.pRangeProfilerObject;
    ++Reenables;
    RecreateNs = nowNs() - R0;
    C->DataCfg = nullptr;
  }
  if (E.empty() && (Recreate || !C->ObjPasses))
    C->ObjPasses = Cfg->Passes;
  IF.HwPasses = C->ObjPasses;
  uint64_t P0 = nowNs();
  bool NewList = C->DataCfg != Cfg;
  if (E.empty() && C->DataCfg != Cfg) {
    // The counter-data image takes its metric list from the range profiler
    // object's last GetCounterDataSize (seen on the H100: with another list's
    // image the evaluated values of the missing metrics are NaN).
    CUpti_RangeProfiler_GetCounterDataSize_Params DSz{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    DSz.pRangeProfilerObject = C->Obj;
    DSz.pMetricNames = Cfg->Names.data();
    DSz.numMetrics = Cfg->Names.size();
    DSz.maxNumOfRanges = 1;
    DSz.maxNumRangeTreeNodes = 1;
    if ((R = cuptiRangeProfilerGetCounterDataSize(&DSz)) != CUPTI_SUCCESS)
      E = hwErr("cuptiRangeProfilerGetCounterDataSize", R);
    else if (DSz.counterDataSize != Cfg->Data.size())
      Cfg->Data.resize(DSz.counterDataSize);
    if (E.empty())
      C->DataCfg = Cfg;
    ++Sizings;
  }
  uint64_t P1 = nowNs();
  if (E.empty()) {
    DI.pRangeProfilerObject = C->Obj;
    DI.counterDataSize = Cfg->Data.size();
    DI.pCounterData = Cfg->Data.data();
    if ((R = cuptiRangeProfilerCounterDataImageInitialize(&DI)) != CUPTI_SUCCESS)
      E = hwErr("cuptiRangeProfilerCounterDataImageInitialize", R);
  }
  // SetConfig for every range: configuring once per context and only
  // re-initializing the counter data was measured on the H100 to save
  // nothing (about 3 ms of 90 per launch; the replay is the cost).
  uint64_t P2 = nowNs();
  if (E.empty()) {
    CUpti_RangeProfiler_SetConfig_Params SC{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    SC.pRangeProfilerObject = C->Obj;
    SC.configSize = Cfg->Config.size();
    SC.pConfig = Cfg->Config.data();
    SC.counterDataImageSize = Cfg->Data.size();
    SC.pCounterDataImage = Cfg->Data.data();
    SC.range = CUPTI_AutoRange;
    SC.replayMode = CUPTI_KernelReplay;
    SC.maxRangesPerPass = 1;
    SC.numNestingLevels = 1;
    SC.minNestingLevel = 1;
    SC.passIndex = 0;
    SC.targetNestingLevel = 1;
    if ((R = cuptiRangeProfilerSetConfig(&SC)) != CUPTI_SUCCESS)
      E = hwErr("cuptiRangeProfilerSetConfig", R);
  }
  uint64_t P3 = nowNs();
  if (E.empty()) {
    CUpti_RangeProfiler_Start_Params ST{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    ST.pRangeProfilerObject = C->Obj;
    if ((R = cuptiRangeProfilerStart(&ST)) != CUPTI_SUCCESS)
      E = hwErr("cuptiRangeProfilerStart", R);
  }
  if (!E.empty()) {
    C->Failed = true;
    IF.R.HwProblem = E;
    off(E);
    return false;
  }
  uint64_t P4 = nowNs();
  if (First)
    C->Policy.seed(P4 - P3);
  else if (Recreate) {
    C->Policy.recreated(RecreateNs + (P4 - P3));
    ReenableNs += RecreateNs + (P4 - P3);
  }
  SizeNs += P1 - P0;
  InitNs += P2 - P1;
  (NewList || Recreate ? SetNewNs : SetSameNs) += P3 - P2;
  SetNews += NewList || Recreate;
  StartNs += P4 - P3;
  IF.Hw = C;
  IF.HwCfg = Cfg;
  IF.Device = C->Device;
  IF.HwLock = std::move(Lock);
  EnterNs += nowNs() - T0;
  IF.HwT = nowNs();
  return true;
}

void HardwareCounters::onLaunchExit(InFlight &IF, CUresult LaunchResult) {
  HwContext &C = *IF.Hw;
  HwConfig &Cfg = *IF.HwCfg;
  IF.Hw = nullptr;
  IF.HwCfg = nullptr;
  LaunchRecord &LR = IF.R;
  uint64_t T1 = nowNs();
  LaunchNs += T1 - IF.HwT;
  C.Policy.ranged(IF.HwPasses, Cfg.Passes, T1 - IF.HwT);
  ++Ranges;
  CUptiResult R;
  std::string E;
  CUpti_RangeProfiler_Stop_Params SP{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  SP.pRangeProfilerObject = C.Obj;
  if ((R = cuptiRangeProfilerStop(&SP)) != CUPTI_SUCCESS)
    E = hwErr("cuptiRangeProfilerStop", R);
  CUpti_RangeProfiler_DecodeData_Params DD{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  DD.pRangeProfilerObject = C.Obj;
  if (E.empty() && (R = cuptiRangeProfilerDecodeData(&DD)) != CUPTI_SUCCESS)
    E = hwErr("cuptiRangeProfilerDecodeData", R);
  size_t Ranges = 0;
  if (E.empty()) {
    CUpti_RangeProfiler_GetCounterDataInfo_Params GI{
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    GI.pCounterDataImage = Cfg.Data.data();
    GI.counterDataImageSize = Cfg.Data.size();
    if ((R = cuptiRangeProfilerGetCounterDataInfo(&GI)) != CUPTI_SUCCESS)
      E = hwErr("cuptiRangeProfilerGetCounterDataInfo", R);
    Ranges = GI.numTotalRanges;
  }
  if (!E.empty()) {
    // The range could not be closed: most often the kernel faulted (the
    // context is gone). Counters stop; the launch keeps its other data.
    CUresult Q = cuStreamQuery(IF.Stream);
    if (Q != CUDA_SUCCESS && Q != CUDA_ERROR_NOT_READY && LR.Error.empty())
      LR.Error = std::string("kernel failed: ") + cuErr(Q);
    LR.HwProblem = E;
    C.Failed = true;
    IF.HwLock.unlock();
    off("kernel " + LR.Name + " (launch " + std::to_string(LR.Correlation) +
        "): " + E + (LR.Error.empty() ? "" : " after " + LR.Error));
    return;
  }
  if (LaunchResult != CUDA_SUCCESS) {
    LR.HwProblem = "the launch failed";
  } else if (Ranges == 0 || !SP.isAllPassSubmitted) {
    LR.HwProblem = Ranges == 0 ? "the range profiler recorded no range for this launch"
                               : "not all replay passes were submitted";
  } else {
    std::vector<double> V(Cfg.Names.size(), 0.0);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params EV{
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    EV.pHostObject = Cfg.Host;
    EV.pCounterDataImage = Cfg.Data.data();
    EV.counterDataImageSize = Cfg.Data.size();
    EV.rangeIndex = Ranges - 1;
    EV.ppMetricNames = Cfg.Names.data();
    EV.numMetrics = Cfg.Names.size();
    EV.pMetricValues = V.data();
    if ((R = cuptiProfilerHostEvaluateToGpuValues(&EV)) != CUPTI_SUCCESS) {
      LR.HwProblem = hwErr("cuptiProfilerHostEvaluateToGpuValues", R);
    } else {
      std::map<std::string, double> Values;
      std::string NotEvaluated;
      for (size_t I = 0; I < V.size(); ++I) {
        if (std::isnan(V[I]))
          NotEvaluated += (NotEvaluated.empty() ? "" : ", ") + Cfg.Metrics[I];
        else
          Values[Cfg.Metrics[I]] = V[I];
      }
      std::vector<std::string> InferredZero;
      std::string TypesProblem;
      if (Set.LearnTensorTypes) {
        std::lock_guard<std::mutex> L(M);
        if (IF.HwLearning) {
          auto LT = makeLearned(learnTensorTypes(Values), IF.HwCode);
          if (CacheOn && IF.HwCode)
            Cache.put(C.Chip, IF.HwCode, IF.F->Mangled, LT->Types);
          Learned[IF.F->Mangled] = std::move(LT);
        } else if ((TypesProblem = checkTensorTypes(IF.HwTypes->Types, Values)).empty()) {
          for (const std::string &T : tensorTypeMetrics())
            if (!Values.count(T) &&
                std::find(C.Metrics.begin(), C.Metrics.end(), T) != C.Metrics.end())
              InferredZero.push_back(T);
        } else {
          Learned.erase(IF.F->Mangled); // its next launch collects every type
          if (CacheOn && IF.HwTypes->Code)
            Cache.erase(C.Chip, IF.HwTypes->Code, IF.F->Mangled);
          if (!RelearnReported) {
            RelearnReported = true;
            std::string Msg = "hardware counters: kernel " + LR.Name + ": " +
                              TypesProblem + "; its tensor types are relearned";
            logLine("%s", Msg.c_str());
            if (rt().P)
              rt().P->note(Msg);
          }
        }
      }
      {
        std::lock_guard<std::mutex> L(M);
        ++RangesByPasses[IF.HwPasses];
      }
      LR.Hw = countersToJson(Values, InferredZero);
      if (!TypesProblem.empty())
        (*LR.Hw)["tensor_flops_problem"] = TypesProblem;
      if (!NotEvaluated.empty())
        (*LR.Hw)["not_evaluated"] = NotEvaluated;
    }
  }
  ExitNs += nowNs() - T1;
  IF.HwLock.unlock();
}

void HardwareCounters::onContextDestroy(CUcontext Ctx) {
  std::unique_ptr<HwContext> C;
  {
    std::lock_guard<std::mutex> L(M);
    auto It = Ctxs.find(Ctx);
    if (It == Ctxs.end())
      return;
    C = std::move(It->second);
    Ctxs.erase(It);
  }
  std::lock_guard<std::mutex> L(C->M);
  if (C->Obj) {
    CUpti_RangeProfiler_Disable_Params D{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    D.pRangeProfilerObject = C->Obj;
    cuptiRangeProfilerDisable(&D);
  }
  for (auto &[Mask, Cfg] : C->Configs)
    if (Cfg->Host) {
      CUpti_Profiler_Host_Deinitialize_Params D{
          CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
      D.pHostObject = Cfg->Host;
      cuptiProfilerHostDeinitialize(&D);
    }
}

/// At exit nothing is torn down (the driver may already be); a launch of
/// another thread still inside its range loses its counters, said once.
void HardwareCounters::onFinish() {
  Runtime &T = rt();
  if (Ranges && T.P) {
    char Buf[512];
    snprintf(Buf, sizeof Buf,
             "hardware counters: %llu ranges; host time per range: %.2f ms "
             "configure+start, %.2f ms launch with replay, %.2f ms "
             "stop+decode+evaluate",
             (unsigned long long)Ranges.load(), EnterNs / 1e6 / Ranges,
             LaunchNs / 1e6 / Ranges, ExitNs / 1e6 / Ranges);
    std::string Msg = Buf;
    {
      std::lock_guard<std::mutex> L(M);
      if (!RangesByPasses.empty()) {
        Msg += "; ranges by replay passes:";
        for (auto &[Passes, N] : RangesByPasses)
          Msg += " " + std::to_string(N) + " x " + std::to_string(Passes);
        Msg += "; range profiler re-created " + std::to_string(Reenables.load()) +
               " times (pass count changed)";
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
  std::lock_guard<std::mutex> L(M);
  if (CacheOn) {
    // Saved before the busy check: what was learned is complete either way.
    std::string E = Cache.save();
    std::string Msg = "tensor-type cache " + Cache.path() + ": " +
                      std::to_string(FromCache) + " kernel(s) taken from it, " +
                      std::to_string(Cache.puts()) + " learned and " +
                      (E.empty() ? "saved" : "not saved (" + E + ")");
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

//===--- Module and function lookup --------------------------------------===//

std::shared_ptr<ModuleInfo> moduleInfo(CUmodule Mod) {
  Runtime &T = rt();
  {
    std::lock_guard<std::mutex> L(T.M);
    auto It = T.Modules.find(Mod);
    if (It != T.Modules.end())
      return It->second;
  }
  auto MI = std::make_shared<ModuleInfo>();
  CUdeviceptr Ptr = 0;
  size_t Size = 0;
  CUresult R = cuModuleGetGlobal(&Ptr, &Size, Mod, ModelSymbol);
  if (R != CUDA_SUCCESS) {
    MI->Problem = "the module embeds no static model (no __hroof_model)";
  } else {
    std::string Text(Size, '\0');
    R = cuMemcpyDtoH(Text.data(), Ptr, Size);
    if (R != CUDA_SUCCESS) {
      MI->Problem = std::string("reading __hroof_model failed: ") + cuErr(R);
    } else {
      Text.resize(strnlen(Text.data(), Text.size()));
      nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
      if (J.is_discarded()) {
        MI->Problem = "__hroof_model is not valid JSON";
      } else {
        try {
          MI->Model = std::make_shared<StaticModule>(parseStaticModel(J));
        } catch (const std::exception &E) {
          MI->Problem = std::string("__hroof_model: ") + E.what();
        }
      }
    }
  }
  if (!MI->Problem.empty() && T.S.Verbose >= 1)
    logLine("module %p: %s", (void *)Mod, MI->Problem.c_str());
  std::lock_guard<std::mutex> L(T.M);
  return T.Modules.emplace(Mod, MI).first->second;
}

std::shared_ptr<FuncInfo> funcInfo(CUfunction Fn) {
  Runtime &T = rt();
  {
    std::lock_guard<std::mutex> L(T.M);
    auto It = T.Funcs.find(Fn);
    if (It != T.Funcs.end())
      return It->second;
  }
  auto F = std::make_shared<FuncInfo>();
  CUfunction Real = Fn;
  const char *Name = nullptr;
  if (cuFuncGetName(&Name, Real) != CUDA_SUCCESS || !Name) {
    // The handle may be a CUkernel (context-independent loading).
    CUfunction K = nullptr;
    if (cuKernelGetFunction(&K, reinterpret_cast<CUkernel>(Fn)) == CUDA_SUCCESS &&
        cuFuncGetName(&Name, K) == CUDA_SUCCESS && Name)
      Real = K;
  }
  F->Mangled = Name ? Name : "<unknown>";
  F->Name = demangle(F->Mangled);
  F->Selected = selectedName(F->Mangled);
  if (F->Selected && Name && cuFuncGetModule(&F->Module, Real) == CUDA_SUCCESS) {
    CUdeviceptr Ptr = 0;
    size_t Size = 0;
    std::string Sym = CounterPrefix + F->Mangled;
    if (cuModuleGetGlobal(&Ptr, &Size, F->Module, Sym.c_str()) == CUDA_SUCCESS) {
      if (Size < CounterBytes || Size % CounterBytes) {
        F->ModelProblem = Sym + " has " + std::to_string(Size) +
                          " bytes, expected a multiple of " + std::to_string(CounterBytes);
        logLine("kernel %s: %s; not counted", F->Name.c_str(),
                F->ModelProblem.c_str());
      } else {
        F->Instrumented = true;
        F->Counters = Ptr;
        F->CounterSlots = Size / CounterBytes;
      }
    }
    if (F->Instrumented) {
      F->Mod = moduleInfo(F->Module);
      if (F->Mod->Model) {
        for (const KernelModel &K : F->Mod->Model->Kernels)
          if (K.Mangled == F->Mangled)
            F->Model = &K;
        if (!F->Model)
          F->ModelProblem = "the module's static model has no kernel " + F->Mangled;
      } else {
        F->ModelProblem = F->Mod->Problem;
      }
      for (size_t I = 0;; ++I) {
        size_t Off = 0, Sz = 0;
        if (cuFuncGetParamInfo(Real, I, &Off, &Sz) != CUDA_SUCCESS)
          break;
        F->Params.push_back({Off, Sz});
      }
      if (F->Model && F->Params.size() != F->Model->Params.size())
        F->ParamProblem = "the kernel has " + std::to_string(F->Params.size()) +
                          " parameters, its static model " +
                          std::to_string(F->Model->Params.size());
    }
  }
  if (T.S.Verbose >= 1)
    logLine("kernel %s: %s%s", F->Name.c_str(),
            !F->Selected ? "filtered out"
                         : F->Instrumented ? "instrumented" : "not instrumented",
            F->ModelProblem.empty() ? "" : (" (" + F->ModelProblem + ")").c_str());
  std::lock_guard<std::mutex> L(T.M);
  if (F->Instrumented) {
    auto &Lk = T.ArrayLocks[F->Counters];
    if (!Lk)
      Lk = std::make_unique<std::mutex>();
    F->ArrayLock = Lk.get();
    T.InstrumentedNames.insert(F->Mangled);
  }
  return T.Funcs.emplace(Fn, F).first->second;
}

//===--- Launch callbacks --------------------------------------------------===//

/// The runtime's own driver calls (memset, copy, synchronize) run in relaxed
/// stream-capture mode, so they never invalidate a capture that another
/// thread of the application has under way in global mode.
struct RelaxedCapture {
  CUstreamCaptureMode Old = CU_STREAM_CAPTURE_MODE_RELAXED;
  bool Ok;
  RelaxedCapture() { Ok = cuThreadExchangeStreamCaptureMode(&Old) == CUDA_SUCCESS; }
  ~RelaxedCapture() {
    if (Ok)
      cuThreadExchangeStreamCaptureMode(&Old);
  }
};

struct LaunchArgs {
  CUfunction F = nullptr;
  unsigned Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  unsigned SharedMem = 0;
  CUstream Stream = nullptr;
  void **KernelParams = nullptr, **Extra = nullptr;
  bool PerThread = false;
  const char *Api = "";
};

bool decodeLaunch(CUpti_CallbackId Id, const void *Params, LaunchArgs &A) {
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
    auto *P = static_cast<const cuLaunchKernel_params *>(Params);
    A = {P->f, {P->gridDimX, P->gridDimY, P->gridDimZ},
         {P->blockDimX, P->blockDimY, P->blockDimZ}, P->sharedMemBytes,
         P->hStream, P->kernelParams, P->extra,
         Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, "cuLaunchKernel"};
    return true;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
    auto *P = static_cast<const cuLaunchCooperativeKernel_params *>(Params);
    A = {P->f, {P->gridDimX, P->gridDimY, P->gridDimZ},
         {P->blockDimX, P->blockDimY, P->blockDimZ}, P->sharedMemBytes,
         P->hStream, P->kernelParams, nullptr,
         Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
         "cuLaunchCooperativeKernel"};
    return true;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    auto *P = static_cast<const cuLaunchKernelEx_params *>(Params);
    if (!P->config)
      return false;
    const CUlaunchConfig *C = P->config;
    A = {P->f, {C->gridDimX, C->gridDimY, C->gridDimZ},
         {C->blockDimX, C->blockDimY, C->blockDimZ}, C->sharedMemBytes,
         C->hStream, P->kernelParams, P->extra,
         Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, "cuLaunchKernelEx"};
    return true;
  }
  default:
    return false;
  }
}

/// Pointer to parameter \p I's bytes, or null.
const void *paramBytes(const LaunchArgs &A, const FuncInfo &F, size_t I) {
  if (A.KernelParams)
    return A.KernelParams[I];
  if (A.Extra) {
    void *Buf = nullptr;
    size_t BufSize = 0;
    for (void **E = A.Extra; *E != CU_LAUNCH_PARAM_END; E += 2) {
      if (*E == CU_LAUNCH_PARAM_BUFFER_POINTER)
        Buf = E[1];
      else if (*E == CU_LAUNCH_PARAM_BUFFER_SIZE && E[1])
        BufSize = *static_cast<size_t *>(E[1]);
    }
    if (Buf && F.Params[I].first + F.Params[I].second <= BufSize)
      return static_cast<char *>(Buf) + F.Params[I].first;
  }
  return nullptr;
}

void readArgs(const LaunchArgs &A, InFlight &IF) {
  const FuncInfo &F = *IF.F;
  const KernelModel &K = *F.Model;
  IF.Env.Args.assign(K.Params.size(), 0);
  IF.Env.HasArg.assign(K.Params.size(), false);
  if (!F.ParamProblem.empty()) {
    IF.ArgProblem = F.ParamProblem;
    return;
  }
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const ModelParam &MP = K.Params[I];
    if (!MP.IsInteger)
      continue;
    const void *P = paramBytes(A, F, I);
    if (!P) {
      IF.ArgProblem = "cannot read argument " + MP.Name;
      return;
    }
    int Bits = std::atoi(MP.Type.c_str() + 1);
    size_t Sz = std::min<size_t>(F.Params[I].second, 8);
    if (Bits > 0 && size_t(Bits + 7) / 8 < Sz)
      Sz = size_t(Bits + 7) / 8;
    uint64_t Raw = 0;
    std::memcpy(&Raw, P, Sz); // little-endian
    int64_t V = Bits > 0 && Bits < 64 ? sextBits(int64_t(Raw), Bits) : int64_t(Raw);
    IF.Env.Args[I] = V;
    IF.Env.HasArg[I] = true;
    IF.R.Args.push_back({MP.Name, V});
  }
}

void finalize(PendingLaunch &&PL) {
  Runtime &T = rt();
  if (T.P)
    T.P->addLaunch(PL.R);
  T.reportWriteError();
}

void onLaunchEnter(CUpti_CallbackId Id, const CUpti_CallbackData *CB) {
  Runtime &T = rt();
  *CB->correlationData = 0;
  LaunchArgs A;
  if (!decodeLaunch(Id, CB->functionParams, A) || !A.F)
    return;
  RelaxedCapture Relax;
  std::shared_ptr<FuncInfo> F = funcInfo(A.F);
  if (!F->Selected)
    return;
  bool Count = F->Instrumented && T.Counting;
  if (!Count && !T.Hw.Enabled)
    return;
  CUstream Stream = A.Stream;
  if (!Stream && A.PerThread)
    Stream = CU_STREAM_PER_THREAD;
  CUstreamCaptureStatus Cap = CU_STREAM_CAPTURE_STATUS_NONE;
  if (cuStreamIsCapturing(Stream, &Cap) != CUDA_SUCCESS ||
      Cap != CU_STREAM_CAPTURE_STATUS_NONE)
    return; // captured into a graph: reported from activity, not counted
  bool Hw = T.Hw.Enabled && T.Hw.take(*F);
  if (!Count && !Hw)
    return;
  auto IF = std::make_unique<InFlight>();
  IF->F = F;
  IF->Stream = Stream;
  IF->Ctx = CB->context;
  IF->PerThread = A.PerThread;
  if (Count) {
    IF->Lock = std::unique_lock<std::mutex>(*F->ArrayLock);
    CUresult R = cuMemsetD8Async(F->Counters, 0, CounterBytes * F->CounterSlots, Stream);
    if (R != CUDA_SUCCESS) {
      T.stopCounting(std::string("zeroing the counters of ") + F->Name +
                     " failed (" + cuErr(R) + "); dynamic counting stops");
      IF->Lock.unlock();
      Count = false;
      if (!Hw)
        return;
    }
  }
  IF->Counted = Count;
  LaunchRecord &LR = IF->R;
  LR.Mangled = F->Mangled;
  LR.Name = F->Name;
  LR.Api = A.Api;
  LR.Correlation = CB->correlationId;
  LR.Thread = threadId();
  LR.Instrumented = F->Instrumented;
  if (F->Instrumented && !Count)
    LR.DynamicProblem = "not counted (counting off or stopped)";
  for (int D = 0; D < 3; ++D) {
    LR.Grid[D] = A.Grid[D];
    LR.Block[D] = A.Block[D];
    IF->Shape.Grid[D] = A.Grid[D];
    IF->Shape.Block[D] = A.Block[D];
  }
  LR.SharedMem = A.SharedMem;
  if (F->Instrumented && F->Model) {
    LR.StaticExact = F->Model->Exact;
    readArgs(A, *IF);
  }
  {
    std::lock_guard<std::mutex> L(T.M);
    T.Pending[CB->correlationId]; // the activity record waits for the counts
  }
  // Last: nothing of the runtime's own runs inside the range.
  if (Hw)
    T.Hw.onLaunchEnter(*IF);
  *CB->correlationData = reinterpret_cast<uint64_t>(IF.release());
}

void onLaunchExit(const CUpti_CallbackData *CB) {
  Runtime &T = rt();
  std::unique_ptr<InFlight> IF(reinterpret_cast<InFlight *>(*CB->correlationData));
  if (!IF)
    return;
  *CB->correlationData = 0;
  RelaxedCapture Relax;
  LaunchRecord &LR = IF->R;
  CUresult LaunchResult = CB->functionReturnValue
                              ? *static_cast<const CUresult *>(CB->functionReturnValue)
                              : CUDA_SUCCESS;
  // First: close the range (it covers the launch only).
  if (IF->Hw)
    T.Hw.onLaunchExit(*IF, LaunchResult);
  if (LaunchResult != CUDA_SUCCESS) {
    LR.Error = std::string("launch failed: ") + cuErr(LaunchResult);
    if (LR.Instrumented)
      LR.DynamicProblem = "the launch failed";
  } else if (IF->Counted) {
    // The pass spreads each kernel's counts over CounterSlots copies of the
    // array (by SM and warp); the launch's counts are their sum.
    CountVector C{};
    std::vector<uint64_t> Slots(size_t(NumCounters) * IF->F->CounterSlots);
    CUresult R = cuMemcpyDtoHAsync(Slots.data(), IF->F->Counters,
                                   CounterBytes * IF->F->CounterSlots, IF->Stream);
    if (R == CUDA_SUCCESS)
      R = cuStreamSynchronize(IF->Stream);
    if (R == CUDA_SUCCESS) {
      for (size_t S = 0; S < IF->F->CounterSlots; ++S)
        for (int K = 0; K < NumCounters; ++K)
          C[K] += Slots[S * NumCounters + K];
      LR.Dynamic = C;
    } else {
      // Deliver what CUPTI already holds before the context is torn down.
      cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
      LR.Error = std::string("kernel failed: ") + cuErr(R);
      LR.DynamicProblem = "the kernel or a preceding operation on its stream failed";
      T.stopCounting("kernel " + IF->F->Name + " (launch " +
                     std::to_string(LR.Correlation) + ") failed with " + cuErr(R) +
                     "; dynamic counting stops, the profile keeps every "
                     "launch before it");
    }
  }
  if (IF->Lock.owns_lock())
    IF->Lock.unlock();
  // Static model at this launch (outside the array lock).
  const FuncInfo &F = *IF->F;
  if (!F.Instrumented)
    ; // uninstrumented (here for its hardware counters): no static model
  else if (!F.Model)
    LR.StaticProblem = F.ModelProblem;
  else if (!T.S.StaticEval)
    LR.StaticProblem = "static evaluation off (HROOF_STATIC_EVAL=0)";
  else if (!IF->ArgProblem.empty())
    LR.StaticProblem = IF->ArgProblem;
  else {
    std::string Key;
    for (int D = 0; D < 3; ++D)
      Key += std::to_string(IF->Shape.Grid[D]) + "," + std::to_string(IF->Shape.Block[D]) + ";";
    for (size_t I = 0; I < IF->Env.Args.size(); ++I)
      Key += (I < IF->Env.HasArg.size() && IF->Env.HasArg[I] ? std::to_string(IF->Env.Args[I])
                                                            : std::string("?")) + ",";
    FuncInfo &FM = *IF->F;
    bool Cached = false;
    {
      std::lock_guard<std::mutex> G(FM.StaticCacheLock);
      auto It = FM.StaticCache.find(Key);
      if (It != FM.StaticCache.end()) {
        LR.Static = It->second.first;
        LR.StaticProblem = It->second.second;
        Cached = true;
      }
    }
    if (!Cached) {
      try {
        ThreadSumOptions O;
        O.MaxEvaluations = uint64_t(T.S.EvalLimit);
        LR.Static = evaluateKernel(*F.Model, IF->Shape, IF->Env, O);
      } catch (const std::exception &E) {
        LR.StaticProblem = E.what();
      }
      std::lock_guard<std::mutex> G(FM.StaticCacheLock);
      if (FM.StaticCache.size() < StaticCacheLimit)
        FM.StaticCache[Key] = {LR.Static, LR.StaticProblem};
    }
  }
  if (T.S.Verbose >= 2)
    logLine("launch %u %s grid %u,%u,%u block %u,%u,%u%s%s", LR.Correlation,
            LR.Name.c_str(), LR.Grid[0], LR.Grid[1], LR.Grid[2], LR.Block[0],
            LR.Block[1], LR.Block[2], LR.Error.empty() ? "" : ": ",
            LR.Error.c_str());
  // A replayed launch gets no activity record (seen on the H100 with CUDA
  // 13): its duration is the range's gpu__time_duration.sum.
  bool FromCounters = false;
  if (LR.Hw && LR.Hw->contains("time_ns")) {
    LR.Timed = true;
    LR.DurationFromCounters = true;
    LR.DurationNs = (*LR.Hw)["time_ns"].get<uint64_t>();
    LR.Device = int64_t(IF->Device);
    uint32_t StreamId = 0;
    if (cuptiGetStreamIdEx(IF->Ctx, IF->Stream, IF->PerThread ? 1 : 0, &StreamId) ==
        CUPTI_SUCCESS)
      LR.Stream = int64_t(StreamId);
    FromCounters = true;
  }
  PendingLaunch Done;
  {
    std::lock_guard<std::mutex> L(T.M);
    auto It = T.Pending.find(CB->correlationId);
    if (FromCounters) {
      if (It != T.Pending.end() && It->second.HaveActivity) {
        // An activity record came after all: its timestamps win.
        LaunchRecord &AR = It->second.R;
        LR.Timed = AR.Timed;
        LR.DurationFromCounters = false;
        LR.StartNs = AR.StartNs;
        LR.DurationNs = AR.DurationNs;
        LR.Stream = AR.Stream;
      }
      if (It != T.Pending.end())
        T.Pending.erase(It);
      T.Hw.Done.insert(CB->correlationId);
      Done.R = std::move(LR);
    } else if (It == T.Pending.end() || LaunchResult != CUDA_SUCCESS) {
      // No activity record will come for a launch that failed.
      if (It != T.Pending.end())
        T.Pending.erase(It);
      Done.R = std::move(LR);
    } else if (It->second.HaveActivity) {
      Done = std::move(It->second);
      T.Pending.erase(It);
      LaunchRecord &AR = Done.R; // timing from the activity record
      LR.Timed = AR.Timed;
      LR.StartNs = AR.StartNs;
      LR.DurationNs = AR.DurationNs;
      LR.Device = AR.Device;
      LR.Stream = AR.Stream;
      Done.R = std::move(LR);
      if (Done.R.HwTried)
        T.Hw.Done.insert(CB->correlationId);
    } else {
      It->second.R = std::move(LR);
      It->second.HaveCallback = true;
      return;
    }
  }
  finalize(std::move(Done));
}

void onGraphLaunch() {
  Runtime &T = rt();
  if (T.P)
    T.P->addGraphLaunch();
}

//===--- Activity records ----------------------------------------------------===//

constexpr size_t ActivityBufferSize = 8 << 20;

void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size, size_t *MaxRecords) {
  *Buffer = static_cast<uint8_t *>(aligned_alloc(8, ActivityBufferSize));
  *Size = *Buffer ? ActivityBufferSize : 0;
  *MaxRecords = 0;
}

void kernelRecord(const CUpti_ActivityKernel10 *K) {
  Runtime &T = rt();
  std::string Mangled = K->name ? K->name : "<unknown>";
  if (!selectedName(Mangled))
    return;
  LaunchRecord R;
  R.Mangled = Mangled;
  R.Name = demangle(Mangled);
  R.Api = K->graphId ? "cuGraphLaunch" : "";
  R.Correlation = K->correlationId;
  R.Device = K->deviceId;
  R.Stream = K->streamId;
  R.Grid = {uint32_t(K->gridX), uint32_t(K->gridY), uint32_t(K->gridZ)};
  R.Block = {uint32_t(K->blockX), uint32_t(K->blockY), uint32_t(K->blockZ)};
  R.SharedMem = uint32_t(K->dynamicSharedMemory);
  R.Timed = K->end >= K->start && K->start != 0;
  R.StartNs = K->start;
  R.DurationNs = R.Timed ? K->end - K->start : 0;
  R.Graph = K->graphId != 0;
  PendingLaunch Done;
  {
    std::lock_guard<std::mutex> L(T.M);
    auto It = R.Graph ? T.Pending.end() : T.Pending.find(K->correlationId);
    if (It == T.Pending.end() && !R.Graph && T.Hw.Done.count(K->correlationId))
      return; // a further record of a replayed launch (kernel replay)
    if (It == T.Pending.end()) {
      // Not counted by the callbacks: uninstrumented, filtered, captured or
      // graph launch. Report what the activity record says.
      if (T.InstrumentedNames.count(Mangled)) {
        R.Instrumented = true;
        R.DynamicProblem = R.Graph ? "graph launch: counts not attributed"
                                   : "not counted (stream capture, counting off "
                                     "or stopped)";
        R.StaticProblem = R.DynamicProblem;
      }
      Done.R = std::move(R);
    } else if (It->second.HaveCallback) {
      Done = std::move(It->second);
      T.Pending.erase(It);
      Done.R.Timed = R.Timed;
      Done.R.StartNs = R.StartNs;
      Done.R.DurationNs = R.DurationNs;
      Done.R.Device = R.Device;
      Done.R.Stream = R.Stream;
      if (Done.R.HwTried)
        T.Hw.Done.insert(K->correlationId);
    } else if (It->second.HaveActivity) {
      return; // a further record of a replayed launch: the first one counts
    } else {
      It->second.R = std::move(R);
      It->second.HaveActivity = true;
      return;
    }
  }
  finalize(std::move(Done));
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t,
                              size_t Valid) {
  Runtime &T = rt();
  try {
    CUpti_Activity *Rec = nullptr;
    while (Valid && cuptiActivityGetNextRecord(Buffer, Valid, &Rec) == CUPTI_SUCCESS) {
      if (!T.Finished && (Rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
                          Rec->kind == CUPTI_ACTIVITY_KIND_KERNEL))
        kernelRecord(reinterpret_cast<const CUpti_ActivityKernel10 *>(Rec));
    }
  } catch (const std::exception &E) {
    T.disable(std::string("internal error reading activity records: ") + E.what());
  }
  free(Buffer);
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
      T.P->addDevice({{"ordinal", int(Dev)},
                      {"name", Name},
                      {"compute_capability", std::to_string(Major) + "." + std::to_string(Minor)},
                      {"sms", Sms}});
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

void CUPTIAPI callback(void *, CUpti_CallbackDomain Domain, CUpti_CallbackId Id,
                       const void *Data) {
  Runtime &T = rt();
  if (!T.Active || T.Finished)
    return;
  try {
    if (Domain == CUPTI_CB_DOMAIN_DRIVER_API) {
      const auto *CB = static_cast<const CUpti_CallbackData *>(Data);
      if (Id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
          Id == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
        if (CB->callbackSite == CUPTI_API_EXIT)
          onGraphLaunch();
        return;
      }
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
      }
      else if (Id == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING)
        onModuleUnload();
      else if (Id == CUPTI_CBID_RESOURCE_MODULE_LOADED && RD->resourceDescriptor)
        T.Hw.onModuleLoaded(
            *static_cast<const CUpti_ModuleResourceData *>(RD->resourceDescriptor));
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
  if (Untimed && T.P)
    T.P->note(std::to_string(Untimed) + " counted launch(es) have no duration: "
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
  }
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
  T.P = std::make_unique<Profile>(T.S.LaunchLimit, T.S.FlushMs);
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
  nlohmann::json H = {{"hroof_profile", 1},
                      {"pid", long(getpid())},
                      {"rank", Rank.empty() ? nlohmann::json(nullptr) : nlohmann::json(Rank)},
                      {"host", Host},
                      {"command", Cmd},
                      {"start_time", long(std::time(nullptr))},
                      {"run_id", std::getenv("HROOF_RUN_ID") ? std::getenv("HROOF_RUN_ID") : ""},
                      {"counters", NumCounters},
                      {"settings", T.S.toJson()}};
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

  CUptiResult R = cuptiSubscribe(&T.Sub, callback, nullptr);
  if (R != CUPTI_SUCCESS) {
    T.Sub = nullptr;
    std::string Why = R == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED
                          ? "another CUPTI client is attached (Nsight Compute, "
                            "Nsight Systems, a framework profiler such as Kineto)"
                          : cuptiErr(R);
    logLine("cannot subscribe to CUPTI: %s; the runtime switches itself off",
            Why.c_str());
    T.P->note("cannot subscribe to CUPTI: " + Why);
    T.P->finish();
    return 1;
  }
  CUpti_CallbackId Launches[] = {
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
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
  for (CUpti_CallbackId Id : {CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
                              CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
                              CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING,
                              CUPTI_CBID_RESOURCE_MODULE_LOADED})
    if ((R = cuptiEnableCallback(1, T.Sub, CUPTI_CB_DOMAIN_RESOURCE, Id)) != CUPTI_SUCCESS)
      Fail = "enabling resource callbacks: " + cuptiErr(R);
  if (Fail.empty() &&
      (R = cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted)) != CUPTI_SUCCESS)
    Fail = "registering activity buffers: " + cuptiErr(R);
  if (Fail.empty() &&
      (R = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) != CUPTI_SUCCESS)
    Fail = "enabling kernel activity: " + cuptiErr(R);
  if (!Fail.empty()) {
    logLine("%s; the runtime switches itself off", Fail.c_str());
    T.P->note(Fail);
    cuptiUnsubscribe(T.Sub);
    T.Sub = nullptr;
    T.P->finish();
    return 1;
  }
  if (T.S.FlushMs > 0)
    cuptiActivityFlushPeriod(uint32_t(T.S.FlushMs));
  T.Hw.onInit();
  T.Counting = T.S.Counting;
  T.Active = true;
  std::atexit(atExit);
  return 1;
}

} // namespace

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
