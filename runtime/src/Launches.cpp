//===- Launches.cpp - kernel lookup, launch enter and exit ----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The driver-API launch callbacks. At a CUfunction's first launch: its name,
// module and counter array (__hroof_counters_<mangled>), and the module's
// embedded static model (__hroof_model). At launch enter: zero the counter
// array on the launch's stream unless its slots are known to be zero
// (CounterArray), and read the integer arguments; at exit: sum and zero the
// slots on the GPU (CounterSum.h), copy the sums back, evaluate the static
// model with the launch's grid, block and arguments, and pair the record
// with its activity record (Activity.cpp).
//===----------------------------------------------------------------------===//
#include "Injection.h"
#include "launches/LaunchArgs.h"
#include "launches/ParamBytes.h"
#include "launches/LaunchWorkKey.h"

#include "hroof/Communication.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hroof {
namespace rt {

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
    MI->Problem = std::string("the module embeds no static model (no ") + ModelSymbol + ")";
  } else {
    // On a private non-blocking stream: a copy on the legacy stream would
    // synchronize with a blocking stream under capture and invalidate the
    // capture, where a module's first kernel is launched into a graph
    // (cuda-samples simpleCudaGraphs, graphConditionalNodes:
    // docs/validation/corpus.md, "A runtime defect found on the way").
    std::string Text(Size, '\0');
    CUstream Copy = nullptr;
    R = cuStreamCreate(&Copy, CU_STREAM_NON_BLOCKING);
    if (R == CUDA_SUCCESS)
      R = cuMemcpyDtoHAsync(Text.data(), Ptr, Size, Copy);
    if (R == CUDA_SUCCESS)
      R = cuStreamSynchronize(Copy);
    if (Copy)
      cuStreamDestroy(Copy);
    if (R != CUDA_SUCCESS) {
      MI->Problem = std::string("reading ") + ModelSymbol + " failed: " + cuErr(R);
    } else {
      Text.resize(strnlen(Text.data(), Text.size()));
      nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
      if (J.is_discarded()) {
        MI->Problem = std::string(ModelSymbol) + " is not valid JSON";
      } else {
        try {
          MI->Model = std::make_shared<StaticModule>(parseStaticModel(J));
        } catch (const std::exception &E) {
          MI->Problem = std::string(ModelSymbol) + ": " + E.what();
        }
      }
    }
  }
  if (!MI->Problem.empty() && T.S.Verbose >= 1)
    logLine("module %p: %s", (void *)Mod, MI->Problem.c_str());
  std::lock_guard<std::mutex> L(T.M);
  return T.Modules.emplace(Mod, MI).first->second;
}

