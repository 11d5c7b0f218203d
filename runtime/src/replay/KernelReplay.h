//===- KernelReplay.h - kernel replay: one range per launch ---------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_REPLAY=kernel, the default (docs/runtime.md "Hardware counters"):
// each admitted launch gets one auto range, replayed by CUPTI with as many
// passes as its metric list needs (the shared range path of
// HardwareCounters.h). Its own state: the per-shape limit and the lenders of
// the launches past it (CounterLoans.h), and the choice of a fresh range
// profiler object for fewer passes (ReplayPolicy.h).
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_REPLAY_KERNELREPLAY_H
#define HROOF_RUNTIME_REPLAY_KERNELREPLAY_H

#include "replay/CounterReplay.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace hroof {
namespace rt {

struct HardwareCounters;

class KernelReplay final : public CounterReplay {
public:
  explicit KernelReplay(HardwareCounters &H) : H(H) {}
  ReplayMode mode() const override { return ReplayMode::Kernel; }
  /// Only with HROOF_COUNTERS_PER_SHAPE: every launch comes here.
  bool usesWorkKey() const override;
  /// Under the launch limit of its kernel on this context and, with
  /// HROOF_COUNTERS_PER_SHAPE, under that of its work key. When the
  /// per-shape limit refuses the launch, A.Lender is the correlation id of
  /// the profiled launch of its work key (0: none).
  bool admit(const FuncInfo &F, CUcontext Ctx, const std::string &WorkKey, uint32_t Corr,
             bool InRange, LaunchAdmission &A) override;
  bool enter(CounterLaunch &IF) override;
  void exit(CounterLaunch &IF, CUresult LaunchResult) override;
  /// A list outside the object's first: fresh; one within it with fewer
  /// passes: when the passes it wastes cost a fresh object (ReplayPolicy.h).
  bool freshObject(HwContext &C, const HwConfig &Cfg, bool Fits) override;
  /// The values checked against (or teaching) the kernel's tensor types.
  void rangeValues(CounterLaunch &IF, HwContext &C, const HwConfig &Cfg,
                   std::map<std::string, double> Values, const std::string &NotEvaluated) override;

  /// Fresh objects for a list outside the object's first (the finish note).
  std::atomic<uint64_t> ListRecreates{0};

private:
  HardwareCounters &H;
  /// Launches given counters per work key and context
  /// (HROOF_COUNTERS_PER_SHAPE), under H.M.
  std::map<std::pair<std::string, CUcontext>, int64_t> TakenPerShape;
  /// The correlation id of each work key's first profiled launch, which
  /// lends its counters to the launches past the per-shape limit
  /// (CounterLoans.h), under H.M.
  std::map<std::pair<std::string, CUcontext>, uint32_t> FirstOfWork;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_REPLAY_KERNELREPLAY_H
