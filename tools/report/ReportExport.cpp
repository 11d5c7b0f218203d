//===- ReportExport.cpp - `hroof report` as CSV and JSON for scripts -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ReportExport.h"
#include "Insights.h"

#include <map>
#include <set>

namespace hroof {
namespace report {

double bytesAt(const KernelAnalysis &A, const std::string &Level) {
  for (const LevelPoint &L : A.Levels)
    if (L.Level == Level)
      return L.Bytes;
  return 0;
}

double aiAt(const KernelAnalysis &A, const std::string &Level) {
  for (const LevelPoint &L : A.Levels)
    if (L.Level == Level)
      return L.AI;
  return 0;
}

namespace {

const char *const CacheLevels[] = {"L1", "L2", "HBM"};

/// Every precision key with FLOPs in some kernel, sorted: one CSV column each.
std::vector<std::string> precisionsUsed(const std::vector<KernelAnalysis> &As) {
  std::set<std::string> P;
  for (const KernelAnalysis &A : As)
    for (const auto &[Key, V] : A.FlopsByPrecision)
      if (V > 0)
        P.insert(Key);
  return {P.begin(), P.end()};
}

std::string lower(std::string S) {
  for (char &C : S)
    C = char(std::tolower((unsigned char)C));
  return S;
}

/// An exact number, empty where it is unknown (0 stands for "none").
std::string cell(double V) { return V > 0 ? fmtExact(V) : ""; }

} // namespace

void writeReportCsv(std::ostream &OS, const std::vector<KernelAnalysis> &As) {
  std::vector<std::string> Precisions = precisionsUsed(As);
  std::vector<std::string> Head = {"id",
                                   "kernel",
                                   "mangled",
                                   "launches",
                                   "time_ns_total",
                                   "time_share_pct",
                                   "time_ns_per_launch",
                                   "flops_per_launch"};
  for (const std::string &P : Precisions)
    Head.push_back("flops_" + P + "_per_launch");
  for (const char *L : CacheLevels)
    Head.push_back("bytes_" + lower(L) + "_per_launch");
  Head.push_back("bytes_requested_per_launch");
  for (const char *H : {"gflops", "precision", "ai_l1", "ai_l2", "ai_hbm", "ai_requested",
                        "peak_gflops", "governing_gflops", "pct_of_ceiling", "bound",
                        "hierarchy_flag", "flop_source", "bytes_source", "time_source", "insight"})
    Head.push_back(H);
  writeCsvRow(OS, Head);
  for (const KernelAnalysis &A : As) {
    std::vector<std::string> Row = {A.Id,
                                    A.K->Name,
                                    A.K->Mangled,
                                    std::to_string(A.K->Launches),
                                    fmtExact(A.TotalTimeNs),
                                    fmtExact(A.TimeShare),
                                    fmtExact(A.TimeNsPerLaunch),
                                    fmtExact(A.FlopsPerLaunch)};
    for (const std::string &P : Precisions) {
      auto It = A.FlopsByPrecision.find(P);
      Row.push_back(fmtExact(It == A.FlopsByPrecision.end() ? 0.0 : It->second));
    }
    for (const char *L : CacheLevels)
      Row.push_back(cell(bytesAt(A, L)));
    Row.push_back(cell(A.BytesRequested));
    Row.push_back(cell(A.GFlops));
    Row.push_back(A.Precision);
    for (const char *L : CacheLevels)
      Row.push_back(cell(aiAt(A, L)));
    for (double V : {A.AIRequested, A.PeakGFlops, A.GoverningGFlops, A.PctOfCeiling})
      Row.push_back(cell(V));
    for (const std::string *S :
         {&A.Bound, &A.HierarchyFlag, &A.FlopSource, &A.BytesSource, &A.TimeSource})
      Row.push_back(*S);
    Row.push_back(insightLabel(A.Insights)); // Insights.h; "" when none
    writeCsvRow(OS, Row);
  }
}

namespace {

/// A number for the JSON, null where it is unknown.
nlohmann::json num(double V) { return V > 0 ? nlohmann::json(V) : nlohmann::json(nullptr); }

nlohmann::json kernelJson(const KernelAnalysis &A) {
  nlohmann::json Levels = nlohmann::json::array();
  for (const LevelPoint &L : A.Levels)
    Levels.push_back({{"level", L.Level},
                      {"ceiling", L.Ceiling},
                      {"bytes_per_launch", L.Bytes},
                      {"ai", num(L.AI)}});
  return {{"id", A.Id},
          {"name", A.K->Name},
          {"short_name", shortName(A.K->Name)},
          {"mangled", A.K->Mangled},
          {"launches", A.K->Launches},
          // launches whose counters carry counters_estimated (their records say why)
          {"counters_estimated_launches", A.K->Counters.Estimated},
          {"time_ns_total", A.TotalTimeNs},
          {"time_share_pct", A.TimeShare},
          {"time_ns_per_launch", num(A.TimeNsPerLaunch)},
          {"flops_per_launch", A.FlopsPerLaunch},
          {"flops_per_launch_by_precision", A.FlopsByPrecision},
          {"gflops", num(A.GFlops)},
          {"precision", A.Precision},
          {"levels", Levels},
          {"bytes_requested_per_launch", num(A.BytesRequested)},
          {"ai_requested", num(A.AIRequested)},
          {"peak_gflops", num(A.PeakGFlops)},
          {"governing_gflops", num(A.GoverningGFlops)},
          {"pct_of_ceiling", num(A.PctOfCeiling)},
          {"bound", A.Bound},
          {"hierarchy_flag", A.HierarchyFlag},
          {"communication", A.Communication}, // "NCCL AllReduce", "" for compute kernels
          {"insights", insightJson(A.Insights)},
          {"sources", {{"flops", A.FlopSource}, {"bytes", A.BytesSource}, {"time", A.TimeSource}}},
          {"missing", A.Missing}};
}

} // namespace

nlohmann::json reportJson(const Dataset &D, const Machine &M, const std::vector<KernelAnalysis> &As,
                          const std::vector<std::string> &Notes) {
  nlohmann::json Kernels = nlohmann::json::array();
  for (const KernelAnalysis &A : As)
    Kernels.push_back(kernelJson(A));
  return {{"hroof_report", 1},
          {"inputs", D.Inputs},
          {"devices", D.Devices},
          {"machine",
           {{"name", M.Name},
            {"path", M.Path},
            {"source", M.FromCounterPeaks ? "counter peaks" : "machine file"},
            {"flops", M.Flops},
            {"bandwidth", M.Bandwidth}}},
          {"kernels", Kernels},
          {"notes", Notes}};
}

namespace {

std::string identity(const KernelAnalysis &A) {
  return A.K->Mangled.empty() ? signatureKey(A.K->Name) : A.K->Mangled;
}

nlohmann::json change(double Old, double New) {
  return {{"old", num(Old)}, {"new", num(New)}, {"change_pct", changePct(Old, New)}};
}

} // namespace

double changePct(double Old, double New) { return Old > 0 ? 100.0 * (New - Old) / Old : 0.0; }

BaselineComparison compareToBaseline(const std::vector<KernelAnalysis> &Old,
                                     const std::vector<KernelAnalysis> &New) {
  BaselineComparison C;
  std::map<std::string, const KernelAnalysis *> OldById;
  for (const KernelAnalysis &A : Old)
    OldById[identity(A)] = &A;
  for (const KernelAnalysis &A : New) {
    auto It = OldById.find(identity(A));
    if (It == OldById.end()) {
      C.OnlyNew.push_back(&A);
      continue;
    }
    C.Pairs.push_back({It->second, &A});
    OldById.erase(It);
  }
  for (const KernelAnalysis &A : Old)
    if (OldById.count(identity(A)))
      C.OnlyOld.push_back(&A);
  return C;
}

std::map<const KernelAnalysis *, const KernelAnalysis *> pairArrows(const BaselineComparison &C) {
  std::map<const KernelAnalysis *, const KernelAnalysis *> Out;
  for (const auto &[Old, New] : C.Pairs)
    Out[New] = Old;
  return Out;
}

nlohmann::json baselineJson(const BaselineComparison &C, const Dataset &OldInputs) {
  nlohmann::json Kernels = nlohmann::json::array(), Added = nlohmann::json::array(),
                 Gone = nlohmann::json::array();
  for (const auto &[Old, New] : C.Pairs) {
    nlohmann::json Ai = nlohmann::json::object();
    for (const char *L : CacheLevels)
      if (aiAt(*Old, L) > 0 || aiAt(*New, L) > 0)
        Ai[L] = change(aiAt(*Old, L), aiAt(*New, L));
    if (Old->AIRequested > 0 || New->AIRequested > 0)
      Ai["requested"] = change(Old->AIRequested, New->AIRequested);
    Kernels.push_back({{"id", New->Id},
                       {"name", New->K->Name},
                       {"mangled", New->K->Mangled},
                       {"time_ns_total", change(Old->TotalTimeNs, New->TotalTimeNs)},
                       {"gflops", change(Old->GFlops, New->GFlops)},
                       {"ai", Ai}});
  }
  for (const KernelAnalysis *A : C.OnlyNew)
    Added.push_back(A->K->Name);
  for (const KernelAnalysis *A : C.OnlyOld)
    Gone.push_back(A->K->Name);
  return {{"inputs", OldInputs.Inputs}, {"kernels", Kernels}, {"new", Added}, {"gone", Gone}};
}

} // namespace report
} // namespace hroof
