//===- KernelReplay.cpp - kernel replay: one range per launch -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// KernelReplay (KernelReplay.h): which launches get a range, and the
// kernel-replay choices the shared range path (HardwareCounters.cpp) asks
// of it.
//===----------------------------------------------------------------------===//
#include "replay/KernelReplay.h"
#include "replay/HardwareCounters.h"
#include "launches/WorkKey.h"

namespace hroof {
namespace rt {

bool KernelReplay::usesWorkKey() const { return H.PerShape > 0; }

bool KernelReplay::admit(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey,
                         uint32_t Corr, bool InRange, LaunchAdmission &A) {
  A.Lender = 0;
  if (!InRange)
    return false; // no replay launches outside the range
  std::lock_guard<std::mutex> L(H.M);
  int64_t &N = H.Taken[{F.Mangled, Ctx}];
  if (H.PerShape > 0) { // the work key only when asked for: every launch comes here
    int64_t &S = TakenPerShape[{WorkKey, Ctx}];
    if (S >= H.PerShape) {
      auto It = FirstOfWork.find({WorkKey, Ctx});
      if (It != FirstOfWork.end() && workKeyHasParams(WorkKey))
        A.Lender = It->second;
      return false;
    }
    if (N >= H.Limit)
      return false;
    ++S;
    FirstOfWork.emplace(std::make_pair(WorkKey, Ctx), Corr);
    ++N;
    return true;
  }
  if (N >= H.Limit)
    return false;
  ++N;
  return true;
}

bool KernelReplay::enter(CounterLaunch &IF) {
  IF.Replay = this;
  std::unique_lock<std::mutex> Lock;
  uint64_t T0 = 0;
  HwContext *C = H.lockContext(IF, Lock, T0);
  if (!C)
    return false;
  HwConfig *Cfg = nullptr;
  std::string E = H.config(*C, H.typeMask(IF, *C), Cfg);
  return H.openRange(IF, *C, Lock, Cfg, E, T0);
}

void KernelReplay::exit(CounterLaunch &IF, CUresult LaunchResult) {
  H.closeRange(IF, LaunchResult);
}

bool KernelReplay::freshObject(HwContext &C, const HwConfig &Cfg, bool Fits) {
  if (!Fits) {
    ++ListRecreates;
    return true;
  }
  return C.Policy.recreate(C.ObjPasses, Cfg.Passes);
}

void KernelReplay::rangeValues(CounterLaunch &IF, HwContext &C, const HwConfig &,
                               std::map<std::string, double> Values,
                               const std::string &NotEvaluated) {
  H.launchValues(IF, C, Values, NotEvaluated);
}

} // namespace rt
} // namespace hroof
