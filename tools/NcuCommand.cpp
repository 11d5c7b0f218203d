//===- NcuCommand.cpp - hroof ncu EXPORT.csv -------------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Prints each launch row of an Nsight Compute `--csv --page raw` export as
// the CLI reads it: the kernel, the metric values in base units and the
// profile counter keys they give by the shared metric table
// (common/include/hroof/CounterMetrics.h). test/gpu/compare.py reads this
// instead of carrying its own copy of the mapping.
//
//   [{"kernel": "...", "device": "...", "metrics": {NAME: VALUE},
//     "counters": {"flops.f32": N, "bytes.global.load": N, ...}}, ...]
//===----------------------------------------------------------------------===//
#include "Settings.h"
#include "Subcommand.h"
#include "Toolchain.h"
#include "report/ReportData.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace hroof {

namespace {

int runNcu(const std::string &Path) {
  report::NcuExport E = report::readNcuCsv(Path, report::readFile(Path));
  nlohmann::json Out = nlohmann::json::array();
  for (const report::NcuRow &R : E.Rows)
    Out.push_back({{"kernel", R.Kernel},
                   {"device", R.Device},
                   {"metrics", R.Metrics},
                   {"counters", R.Counters}});
  std::cout << Out.dump(1) << "\n";
  return 0;
}

} // namespace

Subcommand addNcuCommand(CLI::App &App) {
  auto Path = std::make_shared<std::string>();
  CLI::App *C = App.add_subcommand(
      "ncu", "Print the launch rows of an Nsight Compute raw CSV export (ncu --csv "
             "--page raw) as JSON: each row's metrics and the profile counter keys "
             "hroof derives from them (docs/report.md).");
  C->add_option("export", *Path, "ncu raw CSV file")->required();
  C->footer(environmentHelp({}));
  return {C, [Path] { return runNcu(*Path); }};
}

} // namespace hroof
