//===- StaticPoints.h - the static model's place on the chart -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `hroof report --static`: beside each kernel's measured point at a memory
// level, where the static model puts it: the same achieved GFLOP/s, and the
// arithmetic intensity of the static FLOPs over the static bytes of that
// level: 32 x the predicted sectors at L1, the footprint (distinct bytes) at
// HBM, the thread-level requested bytes at "global (requested)" (docs/
// counting-model.md). The chart draws it hollow with a dashed line to the
// measured point, so the distance between them is the disagreement between
// the compiler's view and the hardware's, level by level.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_STATICPOINTS_H
#define HROOF_TOOLS_REPORT_STATICPOINTS_H

#include "ReportData.h"

#include <optional>

namespace hroof {
namespace report {

/// The static placement of \p A's kernel at the levels its measured point
/// has, or nothing when the kernel has no static model (uninstrumented), no
/// measured point, or no static bytes at a measured level (e.g. no warp-level
/// model where the counters give L1, L2 and HBM). Levels where the model
/// gives bounds use the lower bound (the footprint's compulsory traffic, the
/// fewest sectors): the placement is then an upper bound on AI, and
/// \p Note says so.
std::optional<KernelAnalysis> staticPlacement(const KernelAnalysis &A, std::string &Note);

} // namespace report
} // namespace hroof

#endif
