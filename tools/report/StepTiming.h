//===- StepTiming.h - time from the steps that were not profiled ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A profile made with --timing-range (docs/runtime.md "Timing ranges") has a
// "timing" section: kernel time per (range path, kernel, device) of launches
// outside --range, in steps the counters did not touch. This reads it for
// one device: the steps (stepOf: "step 4", "train/step 11") that have no
// replayed launch and do not follow one, their compute and communication
// time per step, and the time per range
// path below the step ("forward/layer0"), so `hroof report --by rank` and
// `--by range` can take time and imbalance from those steps and counters
// from the profiled one (docs/report.md "Time from unprofiled steps").
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_STEPTIMING_H
#define HROOF_TOOLS_REPORT_STEPTIMING_H

#include "ProfileData.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// The kernel time of one step.
struct StepTotals {
  double ComputeNs = 0, CommNs = 0;
  std::map<std::string, double> CommByLabel; ///< "NCCL AllReduce" -> ns
  std::map<std::string, double> RangeNs;     ///< path below the step -> ns
  uint64_t Launches = 0;
};

struct StepTiming {
  std::string Filter;               ///< the profile's --timing-range
  std::vector<std::string> Steps;   ///< steps used, in time order
  std::vector<std::string> LeftOut; ///< steps with a replayed launch, or not in useSteps' set
  double ComputeNs = 0, CommNs = 0; ///< per step (mean over Steps)
  std::map<std::string, double> CommByLabel; ///< "NCCL AllReduce" -> ns per step
  std::map<std::string, double> RangeNs;     ///< path below the step -> ns per step
  uint64_t Launches = 0;                     ///< over Steps
  /// Every step without a replayed launch, by name.
  std::map<std::string, StepTotals> Clean;
  /// Some steps to take time from.
  bool usable() const { return !Steps.empty(); }
  /// Keeps only the clean steps in \p Names (the steps clean on every rank:
  /// in a step where one rank replayed, the others wait for it) and
  /// recomputes the means; false when none is left.
  bool useSteps(const std::vector<std::string> &Names);
  /// "step 4..step 11 (8 unprofiled steps)" or "step 5 (1 unprofiled step)".
  std::string describe() const;
};

/// The timing of device \p Device (-1: every device) in profile \p P; an
/// empty result when it has no "timing" section or no step without replay.
StepTiming readStepTiming(const Profile &P, int64_t Device);

/// The step of range path \p Path: up to its first element with a digit
/// ("step 3/forward/layer0" -> "step 3", "train/step 11/forward" ->
/// "train/step 11"), else its first element.
std::string stepOf(const std::string &Path);
/// \p Path below its step ("step 3/forward/layer0" -> "forward/layer0";
/// "step 3" -> "").
std::string pathBelowStep(const std::string &Path);

} // namespace report
} // namespace hroof

#endif
