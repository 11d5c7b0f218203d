//===- Format.cpp - how the hroof tool writes numbers and CSV -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Format.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>

namespace hroof {
namespace report {

std::string fmtNum(double V, int Prec) {
  if (!std::isfinite(V))
    return "-";
  char Buf[64];
  double A = std::fabs(V);
  if (A == 0)
    return "0";
  if (A >= 1e3 && A < 1e9)
    std::snprintf(Buf, sizeof Buf, "%.0f", V);
  else if (A >= 1e9 || A < 1e-3)
    std::snprintf(Buf, sizeof Buf, "%.*e", Prec - 1, V);
  else
    std::snprintf(Buf, sizeof Buf, "%.*g", Prec, V);
  return Buf;
}

std::string fmtFixed(double V, int Decimals) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.*f", Decimals, V);
  return Buf;
}

std::string fmtSignificant(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
  return Buf;
}

std::string fmtExact(double V) {
  if (!std::isfinite(V))
    return "";
  char Buf[64];
  if (V == std::floor(V) && std::fabs(V) < 1e21) {
    std::snprintf(Buf, sizeof Buf, "%.0f", V);
    return Buf;
  }
  for (int Digits = 15; Digits <= 17; ++Digits) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
    if (std::strtod(Buf, nullptr) == V)
      break;
  }
  return Buf;
}

std::string fmtRatio(double A, double B) { return fmtFixed(B ? A / B : 0.0, 2) + "x"; }

std::string fmtSi(double V, SiStyle Style) {
  struct Prefix {
    double Scale;
    const char *Name;
  };
  static const Prefix CountPrefixes[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  static const Prefix DemoPrefixes[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "K"}};
  std::ostringstream OS;
  auto Scaled = [&](const Prefix *Begin, const Prefix *End) {
    for (const Prefix *P = Begin; P != End; ++P)
      if (V >= P->Scale) {
        OS << std::fixed << std::setprecision(2) << V / P->Scale << P->Name;
        return true;
      }
    return false;
  };
  if (Style == SiStyle::Counts) {
    if (!Scaled(std::begin(CountPrefixes), std::end(CountPrefixes)))
      OS << (uint64_t)V;
  } else if (!Scaled(std::begin(DemoPrefixes), std::end(DemoPrefixes))) {
    OS << V;
  }
  return OS.str();
}

std::string csvField(const std::string &S) {
  if (S.find_first_of(",\"\n") == std::string::npos)
    return S;
  std::string R = "\"";
  for (char C : S)
    R += C == '"' ? std::string("\"\"") : std::string(1, C);
  return R + "\"";
}

void writeCsvRow(std::ostream &OS, const std::vector<std::string> &Fields) {
  for (size_t I = 0; I < Fields.size(); ++I)
    OS << (I ? "," : "") << csvField(Fields[I]);
  OS << "\n";
}

} // namespace report
} // namespace hroof
