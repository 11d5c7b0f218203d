//===- RangeBaseline.cpp - `hroof report --by range --baseline B...` ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "RangeBaseline.h"
#include "Format.h"
#include "TextTable.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace hroof {
namespace report {

double tensorFlopShare(const RangeRow &R) {
  if (R.Flops <= 0)
    return -1;
  double Tensor = 0;
  for (const auto &[P, V] : R.FlopsByPrecision)
    if (P.rfind("tensor_", 0) == 0)
      Tensor += V;
  return Tensor / R.Flops;
}

RangeComparison compareRanges(const RangeView &This, const RangeView &Base,
                              const std::vector<std::string> &BaselineInputs) {
  RangeComparison C;
  C.BaselineInputs = BaselineInputs;
  for (const std::string &N : Base.Notes)
    C.Notes.push_back("baseline: " + N);
  if (Base.Rows.empty() && Base.Notes.empty()) // its inputs are Nsight Compute exports
    C.Notes.push_back("baseline: no NVTX range paths in its inputs (Nsight Compute exports "
                      "have none)");
  std::map<std::string, const RangeRow *> BaseByPath;
  for (const RangeRow &R : Base.Rows)
    BaseByPath[R.Range] = &R;
  for (const RangeRow &R : This.Rows) {
    auto It = BaseByPath.find(R.Range);
    C.Pairs.push_back({R.Range, &R, It == BaseByPath.end() ? nullptr : It->second});
    if (It != BaseByPath.end())
      BaseByPath.erase(It);
  }
  for (const RangeRow &R : Base.Rows)
    if (BaseByPath.count(R.Range))
      C.Pairs.push_back({R.Range, nullptr, &R});
  // Only ranges of both runs: a range of one run is listed as such, and its
  // whole time is no difference of the same work.
  for (const RangePair &P : C.Pairs)
    if (P.This && P.Base && P.This->TimeNs != P.Base->TimeNs)
      C.LargestChanges.push_back(&P);
  auto Diff = [](const RangePair *P) { return std::fabs(P->Base->TimeNs - P->This->TimeNs); };
  std::stable_sort(C.LargestChanges.begin(), C.LargestChanges.end(),
                   [&](const RangePair *A, const RangePair *B) { return Diff(A) > Diff(B); });
  if (C.LargestChanges.size() > LargestChangesNamed)
    C.LargestChanges.resize(LargestChangesNamed);
  return C;
}

namespace {

/// Each range path's chart point: addRowPoint makes one, in row order, for
/// each row with launches and FLOP/s.
std::map<std::string, const KernelAnalysis *> pointsByPath(const RangeView &V) {
  std::map<std::string, const KernelAnalysis *> Out;
  size_t Next = 0;
  for (const RangeRow &R : V.Rows)
    if (R.GFlops > 0 && R.Launches && Next < V.ChartPoints.size())
      Out[R.Range] = &V.ChartPoints[Next++];
  return Out;
}

} // namespace

std::map<const KernelAnalysis *, const KernelAnalysis *> rangeArrows(const RangeView &This,
                                                                     const RangeView &Base) {
  std::map<const KernelAnalysis *, const KernelAnalysis *> Out;
  std::map<std::string, const KernelAnalysis *> Old = pointsByPath(Base);
  for (const auto &[Path, New] : pointsByPath(This))
    if (auto It = Old.find(Path); It != Old.end())
      Out[New] = It->second;
  return Out;
}

namespace {

std::string rangeName(const std::string &Path) {
  return Path.empty() ? "(outside any range)" : Path;
}

std::string msCell(const RangeRow *R) { return R ? fmtFixed(R->TimeNs / 1e6, 3) : "-"; }

std::string gflopCell(const RangeRow *R) { return R ? fmtNum(R->Flops / 1e9) : "-"; }

std::string tensorCell(const RangeRow *R) {
  double S = R ? tensorFlopShare(*R) : -1;
  return S >= 0 ? fmtFixed(100 * S, 1) : "-";
}

std::string speedupCell(const RangePair &P) {
  return P.This && P.Base && P.This->TimeNs > 0 ? fmtRatio(P.Base->TimeNs, P.This->TimeNs) : "-";
}

/// "step 1/backward/linear1 3.200 -> 0.800 ms (4.00x)" for each of the
/// largest changes.
std::string largestChangesNote(const RangeComparison &C) {
  std::string Line;
  for (const RangePair *P : C.LargestChanges)
    Line += (Line.empty() ? "" : ", ") + rangeName(P->Range) + " " + msCell(P->Base) + " -> " +
            msCell(P->This) + " ms (" + speedupCell(*P) + ")";
  return Line.empty() ? "" : "largest time differences (baseline -> this run): " + Line;
}

nlohmann::json shareJson(const RangeRow &R) {
  double S = tensorFlopShare(R);
  return S >= 0 ? nlohmann::json(S) : nlohmann::json(nullptr);
}

/// A range of the baseline: its time, FLOPs, Tensor Core share and launches.
nlohmann::json baseRowJson(const RangeRow &R) {
  return {{"time_ns", R.TimeNs},
          {"launches", R.Launches},
          {"flops", R.Flops},
          {"flops_by_precision", R.FlopsByPrecision},
          {"tensor_flop_share", shareJson(R)}};
}

} // namespace

void printRangeComparison(std::ostream &OS, const RangeComparison &C) {
  OS << "against the baseline by range (" << C.BaselineInputs.size()
     << " baseline input(s); speedup: baseline time / this run's time; TC%: Tensor Core share "
        "of the FLOPs):\n";
  std::vector<std::vector<std::string>> Rows = {{"range", "base ms", "ms", "speedup",
                                                 "base GFLOP", "GFLOP", "base TC%", "TC%", "in"}};
  for (const RangePair &P : C.Pairs)
    Rows.push_back({rangeName(P.Range), msCell(P.Base), msCell(P.This), speedupCell(P),
                    gflopCell(P.Base), gflopCell(P.This), tensorCell(P.Base), tensorCell(P.This),
                    P.This && P.Base ? "both" : P.Base ? "baseline only" : "this run only"});
  printTextTable(OS, Rows, {0, 8});
  if (std::string N = largestChangesNote(C); !N.empty())
    OS << "note: " << N << "\n";
  for (const std::string &N : C.Notes)
    OS << "note: " << N << "\n";
}

// --range-json's keys spelled like profile keys.
static const char *const RangeJsonRows = "ranges", *const RangeJsonPath = "range";

void addRangeComparisonJson(nlohmann::json &J, const RangeComparison &C) {
  std::map<std::string, const RangePair *> ByPath;
  nlohmann::json OnlyBase = nlohmann::json::array(), OnlyThis = nlohmann::json::array(),
                 Largest = nlohmann::json::array();
  for (const RangePair &P : C.Pairs) {
    ByPath[P.Range] = &P;
    if (!P.This) {
      nlohmann::json B = baseRowJson(*P.Base);
      B["range"] = P.Range;
      OnlyBase.push_back(std::move(B));
    } else if (!P.Base) {
      OnlyThis.push_back(P.Range);
    }
  }
  // The rows rangeViewJson wrote (--range-json, docs/report.md).
  for (nlohmann::json &Row : J[RangeJsonRows]) {
    const RangePair *P = ByPath.at(Row[RangeJsonPath].get<std::string>());
    Row["tensor_flop_share"] = shareJson(*P->This);
    if (!P->Base) {
      Row["baseline"] = nullptr;
      continue;
    }
    nlohmann::json B = baseRowJson(*P->Base);
    B["speedup"] = P->This->TimeNs > 0 ? nlohmann::json(P->Base->TimeNs / P->This->TimeNs)
                                       : nlohmann::json(nullptr);
    B["time_difference_ns"] = P->Base->TimeNs - P->This->TimeNs;
    Row["baseline"] = std::move(B);
  }
  for (const RangePair *P : C.LargestChanges)
    Largest.push_back(P->Range);
  J["baseline"] = {{"inputs", C.BaselineInputs},
                   {"only_in_baseline", OnlyBase},
                   {"only_in_this_run", OnlyThis},
                   {"largest_time_differences", Largest},
                   {"notes", C.Notes}};
}

} // namespace report
} // namespace hroof
