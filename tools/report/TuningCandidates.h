//===- TuningCandidates.h - what to tune first, ranked by lost time -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Time-weighted headroom: a kernel's (or NVTX range's) time x (1 - achieved /
// attainable at its limiting roof of the hierarchical roofline), with that
// roof named. A kernel at 20% of its roof for 10 ms can give back more time
// than one at 50% for 2 ms: ranking by headroom, not by the fraction of the
// roof, puts the first one first (docs/report.md "Tuning candidates").
// Kernels without FLOPs are judged at their busiest memory level.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_TUNINGCANDIDATES_H
#define HROOF_TOOLS_REPORT_TUNINGCANDIDATES_H

#include "ReportData.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// One candidate: a kernel or a range.
struct Candidate {
  std::string What;    ///< "kernel" or "range"
  std::string Name;    ///< short kernel name or range path
  double TimeNs = 0;   ///< its total time
  double Fraction = 0; ///< achieved / attainable at Roof (0..1)
  std::string Roof;    ///< the limiting roof ("HBM bandwidth", "compute (f32)")
  double HeadroomNs = 0;
  bool NoFlops = false; ///< judged at its busiest memory level
  std::string Insight;  ///< insightLabel (Insights.h): "TC opportunity", ...
};

/// TimeNs x (1 - Fraction), Fraction clamped to [0, 1] (a point above its
/// roof, from rounding or a too-low ceiling, has no headroom, not negative).
double headroomNs(double TimeNs, double Fraction);

/// The candidate of one analysed kernel; none (Roof empty) when it has no
/// roof (no time, or no FLOPs and no bytes).
Candidate kernelCandidate(const KernelAnalysis &A, const std::string &Name);

/// One candidate per kernel (short names).
std::vector<Candidate> kernelCandidates(const std::vector<KernelAnalysis> &As);
/// The summed time of \p Cs.
double totalTimeNs(const std::vector<Candidate> &Cs);

/// Sorted by headroom, largest first; the first \p Top (0: all).
std::vector<Candidate> rankCandidates(std::vector<Candidate> Cs, size_t Top);

void printCandidates(std::ostream &OS, const std::vector<Candidate> &Cs, double TotalNs);
nlohmann::json candidatesJson(const std::vector<Candidate> &Cs, double TotalNs);

} // namespace report
} // namespace hroof

#endif