std::shared_ptr<FuncInfo> funcInfo(CUfunction Fn, CUcontext Ctx) {
  Runtime &T = rt();
  {
    std::lock_guard<std::mutex> L(T.M);
    auto It = T.Funcs.find({Fn, Ctx});
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
  if (CommunicationKernel C = communicationKernel(F->Name)) {
    F->Communication = communicationLabel(C);
    if (T.Hw.Enabled && T.P)
      T.P->note("hardware counters: not collected for " + C.Library +
                " communication kernels (replaying a kernel that waits on other GPUs can "
                "hang); their time comes from activity records");
    // Filtered out or not, it runs (and writes into other GPUs' memory).
    T.Hw.toApplicationReplay(C.Library + " communication kernels run in this process");
  }
  // Every kernel's parameter layout: the static model reads arguments from
  // it, and the work key (launches/WorkKey.h) digests the bytes it spans.
  for (size_t I = 0; F->Selected; ++I) {
    size_t Off = 0, Sz = 0;
    if (cuFuncGetParamInfo(Real, I, &Off, &Sz) != CUDA_SUCCESS)
      break;
    F->Params.push_back({Off, Sz});
  }
  if (F->Selected && Name && cuFuncGetModule(&F->Module, Real) == CUDA_SUCCESS) {
    CUdeviceptr Ptr = 0;
    size_t Size = 0;
    std::string Sym = CounterArrayPrefix + F->Mangled;
    if (cuModuleGetGlobal(&Ptr, &Size, F->Module, Sym.c_str()) == CUDA_SUCCESS) {
      if (Size < CounterBytes || Size % CounterBytes) {
        F->ModelProblem = Sym + " has " + std::to_string(Size) + " bytes, expected a multiple of " +
                          std::to_string(CounterBytes);
        logLine("kernel %s: %s; not counted", F->Name.c_str(), F->ModelProblem.c_str());
      } else {
        F->Instrumented = true;
        F->Counters = Ptr;
        F->CounterSlots = Size / CounterBytes;
      }
    }
    if (!F->Instrumented && F->ModelProblem.empty()) {
      // No counting code: counted by its exact static model, if the module
      // says so (the plugin leaves exact kernels uninstrumented).
      std::shared_ptr<ModuleInfo> MI = moduleInfo(F->Module);
      if (MI->Model)
        for (const KernelModel &K : MI->Model->Kernels)
          if (K.Mangled == F->Mangled && K.CountedByModel)
            F->Instrumented = F->ByModel = true;
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
      if (F->Model && F->Params.size() != F->Model->Params.size())
        F->ParamProblem = "the kernel has " + std::to_string(F->Params.size()) +
                          " parameters, its static model " +
                          std::to_string(F->Model->Params.size());
      if (F->Model) {
        F->PointerInModel.assign(F->Model->Params.size(), false);
        for (int I : neededArgs(*F->Model))
          if (I >= 0 && size_t(I) < F->PointerInModel.size() && F->Model->Params[I].Type == "ptr")
            F->PointerInModel[I] = true;
      }
    }
  }
  if (T.S.Verbose >= 1)
    logLine("kernel %s: %s%s", F->Name.c_str(),
            !F->Selected      ? "filtered out"
            : F->ByModel      ? "counted by its exact static model"
            : F->Instrumented ? "instrumented"
                              : "not instrumented",
            F->ModelProblem.empty() ? "" : (" (" + F->ModelProblem + ")").c_str());
  std::lock_guard<std::mutex> L(T.M);
  if (F->Instrumented)
    T.InstrumentedNames.insert(F->Mangled);
  if (F->Instrumented && !F->ByModel) {
    auto &A = T.Arrays[F->Counters];
    if (!A)
      A = std::make_unique<CounterArray>();
    F->Array = A.get();
  }
  return T.Funcs.emplace(std::make_pair(Fn, Ctx), F).first->second;
}

//===--- Launch callbacks --------------------------------------------------===//

/// The runtime's own driver calls (memset, copy, synchronize) run in relaxed
/// stream-capture mode, so they never invalidate a capture that another
/// thread of the application has under way in global mode.
/// Also marks the runtime's own calls, so that their copies and memsets are
/// not taken for the application's transfers.
struct RelaxedCapture {
  CUstreamCaptureMode Old = CU_STREAM_CAPTURE_MODE_RELAXED;
  bool Ok, WasOwn;
  RelaxedCapture() : WasOwn(InOwnDriverCalls) {
    InOwnDriverCalls = true;
    Ok = cuThreadExchangeStreamCaptureMode(&Old) == CUDA_SUCCESS;
  }
  ~RelaxedCapture() {
    if (Ok)
      cuThreadExchangeStreamCaptureMode(&Old);
    InOwnDriverCalls = WasOwn;
  }
};

void readArgs(const LaunchArgs &A, InFlight &IF) {
  const FuncInfo &F = *IF.F;
  const KernelModel &K = *F.Model;
  IF.Env.Args.assign(K.Params.size(), 0);
  IF.Env.HasArg.assign(K.Params.size(), false);
  if (!F.ParamProblem.empty()) {
    IF.ArgProblem = F.ParamProblem;
    return;
  }
  IF.Pointers.assign(K.Params.size(), std::nullopt);
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const ModelParam &MP = K.Params[I];
    if (MP.Type == "ptr" && F.Params[I].second == 8) {
      // Only the alignment enters the warp-level model.
      if (const void *P = paramBytes(A.KernelParams, A.Extra, F.Params, I)) {
        uint64_t V = 0;
        std::memcpy(&V, P, 8);
        IF.Pointers[I] = V;
        if (I < F.PointerInModel.size() && F.PointerInModel[I]) {
          IF.Env.Args[I] = int64_t(V);
          IF.Env.HasArg[I] = true;
        }
      }
      continue;
    }
    if (!MP.IsInteger)
      continue;
    const void *P = paramBytes(A.KernelParams, A.Extra, F.Params, I);
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
  // Fields of by-value struct arguments that the model reads.
  IF.ArgProblem = readModelFields(K, A.KernelParams, A.Extra, F.Params, IF.Env, IF.R.Args);
}

void replayOutsideRange(const LaunchArgs &A, std::shared_ptr<FuncInfo> F,
                        const CUpti_CallbackData *CB);

/// Marks the counter array of a launch that ends up not counted: the
/// kernel still adds to it (CounterArray).
struct UncountedMark {
  CounterArray *A;
  bool Counted = false;
  ~UncountedMark() {
    if (A && !Counted)
      A->Uncounted = true;
  }
};

/// Launch enter of a counted launch, under the array's lock: the sum
/// kernel's buffers at the array's first counted launch, then a memset of
/// the array unless its slots are known to be zero.
CUresult prepareCounts(FuncInfo &F, InFlight &IF, CUstream Stream) {
  Runtime &T = rt();
  CounterArray &A = *F.Array;
  if (!A.SumCtx) {
    A.SumCtx = IF.Ctx;
    A.SumProblem = T.Summer.prepare(IF.Ctx, A.Sum);
    if (!A.SumProblem.empty()) {
      if (T.S.Verbose >= 1)
        logLine("kernel %s: %s", F.Name.c_str(), A.SumProblem.c_str());
      T.noteOnce(A.SumProblem + "; counter arrays are zeroed before and copied whole after "
                                "each counted launch");
    }
  }
  IF.Summed = A.SumProblem.empty();
  bool Zero = !IF.Summed || !A.Zeroed || A.Uncounted || T.UnseenLaunches;
  A.Zeroed = false; // until the sum kernel zeroes it again
  if (!Zero)
    return CUDA_SUCCESS;
  return cuMemsetD8Async(F.Counters, 0, CounterBytes * F.CounterSlots, Stream);
}

void onLaunchEnter(CUpti_CallbackId Id, const CUpti_CallbackData *CB) {
  Runtime &T = rt();
  *CB->correlationData = 0;
  LaunchArgs A;
  if (!decodeLaunch(Id, CB->functionParams, A) || !A.F)
    return;
  RelaxedCapture Relax;
  std::shared_ptr<FuncInfo> F = funcInfo(A.F, CB->context);
  UncountedMark Mark{F->Array};
  if (!F->Communication.empty() && T.Hw.replay().batchesOpen()) // never inside a session
    T.Hw.replay().closeBatch(CB->context, CB->correlationId);
  if (!F->Selected)
    return;
  std::string Range;
  if (!noteIssued(CB->correlationId, IssueKind::Launch, Range)) {
    // Outside the ranges HROOF_RANGE selects: ignored entirely, except as a
    // replay launch of application replay.
    if (T.Hw.replay().replaysOutsideRange() && T.Hw.Enabled && F->Communication.empty())
      replayOutsideRange(A, F, CB);
    if (T.Hw.replay().launchesUntimed())
      timingUntimed(CB->correlationId, F->Mangled, CB->context);
    return;
  }
  T.Hw.replay().launchNeedsTime();
  if (!F->Communication.empty() && T.Ranges.active()) // its call's bytes (NCCL's NVTX payload)
    T.Ranges.communicationLaunch(threadId(), CB->correlationId);
  bool Count = F->Instrumented && !F->ByModel && T.Counting;
  bool ByModel = F->ByModel && T.Counting; // a record, counts from the model
  if (!Count && !ByModel && !T.Hw.Enabled)
    return;
  CUstream Stream = launchStream(A);
  if (streamCapturing(Stream))
    return; // captured into a graph: reported from activity, not counted
  // The counter array's lock before the hardware counters' context lock,
  // which pass replay takes in admit and keeps to the launch's exit; a
  // record's range takes it after this one too (CounterReplay::enter).
  std::unique_lock<std::mutex> ArrayLock;
  if (Count)
    ArrayLock = std::unique_lock<std::mutex>(F->Array->Lock);
  CounterReplay &Replay = T.Hw.replay(); // the mode that admits the launch enters it
  LaunchAdmission Adm; // Adm.Lender: a launch of equal work whose counters this one carries
  std::string WorkKey;
  bool Hw = false;
  if (T.Hw.Enabled && F->Communication.empty()) {
    if (Replay.usesWorkKey())
      WorkKey = workKeyOf(*F, A, T.S.Verbose >= 3);
    Hw = Replay.admit(*F, CB->context, WorkKey, CB->correlationId, true, Adm);
  }
  if (!Count && !ByModel && !Hw && !Adm.Lender)
    return;
  auto IF = std::make_unique<InFlight>();
  IF->R.CountersFrom = Adm.Lender;
  IF->R.WorkKey = std::move(WorkKey);
  if (Adm.Role == AppRole::Replay)
    IF->App = Adm.Ticket;
  IF->AppNewRecord = Adm.Role == AppRole::Record;
  IF->AppShape = std::move(Adm.Shape);
  IF->F = F;
  IF->Stream = Stream;
  IF->Ctx = CB->context;
  IF->PerThread = A.PerThread;
  if (Count) {
    IF->Lock = std::move(ArrayLock);
    CUresult R = prepareCounts(*F, *IF, Stream);
    if (R != CUDA_SUCCESS) {
      T.stopCounting(std::string("zeroing the counters of ") + F->Name + " failed (" + cuErr(R) +
                     "); dynamic counting stops");
      IF->Lock.unlock();
      Count = false;
      if (!Hw)
        return;
    }
  }
  IF->Counted = Count;
  Mark.Counted = Count;
  LaunchRecord &LR = IF->R;
  LR.Mangled = F->Mangled;
  LR.Name = F->Name;
  LR.Api = A.Api;
  LR.Correlation = CB->correlationId;
  LR.Thread = threadId();
  LR.Instrumented = F->Instrumented;
  LR.Range = Range;
  // The launch's device now: a launch that fails, or whose activity record
  // never comes, keeps it (the current context is the launch's).
  CUdevice Dev = 0;
  if (cuCtxGetDevice(&Dev) == CUDA_SUCCESS)
    LR.Device = int64_t(Dev);
  if (F->Instrumented && !Count && !ByModel)
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
    Replay.enter(*IF);
  *CB->correlationData = reinterpret_cast<uint64_t>(IF.release());
}

/// HROOF_REPLAY=application: a launch outside HROOF_RANGE whose shape has a
/// record missing a group collects that group (counters only: no record, no
/// dynamic counts; its activity record is dropped as out of range).
void replayOutsideRange(const LaunchArgs &A, std::shared_ptr<FuncInfo> F,
                        const CUpti_CallbackData *CB) {
  Runtime &T = rt();
  CUstream Stream = launchStream(A);
  if (streamCapturing(Stream))
    return;
  CounterReplay &Replay = T.Hw.replay();
  LaunchAdmission Adm;
  Replay.admit(*F, CB->context, workKeyOf(*F, A, T.S.Verbose >= 3), CB->correlationId, false, Adm);
  if (Adm.Role != AppRole::ReplayOnly)
    return;
  auto IF = std::make_unique<InFlight>();
  IF->F = F;
  IF->Stream = Stream;
  IF->Ctx = CB->context;
  IF->PerThread = A.PerThread;
  IF->App = Adm.Ticket;
  IF->NoRecord = true;
  IF->AppShape = std::move(Adm.Shape);
  IF->R.Mangled = F->Mangled;
  IF->R.Name = F->Name;
  IF->R.Correlation = CB->correlationId;
  if (!Replay.enter(*IF)) {
    if (IF->AppDone) { // a group given up (no range) completed an earlier record
      PendingLaunch Completed;
      Completed.R = std::move(*IF->AppDone);
      finalize(std::move(Completed));
    }
    return; // the group is given back (CounterReplay::enter)
  }
  markIssuedReplayed(CB->correlationId); // its time is not the program's (Timing.h)
  *CB->correlationData = reinterpret_cast<uint64_t>(IF.release());
}

/// The counts of a launch whose array could not be summed on the GPU: the
/// whole array copied back on the launch's stream, its copies summed here.
CUresult readWholeArray(const InFlight &IF, CountVector &C) {
  std::vector<uint64_t> Slots(size_t(NumCounters) * IF.F->CounterSlots);
  CUresult R =
      cuMemcpyDtoHAsync(Slots.data(), IF.F->Counters, CounterBytes * IF.F->CounterSlots, IF.Stream);
  if (R == CUDA_SUCCESS)
    R = cuStreamSynchronize(IF.Stream);
  if (R == CUDA_SUCCESS)
    for (size_t S = 0; S < IF.F->CounterSlots; ++S)
      for (int K = 0; K < NumCounters; ++K)
        C[K] += Slots[S * NumCounters + K];
  return R;
}

/// Launch exit of a counted launch: the pass spreads each kernel's counts
/// over CounterSlots copies of the array (by SM and warp); the launch's
/// counts are their sum, computed on the launch's stream by the sum kernel
/// (CounterSum.h), which also zeroes the slots for the next launch, and
/// copied back into the array's pinned buffer.
void readCounts(InFlight &IF) {
  Runtime &T = rt();
  uint64_t T0 = nowNs();
  LaunchRecord &LR = IF.R;
  const FuncInfo &F = *IF.F;
  CounterArray &A = *F.Array;
  CountVector C{};
  CUresult R = CUDA_SUCCESS;
  if (IF.Summed &&
      (R = CounterSummer::launch(F.Counters, F.CounterSlots, NumCounters, A.Sum, IF.Stream)) !=
          CUDA_SUCCESS) {
    // Not launched, the array untouched: read it whole. A fault of the
    // kernel fails that copy too, with the error of before.
    CUresult LaunchR = R;
    R = readWholeArray(IF, C);
    if (R == CUDA_SUCCESS) {
      A.SumProblem = std::string("counter sum kernel: cuLaunchKernel failed: ") + cuErr(LaunchR);
      logLine("kernel %s: %s", F.Name.c_str(), A.SumProblem.c_str());
      T.noteOnce(A.SumProblem + "; counter arrays are zeroed before and copied whole after "
                                "each counted launch");
    }
  } else if (IF.Summed) {
    R = cuMemcpyDtoHAsync(A.Sum.Host, A.Sum.Dev, CounterBytes, IF.Stream);
    if (R == CUDA_SUCCESS)
      R = cuStreamSynchronize(IF.Stream);
    if (R == CUDA_SUCCESS) {
      std::copy(A.Sum.Host, A.Sum.Host + NumCounters, C.begin());
      A.Zeroed = true;
    }
  } else {
    R = readWholeArray(IF, C);
  }
  T.Cost.ReadNs += nowNs() - T0;
  ++T.Cost.Reads;
  if (R == CUDA_SUCCESS) {
    LR.Dynamic = C;
  } else {
    // Deliver what CUPTI already holds before the context is torn down.
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    LR.Error = std::string("kernel failed: ") + cuErr(R);
    LR.DynamicProblem = "the kernel or a preceding operation on its stream failed";
    T.stopCounting("kernel " + IF.F->Name + " (launch " + std::to_string(LR.Correlation) +
                   ") failed with " + cuErr(R) +
                   "; dynamic counting stops, the profile keeps every "
                   "launch before it");
  }
}

/// The warp-level model at this launch (cached like the totals, with the
/// pointers modulo 128 added to the key: only their alignment matters).
void evaluateWarp(InFlight &IF, std::string Key) {
  Runtime &T = rt();
  LaunchRecord &LR = IF.R;
  const KernelModel &K = *IF.F->Model;
  if (!K.WarpUnknown.empty()) {
    LR.StaticWarpProblem = "not modelled: " + K.WarpUnknown.front();
    return;
  }
  if (K.Accesses.empty() || T.S.WarpEvalLimit <= 0)
    return;
  for (const auto &P : IF.Pointers)
    Key += P ? std::to_string(*P % 128) + "," : std::string("?,");
  FuncInfo &FM = *IF.F;
  {
    std::lock_guard<std::mutex> G(FM.StaticCacheLock);
    auto It = FM.WarpCache.find(Key);
    if (It != FM.WarpCache.end()) {
      LR.StaticWarp = It->second.first;
      LR.StaticWarpProblem = It->second.second;
      return;
    }
  }
  std::vector<std::string> Names;
  for (const ModelParam &P : K.Params)
    Names.push_back(P.Name);
  uint64_t T0 = nowNs();
  try {
    WarpModelOptions O;
    O.MaxLaneEvaluations = uint64_t(T.S.WarpEvalLimit);
    LR.StaticWarp = evaluateWarpTraffic(K.Accesses, IF.Shape, IF.Env, IF.Pointers, Names, O);
  } catch (const std::exception &E) {
    LR.StaticWarpProblem = std::string(E.what()) +
                           " (HROOF_WARP_EVAL_LIMIT=" + std::to_string(T.S.WarpEvalLimit) + ")";
  }
  T.Cost.WarpNs += nowNs() - T0;
  ++T.Cost.WarpRuns;
  std::lock_guard<std::mutex> G(FM.StaticCacheLock);
  if (FM.WarpCache.size() < StaticCacheLimit)
    FM.WarpCache[Key] = {LR.StaticWarp, LR.StaticWarpProblem};
}

/// Launch exit: the static model evaluated with this launch's grid, block
/// and integer arguments (cached per kernel by those), or why not.
void evaluateStatic(InFlight &IF) {
  Runtime &T = rt();
  LaunchRecord &LR = IF.R;
  const FuncInfo &F = *IF.F;
  if (!F.Instrumented)
    ; // uninstrumented (here for its hardware counters): no static model
  else if (!F.Model)
    LR.StaticProblem = F.ModelProblem;
  else if (!T.S.StaticEval)
    LR.StaticProblem = "static evaluation off (HROOF_STATIC_EVAL=0)";
  else if (!IF.ArgProblem.empty())
    LR.StaticProblem = IF.ArgProblem;
  else {
    std::string Key;
    for (int D = 0; D < 3; ++D)
      Key += std::to_string(IF.Shape.Grid[D]) + "," + std::to_string(IF.Shape.Block[D]) + ";";
    for (size_t I = 0; I < IF.Env.Args.size(); ++I)
      Key += (I < IF.Env.HasArg.size() && IF.Env.HasArg[I] ? std::to_string(IF.Env.Args[I])
                                                           : std::string("?")) +
             ",";
    // Fields of by-value arguments are launch parameters too.
    for (const auto &[R, V] : IF.Env.FieldVals)
      Key += std::to_string(R.Arg) + "+" + std::to_string(R.Off) + ":" + std::to_string(R.Bits) +
             "=" + std::to_string(V) + ",";
    FuncInfo &FM = *IF.F;
    bool Cached = false;
    {
      std::lock_guard<std::mutex> G(FM.StaticCacheLock);
      auto It = FM.StaticCache.find(Key);
      if (It != FM.StaticCache.end()) {
        LR.Static = It->second.Total;
        LR.StaticBounds = It->second.Bounds;
        LR.StaticProblem = It->second.Problem;
        Cached = true;
      }
    }
    if (Cached) {
      ++T.Cost.StaticHits;
    } else {
      uint64_t T0 = nowNs();
      try {
        ThreadSumOptions O;
        O.MaxEvaluations = uint64_t(T.S.EvalLimit);
        EvalEnv Env = IF.Env; // the same limit on steps of sums over a loop's iterations
        Env.MaxSumSteps = uint64_t(T.S.EvalLimit);
        LR.Static = evaluateKernel(*F.Model, IF.Shape, Env, O);
        if (!F.Model->Exact)
          LR.StaticBounds = evaluateKernelBounds(*F.Model, IF.Shape, Env, O);
      } catch (const std::exception &E) {
        LR.StaticProblem = E.what();
      }
      T.Cost.StaticNs += nowNs() - T0;
      ++T.Cost.StaticRuns;
      std::lock_guard<std::mutex> G(FM.StaticCacheLock);
      if (FM.StaticCache.size() < StaticCacheLimit)
        FM.StaticCache[Key] = {LR.Static, LR.StaticBounds, LR.StaticProblem};
    }
    evaluateWarp(IF, Key);
  }
}

/// A kernel counted by its exact model: the launch's counts are the model's
/// totals at this launch, or the reason there are none.
/// A kernel whose warp-level counts are its warp model's (a build with
/// -hroof-warp-counts, warp_counted_by_model): the dynamic counts' warp
/// counters from the warp model at this launch when exact; else 0, and why.
void warpCountsFromModel(LaunchRecord &LR, CountVector &C) {
  if (!LR.StaticWarp || !LR.StaticWarp->exact()) {
    LR.DynamicWarpProblem =
        "its warp-level counts are its warp model's, which is not exact at this launch" +
        (LR.StaticWarpProblem.empty() ? std::string() : ": " + LR.StaticWarpProblem);
    return;
  }
  for (int I = 0; I < NumWarpCounters; ++I) {
    std::string Key = std::string(WarpCounterKeys[I][0]) + "." + WarpCounterKeys[I][1] + "." +
                      WarpCounterKeys[I][2];
    auto It = LR.StaticWarp->Counts.find(Key);
    C[WarpBase + I] = It == LR.StaticWarp->Counts.end() ? 0 : uint64_t(It->second.Lo);
  }
}

void countsFromModel(LaunchRecord &LR, const FuncInfo &F) {
  if (!LR.Static) {
    LR.DynamicProblem = "counted by its exact static model, which was not evaluated here: " +
                        LR.StaticProblem;
    return;
  }
  CountVector C{};
  for (int K = 0; K < NumCounters; ++K) {
    if ((*LR.Static)[K] > u128(UINT64_MAX)) {
      LR.DynamicProblem = "counted by its exact static model, whose totals exceed 64 bits";
      return;
    }
    C[K] = uint64_t((*LR.Static)[K]);
  }
  if (F.Model && F.Model->WarpCountedByModel)
    warpCountsFromModel(LR, C);
  LR.Dynamic = C;
  LR.DynamicFromModel = true;
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
  bool HadRange = IF->Hw != nullptr;
  if (HadRange)
    IF->Replay->exit(*IF, LaunchResult);
  if (IF->AppDone) { // an earlier launch's record, complete with this group
    PendingLaunch Completed;
    Completed.R = std::move(*IF->AppDone);
    IF->AppDone.reset();
    finalize(std::move(Completed));
  }
  if (IF->NoRecord)
    return; // a replay launch outside HROOF_RANGE: counters only
  if (HadRange && IF->App && !IF->AppNewRecord && LR.HwProblem.empty())
    LR.HwProblem = "application replay: this launch collected counter group " +
                   std::to_string(IF->App->Group + 1) + " of " +
                   std::to_string(IF->App->Groups) + " for launch " +
                   std::to_string(IF->App->Record);
  if (LaunchResult != CUDA_SUCCESS) {
    LR.Error = std::string("launch failed: ") + cuErr(LaunchResult);
    if (LR.Instrumented)
      LR.DynamicProblem = "the launch failed";
  } else if (IF->Counted) {
    readCounts(*IF);
  }
  if (IF->Lock.owns_lock())
    IF->Lock.unlock();
  // Static model at this launch (outside the array lock).
  evaluateStatic(*IF);
  if (IF->F->ByModel && LaunchResult == CUDA_SUCCESS && !LR.Dynamic)
    countsFromModel(LR, *IF->F);
  if (T.S.Verbose >= 2)
    logLine("launch %u %s grid %u,%u,%u block %u,%u,%u%s%s", LR.Correlation, LR.Name.c_str(),
            LR.Grid[0], LR.Grid[1], LR.Grid[2], LR.Block[0], LR.Block[1], LR.Block[2],
            LR.Error.empty() ? "" : ": ", LR.Error.c_str());
  // A replayed launch gets no activity record (measured:
  // docs/validation/counters.md, "hroof against Nsight Compute, counters
  // against dynamic counts"): its duration is the range's
  // gpu__time_duration.sum.
  // Application replay: the group's own duration (the record's counters are
  // assembled later).
  bool FromCounters = false;
  std::optional<uint64_t> CounterNs = IF->AppTimeNs;
  if (LR.Hw && LR.Hw->contains("time_ns"))
    CounterNs = (*LR.Hw)["time_ns"].get<uint64_t>();
  if (CounterNs) {
    LR.Timed = true;
    LR.DurationFromCounters = true;
    LR.DurationNs = *CounterNs;
    LR.Device = int64_t(IF->Device);
    uint32_t StreamId = 0;
    if (cuptiGetStreamIdEx(IF->Ctx, IF->Stream, IF->PerThread ? 1 : 0, &StreamId) == CUPTI_SUCCESS)
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
      T.IssuedByCorrelation.erase(CB->correlationId); // no activity record will take it
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

std::string hostCostNote() {
  Runtime::HostCost &C = rt().Cost;
  if (!C.Reads && !C.StaticRuns && !C.WarpRuns)
    return "";
  char Buf[400];
  std::snprintf(Buf, sizeof Buf,
                "host time in counted launches: reading counts %.1f ms (%llu launches, "
                "waiting for the kernels included), static model %.1f ms (%llu evaluations, "
                "%llu from the cache), warp-level model %.1f ms (%llu evaluations)",
                double(C.ReadNs) / 1e6, (unsigned long long)C.Reads, double(C.StaticNs) / 1e6,
                (unsigned long long)C.StaticRuns, (unsigned long long)C.StaticHits,
                double(C.WarpNs) / 1e6, (unsigned long long)C.WarpRuns);
  return Buf;
}

void onGraphLaunch() {
  Runtime &T = rt();
  if (T.P)
    T.P->addGraphLaunch();
}

} // namespace rt
} // namespace hroof
