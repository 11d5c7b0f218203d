//===- ReportExport.h - `hroof report` as CSV and JSON for scripts ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one definition of the report's machine-readable forms: the CSV
// (one row per kernel) and the JSON (`hroof_report` 1), with every number
// the table shows and more (FLOPs per precision, bytes per memory level), all
// exact (fmtExact). Both list every kernel, whatever the table and chart
// leave out. docs/report.md describes the columns and fields.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_REPORTEXPORT_H
#define HROOF_TOOLS_REPORT_REPORTEXPORT_H

#include "ReportData.h"

#include <nlohmann/json.hpp>

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// The kernels' rows, in the order of \p As.
void writeReportCsv(std::ostream &OS, const std::vector<KernelAnalysis> &As);

/// {"hroof_report": 1, "inputs", "machine", "kernels": [...], "notes"}.
nlohmann::json reportJson(const Dataset &D, const Machine &M, const std::vector<KernelAnalysis> &As,
                          const std::vector<std::string> &Notes);

/// The same kernels in a baseline run and in this one (same mangled name,
/// else same signature), and those in only one of them.
struct BaselinePair {
  const KernelAnalysis *Old, *New;
};
struct BaselineComparison {
  std::vector<BaselinePair> Pairs; ///< in the order of the new kernels
  std::vector<const KernelAnalysis *> OnlyNew, OnlyOld;
};
BaselineComparison compareToBaseline(const std::vector<KernelAnalysis> &Old,
                                     const std::vector<KernelAnalysis> &New);
/// (New - Old) / Old in percent; 0 when Old is 0.
double changePct(double Old, double New);
/// {"inputs", "kernels": [{id, name, mangled, time_ns_total, gflops,
/// ai: {L1, L2, HBM}}, each {old, new, change_pct}], "new", "gone"}.
nlohmann::json baselineJson(const BaselineComparison &C, const Dataset &OldInputs);
/// The chart's arrows: each paired kernel of this run -> its baseline.
std::map<const KernelAnalysis *, const KernelAnalysis *> pairArrows(const BaselineComparison &C);

/// Bytes per launch at \p Level ("L1", "L2", "HBM"), 0 when not measured.
double bytesAt(const KernelAnalysis &A, const std::string &Level);
/// AI at \p Level, 0 when the kernel has none there.
double aiAt(const KernelAnalysis &A, const std::string &Level);

} // namespace report
} // namespace hroof

#endif
