//===- TextTable.h - a terminal table of aligned columns ------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every terminal table of `hroof report` (the kernel table, --baseline,
// --by range, --tuning): columns as wide as their widest cell, two spaces
// apart, the last column unpadded.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_TEXTTABLE_H
#define HROOF_TOOLS_REPORT_TEXTTABLE_H

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// Prints \p Rows (the header first); columns in \p Left and the last one
/// are left-aligned (names), the others right-aligned (numbers).
inline void printTextTable(std::ostream &OS, const std::vector<std::vector<std::string>> &Rows,
                           const std::set<size_t> &Left) {
  std::vector<size_t> W;
  for (const auto &R : Rows) {
    W.resize(std::max(W.size(), R.size()), 0);
    for (size_t C = 0; C < R.size(); ++C)
      W[C] = std::max(W[C], R[C].size());
  }
  for (const auto &R : Rows) {
    for (size_t C = 0; C < R.size(); ++C) {
      bool Last = C + 1 == R.size();
      OS << (C ? "  " : "") << (Left.count(C) || Last ? std::left : std::right)
         << std::setw(Last ? 0 : int(W[C])) << R[C];
    }
    OS << std::right << "\n";
  }
}

} // namespace report
} // namespace hroof

#endif
