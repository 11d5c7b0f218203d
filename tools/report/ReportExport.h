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

/// Bytes per launch at \p Level ("L1", "L2", "HBM"), 0 when not measured.
double bytesAt(const KernelAnalysis &A, const std::string &Level);
/// AI at \p Level, 0 when the kernel has none there.
double aiAt(const KernelAnalysis &A, const std::string &Level);

} // namespace report
} // namespace hroof

#endif
