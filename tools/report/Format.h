//===- Format.h - how the hroof tool writes numbers and CSV ---------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every number the subcommands print goes through one of these, so that the
// same quantity reads the same in `hroof report`, `compare`, `run` and
// `demo`; and the one CSV writer (RFC 4180 quoting) that `hroof report --csv`
// uses.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_FORMAT_H
#define HROOF_TOOLS_REPORT_FORMAT_H

#include <ostream>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// Table cells: "0", "123", "4.56", "12345" (no exponent from 1e3 to 1e9),
/// "1.23e+09", "4.56e-04"; "-" when not finite. \p Prec significant digits.
std::string fmtNum(double V, int Prec = 3);
/// \p V with \p Decimals digits after the point ("%.*f").
std::string fmtFixed(double V, int Decimals);
/// \p V with at most \p Digits significant digits, the shortest form ("%.*g").
std::string fmtSignificant(double V, int Digits = 6);
/// \p V exactly, for files that scripts read back: a whole number in full
/// ("17179869184", never "1.71799e+10"), anything else in the shortest
/// form that reads back as the same double; "" when not finite.
std::string fmtExact(double V);
/// "2.00x": \p A / \p B with two decimals ("0.00x" when \p B is 0).
std::string fmtRatio(double A, double B);

/// Counts with a unit prefix and two decimals ("1.50M").
enum class SiStyle {
  /// k, M, G, T; whole numbers below 1000 (the `hroof run` summary).
  Counts,
  /// K, M, G; below 1000 as the stream prints a double (`hroof demo`).
  Demo,
};
std::string fmtSi(double V, SiStyle Style);

/// One CSV field: quoted (quotes doubled) when it holds a comma, a quote or
/// a newline.
std::string csvField(const std::string &S);
/// One CSV record: the fields, quoted where needed, comma-separated, "\n".
void writeCsvRow(std::ostream &OS, const std::vector<std::string> &Fields);

} // namespace report
} // namespace hroof

#endif
