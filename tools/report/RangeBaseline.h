//===- RangeBaseline.h - `hroof report --by range --baseline B...` --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Two runs of one model side by side per NVTX range path: typically an FP32
// run as the baseline and a mixed-precision (AMP) run as this run. Ranges
// are matched by their path (cut to the same depth); a range of one run
// only is listed as such. Per range: the time of each run, the speedup
// (baseline time / this run's time), the FLOPs of each and the Tensor Core
// share of the FLOPs of each (tensor_* precisions over all FLOPs), and a
// note naming the ranges whose time changed most. docs/report.md.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_RANGEBASELINE_H
#define HROOF_TOOLS_REPORT_RANGEBASELINE_H

#include "RangeView.h"

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// One range path: its row in this run and in the baseline (null where the
/// range ran in one of them only).
struct RangePair {
  std::string Range;
  const RangeRow *This = nullptr, *Base = nullptr;
};

struct RangeComparison {
  std::vector<std::string> BaselineInputs;
  /// This run's ranges in its table's order, then the baseline's own.
  std::vector<RangePair> Pairs;
  /// The ranges of both runs whose time changed most, largest first.
  std::vector<const RangePair *> LargestChanges;
  /// The baseline's range notes (a profile without ranges, estimated launches).
  std::vector<std::string> Notes;
};

/// How many ranges the note on the largest time differences names.
constexpr size_t LargestChangesNamed = 3;

/// Pairs the rows of \p This and \p Base (which must outlive the result).
RangeComparison compareRanges(const RangeView &This, const RangeView &Base,
                              const std::vector<std::string> &BaselineInputs);

/// The share of \p R's FLOPs on Tensor Cores (tensor_* precisions); -1
/// without FLOPs.
double tensorFlopShare(const RangeRow &R);

/// The chart's arrows: each range point of \p This (its ChartPoints) -> the
/// same range's point in \p Base, where both runs have one.
std::map<const KernelAnalysis *, const KernelAnalysis *> rangeArrows(const RangeView &This,
                                                                     const RangeView &Base);

/// The table "against the baseline by range" and its note.
void printRangeComparison(std::ostream &OS, const RangeComparison &C);

/// Adds to --range-json: "tensor_flop_share" and "baseline" (null for a range
/// of this run only) to each range of \p J["ranges"], and J["baseline"] with
/// the inputs, the ranges of the baseline only and the largest changes.
void addRangeComparisonJson(nlohmann::json &J, const RangeComparison &C);

} // namespace report
} // namespace hroof

#endif
