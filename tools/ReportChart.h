//===- ReportChart.h - the hierarchical roofline chart of `hroof report` ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The chart as one Vega-Lite spec (the HTML renders it with vega-embed, the
// SVG is the same spec rendered in node). The labels are placed here, in
// the chart's pixel space, so that no two overlap (docs/report.md, "The
// chart").
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORTCHART_H
#define HROOF_TOOLS_REPORTCHART_H

#include "report/ReportData.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace hroof {

struct ChartOptions {
  bool AllCeilings = false;
  bool ColorByBound = false; ///< colour by limiting roof instead of by kernel
  size_t NameWidth = 48;     ///< legend names cut to this many characters
  /// What the points are (--by range: NVTX ranges, forward beside backward).
  std::string LegendTitle = "Kernel (by time)";
  /// --baseline: a kernel drawn -> the same kernel in the baseline run,
  /// drawn as a hollow point with an arrow to the kernel's point.
  std::map<const report::KernelAnalysis *, const report::KernelAnalysis *> Baseline;
  /// Draw the hollow Baseline point also where it falls on the kernel's own
  /// point (--static: agreement is worth seeing), without the arrow.
  bool BaselineWhereEqual = false;
};

/// The kernels drawn (in order of decreasing time: the legend's order) and,
/// when some were left out, their aggregate (\p Other, null otherwise).
nlohmann::json chartSpec(const std::vector<const report::KernelAnalysis *> &Shown,
                         const report::KernelAnalysis *Other, const report::Machine &M,
                         const std::string &Title, const ChartOptions &O);

/// \p Name cut to \p Width characters ("..." at the end when cut).
std::string cutName(const std::string &Name, size_t Width);

} // namespace hroof

#endif
