// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Fuzzes the Nsight Compute CSV import (report/ReportData.h: readNcuCsv,
// addNcuCsv) and the analysis of what it accepts. Accepted rejection:
// UserError.
#include "FuzzInput.h"
#include "Toolchain.h"
#include "report/ReportData.h"

using namespace hroof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text = fuzz::text(Data, Size);
  try {
    report::looksLikeNcuCsv(Text);
    report::readNcuCsv("fuzz.csv", Text);
    report::Dataset D;
    report::addNcuCsv(D, "fuzz.csv", Text);
    report::analyze(D, nullptr);
  } catch (const UserError &) {
  }
  return 0;
}
