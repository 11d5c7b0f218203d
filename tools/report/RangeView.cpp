//===- RangeView.cpp - `hroof report --by range[:DEPTH]` ------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "RangeView.h"
#include "StepTiming.h"
#include "RangeBaseline.h"
#include "Insights.h"
#include "TextTable.h"

#include "../Toolchain.h"

#include "hroof/RangePath.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <set>

namespace hroof {
namespace report {

std::vector<std::string> transferLines(const std::vector<InputFile> &Inputs, double KernelNs) {
  struct Kind {
    uint64_t Count = 0;
    double Bytes = 0, Ns = 0;
  };
  std::map<std::string, Kind> Kinds;
  double TotalNs = 0;
  for (const InputFile &In : Inputs) {
    if (!In.P || !In.Unreadable.empty())
      continue; // unreadable: loadInputs has said so
    for (const TransferSum &T : In.P->TransferKinds) {
      Kind &K = Kinds[T.Kind];
      K.Count += T.Count;
      K.Bytes += T.Bytes;
      K.Ns += T.DurationNs;
      TotalNs += T.DurationNs;
    }
  }
  std::vector<std::string> Out;
  if (Kinds.empty())
    return Out;
  std::string Line = "transfers: " + fmtFixed(TotalNs / 1e6, 3) + " ms, " +
                     (KernelNs + TotalNs > 0 ? fmtFixed(100 * TotalNs / (KernelNs + TotalNs), 1)
                                             : std::string("-")) +
                     "% of the GPU time (kernels + transfers):";
  for (const auto &[Name, K] : Kinds)
    Line += " " + Name + " " + std::to_string(K.Count) + "x " + fmtSi(K.Bytes, SiStyle::Counts) +
            "B " + fmtFixed(K.Ns / 1e6, 3) + " ms " +
            (K.Ns > 0 ? fmtNum(K.Bytes / K.Ns) : std::string("-")) + " GB/s;";
  Line.pop_back();
  Out.push_back(Line);
  return Out;
}

size_t parseByRange(const std::string &By) {
  if (By == "range")
    return 0;
  if (By.rfind("range:", 0) == 0 && By.size() > 6 && By.size() < 16 &&
      By.find_first_not_of("0123456789", 6) == std::string::npos)
    return size_t(std::stoul(By.substr(6)));
  throw UserError("--by must be range, range:DEPTH, rank or rank:DEPTH (not '" + By + "')");
}

namespace {

/// One cut range path's per-kernel aggregates and transfers, over inputs.
struct RangeGroup {
  Dataset Kernels;
  uint64_t Transfers = 0;
  double TransferBytes = 0, TransferNs = 0;
};

} // namespace

const char *levelBandwidthKey(const std::string &Level) {
  // Requested bytes are judged at HBM, the slowest level they may reach.
  return Level == "L1" ? "l1" : Level == "L2" ? "l2" : "hbm";
}

/// The range's point: achieved GFLOP/s, the lowest roof over compute (the
/// precision mix's harmonic ceiling) and every memory level, and the
/// fraction of it; without FLOPs, the busiest level's share of its bandwidth.
void placeOnRoofline(RangeRow &R, const Machine &M) {
  // Communication kernels run beside the compute (their own stream) and
  // wait on other ranks: their time is not the time of the FLOPs.
  double ComputeNs = R.TimeNs - R.CommTimeNs;
  if (ComputeNs <= 0)
    return;
  R.GFlops = R.Flops / ComputeNs;
  double Best = 0, Secs = 0;
  for (const auto &[P, V] : R.FlopsByPrecision) {
    if (V > Best)
      Best = V, R.Precision = P;
    auto It = M.Flops.find(P);
    if (It != M.Flops.end())
      Secs += V / It->second;
  }
  if (Best > 0 && Best < 0.9 * R.Flops) // a mix, as the kernel table marks it
    R.Precision += "+";
  if (R.Flops > 0 && Secs > 0) {
    R.AttainableGFlops = R.Flops / Secs;
    R.Bound = "compute (" + R.Precision + ")";
    for (const auto &[Level, Bytes] : R.BytesByLevel) {
      auto It = M.Bandwidth.find(levelBandwidthKey(Level));
      if (Bytes <= 0 || It == M.Bandwidth.end())
        continue;
      double Att = R.Flops / Bytes * It->second;
      if (Att < R.AttainableGFlops)
        R.AttainableGFlops = Att, R.Bound = Level + " bandwidth";
    }
    R.Fraction = R.GFlops / R.AttainableGFlops;
  } else if (R.Flops == 0) {
    for (const auto &[Level, Bytes] : R.BytesByLevel) {
      auto It = M.Bandwidth.find(levelBandwidthKey(Level));
      if (Bytes <= 0 || It == M.Bandwidth.end())
        continue;
      double F = Bytes / ComputeNs / It->second;
      if (F > R.Fraction)
        R.Fraction = F, R.Bound = Level + " bandwidth, no FLOPs";
    }
  }
  if (!R.Bound.empty())
    R.HeadroomNs = headroomNs(ComputeNs, R.Fraction); // communication is no headroom
  R.Insights = insightOf(R.FlopsByPrecision, R.BytesByLevel, &M);
}

/// Adds one analysed kernel of a range; \p Whole is the same kernel over
/// the whole run (its counts stand in where this range's launches have none).
void addKernelToRow(RangeRow &R, const KernelAnalysis &A, const KernelAnalysis *Whole) {
  double N = double(A.K->Launches);
  const KernelAnalysis *Counts = &A;
  if (A.FlopSource.empty() && A.BytesSource.empty() && Whole && !Whole->FlopSource.empty()) {
    Counts = Whole;
    R.EstimatedLaunches += A.K->Launches;
  }
  if (Counts == &A && A.FlopSource == "counters")
    R.CountersEstimated += A.K->Counters.Estimated;
  double Time = A.TotalTimeNs > 0 ? A.TotalTimeNs : (Whole ? Whole->TimeNsPerLaunch * N : 0);
  R.Launches += A.K->Launches;
  ++R.Kernels;
  R.TimeNs += Time;
  R.Flops += Counts->FlopsPerLaunch * N;
  for (const auto &[P, V] : Counts->FlopsByPrecision)
    R.FlopsByPrecision[P] += V * N;
  for (const LevelPoint &L : Counts->Levels)
    R.BytesByLevel[L.Level] += L.Bytes * N;
  if (!A.Communication.empty())
    R.CommTimeNs += Time;
  if (!A.Communication.empty() || (!Counts->FlopSource.empty() && Counts->FlopsPerLaunch == 0))
    R.NoFlopTimeNs += Time;
  else if (Counts->FlopSource.empty())
    R.UnknownFlopTimeNs += Time;
}

namespace {

/// Rows whose paths differ only in a forward/backward element share a key.
std::string pairKey(const std::string &Path, int &Phase) {
  Phase = 0;
  std::string Key;
  for (const std::string &E : splitRangePath(Path)) {
    bool Fwd = E == "forward" || E == "fwd", Bwd = E == "backward" || E == "bwd";
    if (Fwd || Bwd)
      Phase = Fwd ? 1 : 2;
    Key += (Key.empty() ? "" : "/") + ((Fwd || Bwd) ? std::string("*") : E);
  }
  return Key;
}

void orderRows(std::vector<RangeRow> &Rows) {
  std::map<std::string, double> GroupTime;
  for (const RangeRow &R : Rows) {
    int Ph;
    GroupTime[pairKey(R.Range, Ph)] += R.TimeNs;
  }
  std::stable_sort(Rows.begin(), Rows.end(), [&](const RangeRow &A, const RangeRow &B) {
    int PA, PB;
    std::string KA = pairKey(A.Range, PA), KB = pairKey(B.Range, PB);
    if (KA != KB)
      return GroupTime[KA] != GroupTime[KB] ? GroupTime[KA] > GroupTime[KB] : KA < KB;
    return PA < PB;
  });
}

/// A label for the chart: the path's tail (the innermost ranges tell most).
std::string chartLabel(const std::string &Path) {
  if (Path.empty())
    return "(outside any range)";
  return Path.size() > 32 ? "..." + Path.substr(Path.size() - 29) : Path;
}

} // namespace

void addRowPoint(std::deque<KernelData> &Data, std::vector<KernelAnalysis> &Points,
                 double TotalNs, const RangeRow &R, const std::string &Label) {
  if (R.GFlops <= 0 || !R.Launches)
    return;
  Data.push_back({});
  KernelData &K = Data.back();
  K.Name = Label;
  K.Launches = R.Launches;
  KernelAnalysis A;
  A.K = &K;
  double N = double(R.Launches);
  A.FlopSource = A.BytesSource = A.TimeSource = "range";
  A.FlopsPerLaunch = R.Flops / N;
  A.TimeNsPerLaunch = R.TimeNs / N;
  A.RateTimeNsPerLaunch = (R.TimeNs - R.CommTimeNs) / N; // the time of its GFLOP/s
  A.TotalTimeNs = R.TimeNs;
  A.GFlops = R.GFlops;
  A.Precision = R.Precision;
  for (const auto &[P, F] : R.FlopsByPrecision)
    A.FlopsByPrecision[P] = F / N;
  for (const auto &[Level, Bytes] : R.BytesByLevel)
    A.Levels.push_back(
        {Level, levelBandwidthKey(Level), Bytes / N, Bytes > 0 ? R.Flops / Bytes : 0});
  A.GoverningGFlops = R.AttainableGFlops;
  A.Bound = R.Bound;
  A.PctOfCeiling = 100 * R.Fraction;
  A.TimeShare = TotalNs > 0 ? 100 * R.TimeNs / TotalNs : 0;
  Points.push_back(std::move(A));
}

namespace {

/// The "ranges" sections of every profile input, cut to \p Depth.
std::map<std::string, RangeGroup> readGroups(const std::vector<InputFile> &Inputs, size_t Depth,
                                             std::vector<std::string> &Notes) {
  std::map<std::string, RangeGroup> Groups;
  for (const InputFile &In : Inputs) {
    if (In.Ncu || !In.P)
      continue;
    const Profile &P = *In.P;
    if (!P.HasRanges) {
      Notes.push_back("'" + P.Path + "' has no NVTX range paths (no ranges were open, or " +
                      "an older hroof wrote it)");
      continue;
    }
    std::set<std::string> Devices = P.deviceNames();
    for (const ProfileRange &E : P.Ranges) {
      RangeGroup &G = Groups[cutRangePath(E.Path, Depth)];
      if (!E.Kernels.empty()) {
        G.Kernels.Devices.insert(Devices.begin(), Devices.end());
        addKernels(G.Kernels, P.Path, Devices, E.Kernels);
      }
      for (const TransferSum &T : E.Transfers) {
        G.Transfers += T.Count;
        G.TransferBytes += T.Bytes;
        G.TransferNs += T.DurationNs;
      }
    }
  }
  return Groups;
}

/// Each row's kernel time per step in the inputs' unprofiled steps
/// (--timing-range): the timing entries whose path below the step, put
/// under the row's own step and cut to \p Depth, is the row's path.
void addUnprofiledTimes(RangeView &V, const std::vector<InputFile> &Inputs, size_t Depth) {
  std::vector<StepTiming> Timings;
  for (const InputFile &In : Inputs)
    if (!In.Ncu && In.P) {
      StepTiming S = readStepTiming(*In.P, -1);
      if (S.usable())
        Timings.push_back(std::move(S));
    }
  if (Timings.empty())
    return;
  for (RangeRow &R : V.Rows) {
    std::string Step = stepOf(R.Range);
    double Ns = 0;
    bool Any = false;
    for (const StepTiming &S : Timings)
      for (const auto &[Sub, PerStep] : S.RangeNs)
        if (cutRangePath(Sub.empty() ? Step : Step + "/" + Sub, Depth) == R.Range) {
          Ns += PerStep;
          Any = true;
        }
    if (Any)
      R.UnprofiledNsPerStep = Ns;
  }
  V.UnprofiledSteps = Timings.front().describe() + " (--timing-range '" +
                      Timings.front().Filter + "')";
  V.Notes.push_back("unprof ms/step: each range's kernel time per step in " + V.UnprofiledSteps +
                    (Timings.size() > 1 ? " and the other inputs' such steps, summed" : "") +
                    ", not replayed; the other columns from the profiled range");
}

} // namespace

RangeView buildRangeView(const std::vector<InputFile> &Inputs, const Dataset &All,
                         const Machine &M, size_t Depth) {
  RangeView V;
  V.Depth = Depth;
  std::vector<KernelAnalysis> Whole = analyze(All, &M);
  std::map<std::string, const KernelAnalysis *> WholeByKernel;
  for (const KernelAnalysis &A : Whole)
    WholeByKernel[A.K->Mangled.empty() ? A.K->Name : A.K->Mangled] = &A;
  for (auto &[Path, G] : readGroups(Inputs, Depth, V.Notes)) {
    RangeRow R;
    R.Range = Path;
    for (const KernelAnalysis &A : analyze(G.Kernels, &M)) {
      auto It = WholeByKernel.find(A.K->Mangled.empty() ? A.K->Name : A.K->Mangled);
      addKernelToRow(R, A, It == WholeByKernel.end() ? nullptr : It->second);
    }
    R.Transfers = G.Transfers;
    R.TransferBytes = G.TransferBytes;
    R.TransferNs = G.TransferNs;
    placeOnRoofline(R, M);
    V.KernelNs += R.TimeNs;
    V.TransferNs += R.TransferNs;
    if (R.EstimatedLaunches)
      V.Notes.push_back("range '" + R.Range + "': " + std::to_string(R.EstimatedLaunches) +
                        " launch(es) past the launch limit counted at their kernel's mean");
    if (R.CountersEstimated)
      V.Notes.push_back("range '" + R.Range + "': " + std::to_string(R.CountersEstimated) +
                        " launch(es) carry counters_estimated (counters, or some counter "
                        "passes, from launches of the same launch shape whose parameter bytes "
                        "differ: see the records)");
    V.Rows.push_back(std::move(R));
  }
  orderRows(V.Rows);
  addUnprofiledTimes(V, Inputs, Depth);
  // The three largest tuning candidates are marked in the chart.
  std::vector<size_t> ByHeadroom(V.Rows.size());
  for (size_t I = 0; I < ByHeadroom.size(); ++I)
    ByHeadroom[I] = I;
  std::stable_sort(ByHeadroom.begin(), ByHeadroom.end(),
                   [&](size_t A, size_t B) { return V.Rows[A].HeadroomNs > V.Rows[B].HeadroomNs; });
  std::map<size_t, std::string> Mark;
  for (size_t I = 0; I < ByHeadroom.size() && I < 3; ++I)
    if (V.Rows[ByHeadroom[I]].HeadroomNs > 0)
      Mark[ByHeadroom[I]] = "#" + std::to_string(I + 1) + " ";
  for (size_t I = 0; I < V.Rows.size(); ++I)
    addRowPoint(V.ChartData, V.ChartPoints, V.KernelNs, V.Rows[I],
                (Mark.count(I) ? Mark[I] : "") + chartLabel(V.Rows[I].Range));
  return V;
}

namespace {

std::string aiCell(const RangeRow &R, const char *Level) {
  auto It = R.BytesByLevel.find(Level);
  return It != R.BytesByLevel.end() && It->second > 0 && R.Flops > 0 ? fmtNum(R.Flops / It->second)
                                                                     : "-";
}

} // namespace

void printRangeView(std::ostream &OS, const RangeView &V) {
  OS << "by range" << (V.Depth ? " (paths cut to depth " + std::to_string(V.Depth) + ")" : "")
     << ": kernel time " << fmtFixed(V.KernelNs / 1e6, 3) << " ms, transfers "
     << fmtFixed(V.TransferNs / 1e6, 3) << " ms ("
     << (V.KernelNs + V.TransferNs > 0
             ? fmtFixed(100 * V.TransferNs / (V.KernelNs + V.TransferNs), 1)
             : std::string("-"))
     << "% of the GPU time)\n";
  std::vector<std::vector<std::string>> Rows = {{"range", "launches", "time%", "time ms", "GFLOP/s",
                                                 "prec", "AI L1", "AI L2", "AI HBM", "AI req",
                                                 "%roof", "noFLOP%", "xfer ms", "limiting roof"}};
  for (const RangeRow &R : V.Rows)
    Rows.push_back({R.Range.empty() ? "(outside any range)" : R.Range, std::to_string(R.Launches),
                    V.KernelNs > 0 ? fmtFixed(100 * R.TimeNs / V.KernelNs, 1) : "-",
                    fmtFixed(R.TimeNs / 1e6, 3), R.GFlops > 0 ? fmtNum(R.GFlops) : "-",
                    R.Precision.empty() ? "-" : R.Precision, aiCell(R, "L1"), aiCell(R, "L2"),
                    aiCell(R, "HBM"), aiCell(R, "global (requested)"),
                    R.Bound.empty() ? "-" : fmtFixed(100 * R.Fraction, 1),
                    R.TimeNs > 0 ? fmtFixed(100 * R.NoFlopTimeNs / R.TimeNs, 1) : "-",
                    R.Transfers ? fmtFixed(R.TransferNs / 1e6, 3) : "-",
                    R.Bound.empty() ? "-" : R.Bound});
  // Communication kernels (distributed runs): their share of each range, a
  // column only when some range has one, so single-GPU tables stay as they are.
  bool AnyComm = std::any_of(V.Rows.begin(), V.Rows.end(),
                             [](const RangeRow &R) { return R.CommTimeNs > 0; });
  if (AnyComm) {
    Rows[0].insert(Rows[0].end() - 1, "comm%");
    for (size_t I = 0; I < V.Rows.size(); ++I) {
      const RangeRow &R = V.Rows[I];
      Rows[I + 1].insert(Rows[I + 1].end() - 1,
                         R.TimeNs > 0 ? fmtFixed(100 * R.CommTimeNs / R.TimeNs, 1) : "-");
    }
  }
  // Time per step from unprofiled steps (StepTiming.h): a column only then.
  if (!V.UnprofiledSteps.empty()) {
    Rows[0].insert(Rows[0].begin() + 4, "unprof ms/step");
    for (size_t I = 0; I < V.Rows.size(); ++I) {
      double Ns = V.Rows[I].UnprofiledNsPerStep;
      Rows[I + 1].insert(Rows[I + 1].begin() + 4, Ns >= 0 ? fmtFixed(Ns / 1e6, 3) : "-");
    }
  }
  // Insight lines (Insights.h): a column only when some range has one.
  std::set<size_t> Left = {0, V.UnprofiledSteps.empty() ? size_t(5) : size_t(6)};
  if (std::any_of(V.Rows.begin(), V.Rows.end(),
                  [](const RangeRow &R) { return !insightLabel(R.Insights).empty(); })) {
    Left.insert(Rows[0].size());
    Rows[0].push_back("insight");
    for (size_t I = 0; I < V.Rows.size(); ++I) {
      std::string L = insightLabel(V.Rows[I].Insights);
      Rows[I + 1].push_back(L.empty() ? "-" : L);
    }
  }
  printTextTable(OS, Rows, Left);
  OS << "noFLOP%: share of the range's kernel time in kernels without FLOPs"
     << (AnyComm ? " (communication kernels included); comm%: in communication kernels" : "")
     << "; xfer ms: its copies and memsets\n";
  for (const std::string &N : V.Notes)
    OS << "note: " << N << "\n";
}

nlohmann::json rowPointJson(const RangeRow &R) {
  nlohmann::json AI = nlohmann::json::object();
  for (const auto &[Level, Bytes] : R.BytesByLevel)
    if (Bytes > 0 && R.Flops > 0)
      AI[Level] = R.Flops / Bytes;
  return {{"launches", R.Launches},
          {"flops", R.Flops},
          {"flops_by_precision", R.FlopsByPrecision},
          {"bytes_by_level", R.BytesByLevel},
          {"ai_by_level", AI},
          {"precision", R.Precision},
          {"gflops", R.GFlops},
          {"attainable_gflops", R.AttainableGFlops},
          {"limiting_roof", R.Bound},
          {"fraction_of_roof", R.Fraction},
          {"communication_time_ns", R.CommTimeNs},
          {"insights", insightJson(R.Insights)}};
}

nlohmann::json rangeViewJson(const RangeView &V) {
  nlohmann::json Rows = nlohmann::json::array();
  for (const RangeRow &R : V.Rows) {
    nlohmann::json Row = rowPointJson(R);
    Row.update(
        {{"range", R.Range},
         {"kernels", R.Kernels},
         {"time_ns", R.TimeNs},
         {"time_share", V.KernelNs > 0 ? R.TimeNs / V.KernelNs : 0.0},
         {"headroom_ns", R.HeadroomNs},
         {"no_flop_time_ns", R.NoFlopTimeNs},
         {"no_flop_time_share", R.TimeNs > 0 ? R.NoFlopTimeNs / R.TimeNs : 0.0},
         {"unknown_flop_time_ns", R.UnknownFlopTimeNs},
         {"estimated_launches", R.EstimatedLaunches},
         {"counters_estimated_launches", R.CountersEstimated},
         {"transfers",
          {{"count", R.Transfers}, {"bytes", R.TransferBytes}, {"duration_ns", R.TransferNs}}}});
    if (R.UnprofiledNsPerStep >= 0)
      Row["unprofiled_ns_per_step"] = R.UnprofiledNsPerStep;
    Rows.push_back(std::move(Row));
  }
  nlohmann::json Out = {{"depth", V.Depth},
                        {"kernel_time_ns", V.KernelNs},
                        {"transfer_time_ns", V.TransferNs},
                        {"ranges", Rows},
                        {"notes", V.Notes}};
  if (!V.UnprofiledSteps.empty())
    Out["unprofiled_steps"] = V.UnprofiledSteps;
  return Out;
}

std::vector<Candidate> rangeCandidates(const RangeView &V) {
  std::vector<Candidate> Out;
  for (const RangeRow &R : V.Rows) {
    Candidate C;
    C.What = "range";
    C.Name = R.Range.empty() ? "(outside any range)" : R.Range;
    C.TimeNs = R.TimeNs;
    C.Fraction = R.Fraction;
    C.Roof = R.Bound;
    C.HeadroomNs = R.HeadroomNs;
    C.NoFlops = R.Flops == 0;
    C.Insight = insightLabel(R.Insights);
    Out.push_back(C);
  }
  return Out;
}

void writeJsonFile(const std::string &Path, const nlohmann::json &J) {
  std::ofstream F(Path, std::ios::binary | std::ios::trunc);
  if (F)
    F << J.dump(1) << "\n";
  F.flush();
  if (!F)
    throw UserError("cannot write '" + Path + "': " + std::strerror(errno));
}

void writeRangeAndTuning(std::ostream &OS, const RangeView *RV, std::vector<Candidate> Cs,
                         int Tuning, const std::string &RangeJson, const std::string &TuningJson,
                         const RangeComparison *Cmp) {
  if (RV)
    printRangeView(OS, *RV);
  if (RV && Cmp)
    printRangeComparison(OS, *Cmp);
  if (RV && !RangeJson.empty()) {
    nlohmann::json J = rangeViewJson(*RV);
    if (Cmp)
      addRangeComparisonJson(J, *Cmp);
    writeJsonFile(RangeJson, J);
  }
  if (!Tuning && TuningJson.empty())
    return;
  double Total = totalTimeNs(Cs);
  if (RV) // ranges instead of kernels: a kernel's time is in its ranges'
    Cs = rangeCandidates(*RV);
  Cs = rankCandidates(std::move(Cs), size_t(std::max(Tuning, 0)));
  if (Tuning)
    printCandidates(OS, Cs, Total);
  if (!TuningJson.empty())
    writeJsonFile(TuningJson,
                  {{"total_kernel_time_ns", Total}, {"candidates", candidatesJson(Cs, Total)}});
}

} // namespace report
} // namespace hroof
