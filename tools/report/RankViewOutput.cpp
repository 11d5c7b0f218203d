//===- RankViewOutput.cpp - the --by rank tables, notes and JSON ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How RankView.h's view is shown: the rank table (a status column when some
// row is incomplete), the kernel and range imbalance tables over the rows
// compared, the collectives table (Collectives.h), the notes, --rank-json;
// and the communication note of the kernel table.
//===----------------------------------------------------------------------===//
#include "Collectives.h"
#include "RankView.h"
#include "TextTable.h"

#include <set>

namespace hroof {
namespace report {

using nlohmann::json;

std::string communicationNote(const std::vector<KernelAnalysis> &As) {
  double Comm = 0, All = 0;
  size_t N = 0;
  std::map<std::string, double> ByLabel;
  for (const KernelAnalysis &A : As) {
    All += A.TotalTimeNs;
    if (A.Communication.empty())
      continue;
    ++N;
    Comm += A.TotalTimeNs;
    ByLabel[A.Communication] += A.TotalTimeNs;
  }
  if (!N)
    return "";
  std::string Line = "communication: " + std::to_string(N) + " kernel(s), " +
                     fmtFixed(Comm / 1e6, 3) + " ms, " +
                     (All > 0 ? fmtFixed(100 * Comm / All, 1) : std::string("-")) +
                     "% of the kernel time (";
  for (const auto &[Label, Ns] : ByLabel)
    Line += Label + " " + fmtFixed(Ns / 1e6, 3) + " ms, ";
  Line.resize(Line.size() - 2);
  return Line + "); their FLOPs are left out and they are not points of the roofline";
}

namespace {

std::string ms(double Ns) { return fmtFixed(Ns / 1e6, 3); }

std::string aiCell(const RangeRow &R, const char *Level) {
  auto It = R.BytesByLevel.find(Level);
  return It != R.BytesByLevel.end() && It->second > 0 && R.Flops > 0 ? fmtNum(R.Flops / It->second)
                                                                     : "-";
}

void printImbalance(std::ostream &OS, const RankView &V, const std::vector<ImbalanceRow> &Rows,
                    const char *What, size_t Top, size_t NameWidth) {
  size_t Compared = 0;
  for (const RankRow &R : V.Rows)
    Compared += R.Compared;
  if (Rows.empty() || Compared < 2)
    return;
  bool PerRowColumns = Compared <= 8;
  std::vector<std::string> Head = {What,    "total ms", "mean ms", "max ms", "slowest",
                                   "min ms", "fastest",  "max/mean"};
  if (PerRowColumns)
    for (const RankRow &R : V.Rows)
      if (R.Compared)
        Head.push_back(R.Label + " ms");
  std::vector<std::vector<std::string>> Table = {Head};
  for (size_t I = 0; I < Rows.size() && (!Top || I < Top); ++I) {
    const ImbalanceRow &R = Rows[I];
    std::string Name = R.Name.empty() ? "(outside any range)" : R.Name;
    if (std::string(What) == "kernel")
      Name = compactName(Name);
    if (Name.size() > NameWidth)
      Name = Name.substr(0, NameWidth - 3) + "...";
    if (!R.Communication.empty())
      Name += " [" + R.Communication + "]";
    std::vector<std::string> Cells = {Name,
                                      ms(R.Total),
                                      ms(R.Mean),
                                      ms(R.Max),
                                      V.Rows[R.Slowest].Label,
                                      ms(R.Min),
                                      V.Rows[R.Fastest].Label,
                                      R.Mean > 0 ? fmtFixed(R.MaxOverMean, 3) : "-"};
    if (PerRowColumns)
      for (size_t Row = 0; Row < R.Ns.size(); ++Row)
        if (V.Rows[Row].Compared)
          Cells.push_back(ms(R.Ns[Row]));
    Table.push_back(std::move(Cells));
  }
  OS << What << " imbalance across " << Compared << " ranks/GPUs"
     << (Compared < V.Rows.size() ? std::string(" (incomplete rows left out)") : "")
     << (Top && Rows.size() > Top ? " (the " + std::to_string(Top) + " largest of " +
                                        std::to_string(Rows.size()) + ")"
                                  : std::string(""))
     << ":\n";
  printTextTable(OS, Table, {0, 4, 6});
}

json imbalanceJson(const RankView &V, const std::vector<ImbalanceRow> &Rows) {
  json Out = json::array();
  for (const ImbalanceRow &R : Rows) {
    json PerRow = json::array();
    for (size_t I = 0; I < R.Ns.size(); ++I)
      PerRow.push_back(
          {{"row", V.Rows[I].Label}, {"time_ns", R.Ns[I]}, {"compared", V.Rows[I].Compared}});
    Out.push_back({{"name", R.Name},
                   {"communication", R.Communication},
                   {"total_ns", R.Total},
                   {"mean_ns", R.Mean},
                   {"max_ns", R.Max},
                   {"min_ns", R.Min},
                   {"slowest", V.Rows[R.Slowest].Label},
                   {"fastest", V.Rows[R.Fastest].Label},
                   {"max_over_mean", R.MaxOverMean},
                   {"per_row", PerRow}});
  }
  return Out;
}

} // namespace

void printRankView(std::ostream &OS, const RankView &V, size_t Top, size_t NameWidth) {
  std::set<std::string> Inputs;
  for (const RankRow &R : V.Rows)
    Inputs.insert(R.Input);
  OS << "by rank: " << Inputs.size() << " process(es), " << V.Rows.size()
     << " rank/GPU row(s); kernel time " << ms(V.KernelNs) << " ms, communication " << ms(V.CommNs)
     << " ms (" << (V.KernelNs > 0 ? fmtFixed(100 * V.CommNs / V.KernelNs, 1) : std::string("-"))
     << "%)\n";
  double Sum = 0, Compared = 0;
  bool AnyIncomplete = false;
  for (const RankRow &R : V.Rows) {
    if (R.Compared)
      Sum += R.Sums.TimeNs, ++Compared;
    AnyIncomplete |= !R.Status.empty();
  }
  double Mean = Compared > 0 ? Sum / Compared : 0;
  std::vector<std::vector<std::string>> Table = {
      {"rank", "GPU", "launches", "kernel ms", "vs mean", "comm ms", "comm%", "GFLOP/s", "prec",
       "AI L1", "AI L2", "AI HBM", "%roof", "P2P copies", "limiting roof"}};
  if (AnyIncomplete)
    Table[0].push_back("incomplete");
  for (const RankRow &R : V.Rows) {
    const RangeRow &S = R.Sums;
    std::string Gpu = R.Device < 0 ? "?" : std::to_string(R.Device);
    if (!R.DeviceName.empty())
      Gpu += " " + R.DeviceName;
    Table.push_back(
        {R.Label, Gpu, std::to_string(S.Launches), ms(S.TimeNs),
         Mean > 0 && R.Compared
             ? (S.TimeNs >= Mean ? "+" : "") + fmtFixed(100 * (S.TimeNs / Mean - 1), 1) + "%"
             : "-",
         ms(S.CommTimeNs), S.TimeNs > 0 ? fmtFixed(100 * S.CommTimeNs / S.TimeNs, 1) : "-",
         S.GFlops > 0 ? fmtNum(S.GFlops) : "-", S.Precision.empty() ? "-" : S.Precision,
         aiCell(S, "L1"), aiCell(S, "L2"), aiCell(S, "HBM"),
         S.Bound.empty() ? "-" : fmtFixed(100 * S.Fraction, 1),
         R.P2PCopies ? std::to_string(R.P2PCopies) + " copies, " +
                           fmtSi(R.P2PBytes, SiStyle::Counts) + "B in all, " + ms(R.P2PNs) + " ms"
                     : "-",
         S.Bound.empty() ? "-" : S.Bound});
    if (AnyIncomplete)
      Table.back().push_back(R.Status.empty() ? "-" : R.Status);
  }
  printTextTable(OS, Table, {0, 1, 8, 14, 15});
  OS << "vs mean: kernel time against the mean of the " << (AnyIncomplete ? "complete " : "")
     << "rows; comm: communication kernels (NCCL, ...), no FLOPs; the point (GFLOP/s, AI, roof) "
        "is the row's other kernels summed\n";
  printImbalance(OS, V, V.Kernels, "kernel", Top, NameWidth);
  printImbalance(OS, V, V.Ranges, "range", Top, NameWidth);
  for (const std::string &N : V.Notes)
    OS << "note: " << N << "\n";
  printCollectives(OS, buildCollectives(V));
}

void writeRankView(std::ostream &OS, const RankView &V, size_t Top, size_t NameWidth,
                   const std::string &JsonPath) {
  printRankView(OS, V, Top, NameWidth);
  if (!JsonPath.empty()) {
    writeJsonFile(JsonPath, rankViewJson(V));
    OS << "wrote " << JsonPath << "\n";
  }
}

json rankViewJson(const RankView &V) {
  json Rows = json::array();
  for (const RankRow &R : V.Rows) {
    json Row = rowPointJson(R.Sums);
    Row.update({{"label", R.Label},
                {"rank", R.Rank.empty() ? json(nullptr) : json(R.Rank)},
                {"input", R.Input},
                {"device", R.Device},
                {"device_name", R.DeviceName},
                {"kernel_time_ns", R.Sums.TimeNs},
                {"compute_time_ns", R.computeNs()},
                {"status", R.Status},
                {"status_reason", R.StatusWhy},
                {"compared", R.Compared},
                {"counter_launches", R.CounterLaunches},
                {"replay", R.Replay},
                {"replayed_ranges", R.ReplayedRanges},
                {"communication_by_kind", R.CommByLabel},
                {"p2p", {{"count", R.P2PCopies}, {"bytes", R.P2PBytes}, {"duration_ns", R.P2PNs}}}});
    if (R.Timing.usable())
      Row["unprofiled_steps"] = {{"timing_range", R.Timing.Filter},
                                 {"steps", R.Timing.Steps},
                                 {"left_out", R.Timing.LeftOut},
                                 {"compute_ns_per_step", R.Timing.ComputeNs},
                                 {"communication_ns_per_step", R.Timing.CommNs},
                                 {"communication_by_kind_per_step", R.Timing.CommByLabel}};
    Rows.push_back(std::move(Row));
  }
  return {{"range_depth", V.RangeDepth},
          {"kernel_time_ns", V.KernelNs},
          {"communication_time_ns", V.CommNs},
          {"verdict_from_unprofiled_steps", V.UnprofiledTiming},
          {"rows", Rows},
          {"kernels", imbalanceJson(V, V.Kernels)},
          {"ranges", imbalanceJson(V, V.Ranges)},
          {"collectives", collectivesJson(buildCollectives(V))},
          {"notes", V.Notes}};
}

} // namespace report
} // namespace hroof
