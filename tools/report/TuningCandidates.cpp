//===- TuningCandidates.cpp - what to tune first, ranked by lost time -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "TuningCandidates.h"
#include "Insights.h"
#include "TextTable.h"

#include <algorithm>
#include <iomanip>

namespace hroof {
namespace report {

double headroomNs(double TimeNs, double Fraction) {
  return TimeNs * (1.0 - std::clamp(Fraction, 0.0, 1.0));
}

Candidate kernelCandidate(const KernelAnalysis &A, const std::string &Name) {
  Candidate C;
  C.What = "kernel";
  C.Name = Name;
  C.TimeNs = A.TotalTimeNs;
  C.Insight = insightLabel(A.Insights);
  if (A.TotalTimeNs <= 0 || A.Bound.empty() || A.PctOfCeiling <= 0)
    return C;
  C.Fraction = A.PctOfCeiling / 100.0;
  C.Roof = A.Bound;
  C.NoFlops = A.FlopsPerLaunch == 0;
  C.HeadroomNs = headroomNs(C.TimeNs, C.Fraction);
  return C;
}

std::vector<Candidate> kernelCandidates(const std::vector<KernelAnalysis> &As) {
  std::vector<Candidate> Cs;
  for (const KernelAnalysis &A : As) {
    Cs.push_back(kernelCandidate(A, shortName(A.K->Name)));
    if (!A.Communication.empty()) // its time counts; a roofline's headroom means nothing
      Cs.back().Roof.clear();
  }
  return Cs;
}

double totalTimeNs(const std::vector<Candidate> &Cs) {
  double T = 0;
  for (const Candidate &C : Cs)
    T += C.TimeNs;
  return T;
}

std::vector<Candidate> rankCandidates(std::vector<Candidate> Cs, size_t Top) {
  Cs.erase(std::remove_if(Cs.begin(), Cs.end(), [](const Candidate &C) { return C.Roof.empty(); }),
           Cs.end());
  std::stable_sort(Cs.begin(), Cs.end(), [](const Candidate &A, const Candidate &B) {
    return A.HeadroomNs > B.HeadroomNs;
  });
  if (Top && Cs.size() > Top)
    Cs.resize(Top);
  return Cs;
}

void printCandidates(std::ostream &OS, const std::vector<Candidate> &Cs, double TotalNs) {
  OS << "tuning candidates (time x (1 - achieved/attainable at the limiting roof), "
        "largest first):\n";
  std::vector<std::vector<std::string>> Rows = {
      {"#", "what", "name", "time ms", "%roof", "headroom ms", "of total%", "limiting roof"}};
  bool AnyInsight = false;
  for (const Candidate &C : Cs)
    AnyInsight |= !C.Insight.empty();
  if (AnyInsight)
    Rows[0].push_back("insight");
  for (size_t I = 0; I < Cs.size(); ++I) {
    const Candidate &C = Cs[I];
    Rows.push_back({std::to_string(I + 1), C.What,
                    C.Name.size() > 48 ? C.Name.substr(0, 45) + "..." : C.Name,
                    fmtFixed(C.TimeNs / 1e6, 3), fmtFixed(100 * C.Fraction, 1),
                    fmtFixed(C.HeadroomNs / 1e6, 3),
                    TotalNs > 0 ? fmtFixed(100 * C.HeadroomNs / TotalNs, 1) : "-", C.Roof});
    if (AnyInsight)
      Rows.back().push_back(C.Insight.empty() ? "-" : C.Insight);
  }
  printTextTable(OS, Rows, AnyInsight ? std::set<size_t>{1, 2, 8} : std::set<size_t>{1, 2});
}

nlohmann::json candidatesJson(const std::vector<Candidate> &Cs, double TotalNs) {
  nlohmann::json Out = nlohmann::json::array();
  for (size_t I = 0; I < Cs.size(); ++I) {
    const Candidate &C = Cs[I];
    Out.push_back({{"rank", I + 1},
                   {"what", C.What},
                   {"name", C.Name},
                   {"time_ns", C.TimeNs},
                   {"fraction_of_roof", C.Fraction},
                   {"insight", C.Insight},
                   {"limiting_roof", C.Roof},
                   {"headroom_ns", C.HeadroomNs},
                   {"headroom_share_of_total", TotalNs > 0 ? C.HeadroomNs / TotalNs : 0.0},
                   {"no_flops", C.NoFlops}});
  }
  return Out;
}

} // namespace report
} // namespace hroof
