//===- ReportCommand.cpp - hroof report PROFILE... -----------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hierarchical roofline of one or more profiles (or Nsight Compute raw
// CSV exports): a terminal table per kernel and, on request, the chart as a
// self-contained HTML page (Vega-Lite, inlined) and a standalone SVG
// (rendered by the same spec in node), and the table as CSV. docs/report.md.
//===----------------------------------------------------------------------===//
#include "Settings.h"
#include "Subcommand.h"
#include "Toolchain.h"
#include "report/RangeView.h"
#include "report/ReportData.h"
#include "report/TuningCandidates.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace hroof {

using namespace report;

namespace {

struct ReportOptions {
  std::vector<std::string> Inputs;
  std::string Machine, Html, Svg, Csv, Sort = "time";
  std::string By, RangeJson, TuningJson; ///< RangeView.h, TuningCandidates.h
  int Top = 0, Tuning = 0;
  bool AllCeilings = false, AnyMachine = false;
};

std::string readText(const std::string &Path, const char *What) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    throw UserError(std::string("cannot read ") + What + " '" + Path + "'");
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// Opens \p Path for writing or throws one clear line.
std::ofstream openOut(const std::string &Path) {
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  if (!Out)
    throw UserError("cannot write '" + Path + "': " + std::strerror(errno));
  return Out;
}

void finishOut(std::ofstream &Out, const std::string &Path) {
  Out.flush();
  if (!Out)
    throw UserError("cannot write '" + Path + "': write failed");
}

std::string jsDir() { return setting(Setting::ReportJs, HROOF_REPORT_JS_DIR); }

std::string assetsDir() { return setting(Setting::ReportAssets, HROOF_SOURCE_DIR "/tools/report"); }

std::string htmlEscape(const std::string &S) {
  std::string R;
  for (char C : S) {
    switch (C) {
    case '&':
      R += "&amp;";
      break;
    case '<':
      R += "&lt;";
      break;
    case '>':
      R += "&gt;";
      break;
    case '"':
      R += "&quot;";
      break;
    default:
      R += C;
    }
  }
  return R;
}

/// Safe inside <script>: no "</" sequence (\p Json: JSON text, where "<\\/"
/// means the same; otherwise JavaScript, where only "</script" is escaped
/// so that regular expressions such as /</g stay intact).
std::string scriptSafe(std::string S, bool Json = false) {
  const std::string From = Json ? "</" : "</script";
  for (size_t P = 0; (P = S.find(From, P)) != std::string::npos; P += 3)
    S.replace(P, 2, "<\\/");
  return S;
}

void replaceAll(std::string &S, const std::string &From, const std::string &To) {
  for (size_t P = 0; (P = S.find(From, P)) != std::string::npos; P += To.size())
    S.replace(P, From.size(), To);
}

const char *levelLabel(const std::string &Ceiling) {
  return Ceiling == "l1" ? "L1" : Ceiling == "l2" ? "L2" : Ceiling == "shared" ? "shared" : "HBM";
}

std::string precisionLabel(const std::string &P) {
  if (P.rfind("tensor_", 0) == 0)
    return P.substr(7) + " Tensor";
  return P;
}

/// Unique display names (short names, numbered when two kernels share one).
std::vector<std::string> displayNames(const std::vector<KernelAnalysis> &As) {
  std::vector<std::string> R;
  std::map<std::string, int> Seen;
  for (const KernelAnalysis &A : As) {
    std::string S = shortName(A.K->Name);
    if (S.size() > 32)
      S = S.substr(0, 29) + "...";
    int N = ++Seen[S];
    R.push_back(N > 1 ? S + " #" + std::to_string(N) : S);
  }
  return R;
}

//===--- The chart (Vega-Lite spec) ----------------------------------------===//

/// The kernels' points (one per memory level with an AI) and their name
/// labels, the ranges they span, and the precisions they use.
struct ChartPoints {
  nlohmann::json Points = nlohmann::json::array(), Labels = nlohmann::json::array();
  double MinAI = 1e300, MaxAI = 0, MinG = 1e300, MaxG = 0;
  std::set<std::string> Precisions;
};

/// Places a kernel's name label at its highest-AI point, nudged down while
/// it would sit on an earlier label.
void addKernelLabel(ChartPoints &C, const std::string &Name, double AI, double GFlops) {
  double Dy = 0;
  for (bool Moved = true; Moved;) {
    Moved = false;
    for (const auto &Prev : C.Labels)
      if (std::fabs(std::log10(Prev["ai"].get<double>() / AI)) < 1.2 &&
          std::fabs(std::log10(Prev["gflops"].get<double>() / GFlops)) < 0.08 &&
          std::fabs(Prev["dy"].get<double>() - Dy) < 12) {
        Dy += 13;
        Moved = true;
      }
  }
  C.Labels.push_back({{"kernel", Name}, {"ai", AI}, {"gflops", GFlops}, {"dy", Dy}});
}

ChartPoints chartPoints(const std::vector<KernelAnalysis> &As, const Machine &M) {
  ChartPoints C;
  std::vector<std::string> Names = displayNames(As);
  for (size_t I = 0; I < As.size(); ++I) {
    const KernelAnalysis &A = As[I];
    for (const auto &[P, V] : A.FlopsByPrecision)
      if (V > 0 && M.Flops.count(P))
        C.Precisions.insert(P);
    if (A.GFlops <= 0)
      continue;
    const LevelPoint *Last = nullptr;
    for (const LevelPoint &L : A.Levels) {
      if (L.AI <= 0)
        continue;
      C.MinAI = std::min(C.MinAI, L.AI), C.MaxAI = std::max(C.MaxAI, L.AI);
      C.MinG = std::min(C.MinG, A.GFlops), C.MaxG = std::max(C.MaxG, A.GFlops);
      C.Points.push_back({{"kernel", Names[I]},
                          {"full_name", A.K->Name},
                          {"level", L.Level},
                          {"ai", L.AI},
                          {"gflops", A.GFlops},
                          {"bytes", L.Bytes},
                          {"flops", A.FlopsPerLaunch},
                          {"time_us", A.TimeNsPerLaunch / 1e3},
                          {"launches", A.K->Launches},
                          {"time_share", A.TimeShare},
                          {"precision", A.Precision},
                          {"pct", A.PctOfCeiling},
                          {"bound", A.Bound},
                          {"sources", "FLOPs: " + A.FlopSource + ", bytes: " + A.BytesSource +
                                          ", time: " + A.TimeSource}});
      if (!Last || L.AI > Last->AI)
        Last = &L;
    }
    if (Last)
      addKernelLabel(C, Names[I], Last->AI, A.GFlops);
  }
  return C;
}

/// The chart's extent: log-axis domains (decades around the points and the
/// ridge points) and the ceilings drawn.
struct ChartFrame {
  double X0, X1, Y0, Y1;
  double PMax = 0, PMin = 1e300, BwMax = 0, BwMin = 1e300;
  std::set<std::string> Precisions; ///< compute ceilings drawn
  std::vector<std::string> Levels;  ///< memory ceilings drawn: l1, l2, hbm
};

ChartFrame chartFrame(const ChartPoints &C, const Machine &M, bool AllCeilings) {
  ChartFrame F;
  F.Precisions = C.Precisions;
  if (AllCeilings)
    for (const auto &[P, V] : M.Flops)
      F.Precisions.insert(P);
  if (F.Precisions.empty())
    F.Precisions.insert(M.Flops.count("f32") ? "f32" : M.Flops.begin()->first);
  for (const std::string &P : F.Precisions)
    F.PMax = std::max(F.PMax, M.Flops.at(P)), F.PMin = std::min(F.PMin, M.Flops.at(P));
  for (const char *L : {"l1", "l2", "hbm"})
    if (M.Bandwidth.count(L)) {
      F.Levels.push_back(L);
      F.BwMax = std::max(F.BwMax, M.Bandwidth.at(L));
      F.BwMin = std::min(F.BwMin, M.Bandwidth.at(L));
    }
  auto Floor10 = [](double V) { return std::pow(10.0, std::floor(std::log10(V))); };
  auto Ceil10 = [](double V) { return std::pow(10.0, std::ceil(std::log10(V))); };
  F.X0 = Floor10(std::min(C.MinAI < 1e300 ? C.MinAI / 2 : 1.0, 0.1));
  F.X1 = Ceil10(std::max({C.MaxAI * 2, F.PMax / F.BwMin * 4, 100.0}));
  F.Y1 = F.PMax * 3;
  F.Y0 = Floor10(std::min({C.MinG < 1e300 ? C.MinG / 2 : F.PMin, F.X0 * F.BwMin, F.PMin / 10}));
  return F;
}

/// The ceiling lines (two end points each) and their labels.
void chartCeilings(const ChartFrame &Fr, const Machine &M, nlohmann::json &Ceil,
                   nlohmann::json &CeilLabels) {
  const double X0 = Fr.X0, X1 = Fr.X1, Y0 = Fr.Y0, PMax = Fr.PMax, BwMax = Fr.BwMax;
  for (const std::string &L : Fr.Levels) {
    double Bw = M.Bandwidth.at(L);
    std::string Name = std::string(levelLabel(L)) + " " + fmtNum(Bw / 1e3, 3) + " TB/s";
    double XEnd = PMax / Bw, XStart = std::max(X0, Y0 / Bw);
    Ceil.push_back({{"ceiling", Name},
                    {"kind", "memory"},
                    {"end", 0},
                    {"ai", XStart},
                    {"gflops", XStart * Bw}});
    Ceil.push_back(
        {{"ceiling", Name}, {"kind", "memory"}, {"end", 1}, {"ai", XEnd}, {"gflops", PMax}});
    double XL = std::max(XStart * 1.6, X0 * 1.6);
    CeilLabels.push_back({{"text", Name}, {"ai", XL}, {"gflops", XL * Bw}, {"kind", "memory"}});
  }
  for (const std::string &P : Fr.Precisions) {
    double F = M.Flops.at(P);
    std::string Name = precisionLabel(P) + " " + fmtNum(F / 1e3, 3) + " TFLOP/s";
    double XStart = F / BwMax;
    Ceil.push_back(
        {{"ceiling", Name}, {"kind", "compute"}, {"end", 0}, {"ai", XStart}, {"gflops", F}});
    Ceil.push_back({{"ceiling", Name}, {"kind", "compute"}, {"end", 1}, {"ai", X1}, {"gflops", F}});
    CeilLabels.push_back({{"text", Name}, {"ai", X1 / 1.15}, {"gflops", F}, {"kind", "compute"}});
  }
}

/// The Vega-Lite layers: ceilings, their labels, the kernels' lines and
/// points (with tooltips) and the kernel labels; \p X and \p Y the axes.
nlohmann::json chartLayers(const nlohmann::json &X, const nlohmann::json &Y, double Angle) {
  nlohmann::json LevelScale = {{"domain", {"L1", "L2", "HBM", "global (requested)"}},
                               {"range", {"circle", "square", "triangle-up", "diamond"}}};
  return nlohmann::json::array(
      {{{"data", {{"name", "ceilings"}}},
        {"mark", {{"type", "line"}, {"clip", true}, {"color", "#555"}, {"strokeWidth", 1.6}}},
        {"encoding",
         {{"x", X},
          {"y", Y},
          {"detail", {{"field", "ceiling"}}},
          {"strokeDash",
           {{"field", "kind"},
            {"type", "nominal"},
            {"scale", {{"domain", {"compute", "memory"}}, {"range", {{1, 0}, {6, 3}}}}},
            {"legend", nullptr}}}}}},
       {{"data", {{"name", "ceiling_labels"}}},
        {"transform", {{{"filter", "datum.kind === 'compute'"}}}},
        {"mark",
         {{"type", "text"},
          {"clip", true},
          {"fontSize", 11},
          {"color", "#444"},
          {"dy", -7},
          {"align", "right"}}},
        {"encoding", {{"x", X}, {"y", Y}, {"text", {{"field", "text"}}}}}},
       {{"data", {{"name", "ceiling_labels"}}},
        {"transform", {{{"filter", "datum.kind === 'memory'"}}}},
        {"mark",
         {{"type", "text"},
          {"clip", true},
          {"fontSize", 11},
          {"color", "#444"},
          {"dy", -6},
          {"align", "left"},
          {"angle", Angle}}},
        {"encoding", {{"x", X}, {"y", Y}, {"text", {{"field", "text"}}}}}},
       {{"data", {{"name", "points"}}},
        {"mark", {{"type", "line"}, {"strokeWidth", 1}, {"opacity", 0.45}}},
        {"encoding",
         {{"x", X},
          {"y", Y},
          {"detail", {{"field", "kernel"}}},
          {"color", {{"field", "kernel"}, {"type", "nominal"}}}}}},
       {{"data", {{"name", "points"}}},
        {"mark",
         {{"type", "point"},
          {"filled", true},
          {"size", 110},
          {"opacity", 0.9},
          {"stroke", "#222"},
          {"strokeWidth", 0.6}}},
        {"encoding",
         {{"x", X},
          {"y", Y},
          {"color",
           {{"field", "kernel"},
            {"type", "nominal"},
            {"title", "Kernel"},
            {"scale", {{"scheme", "tableau10"}}}}},
          {"shape",
           {{"field", "level"},
            {"type", "nominal"},
            {"title", "Memory level"},
            {"scale", LevelScale}}},
          {"tooltip",
           {{{"field", "full_name"}, {"title", "kernel"}},
            {{"field", "level"}, {"title", "level"}},
            {{"field", "ai"}, {"title", "AI (FLOP/B)"}, {"format", ".4~g"}},
            {{"field", "gflops"}, {"title", "GFLOP/s"}, {"format", ".4~g"}},
            {{"field", "bytes"}, {"title", "bytes/launch"}, {"format", ".4~s"}},
            {{"field", "flops"}, {"title", "FLOPs/launch"}, {"format", ".4~s"}},
            {{"field", "time_us"}, {"title", "time/launch (us)"}, {"format", ".4~g"}},
            {{"field", "launches"}, {"title", "launches"}},
            {{"field", "time_share"}, {"title", "% of time"}, {"format", ".1f"}},
            {{"field", "precision"}, {"title", "precision"}},
            {{"field", "pct"}, {"title", "% of ceiling"}, {"format", ".1f"}},
            {{"field", "bound"}, {"title", "bound by"}},
            {{"field", "sources"}, {"title", "sources"}}}}}}},
       {{"data", {{"name", "labels"}}},
        {"mark", {{"type", "text"}, {"align", "left"}, {"dx", 9}, {"dy", 3}, {"fontSize", 11}}},
        {"encoding",
         {{"x", X},
          {"y", Y},
          {"text", {{"field", "kernel"}}},
          {"color", {{"field", "kernel"}, {"type", "nominal"}}}}}}});
}

nlohmann::json chartSpec(const std::vector<KernelAnalysis> &As, const Machine &M,
                         const std::string &Title, bool AllCeilings) {
  ChartPoints C = chartPoints(As, M);
  ChartFrame Fr = chartFrame(C, M, AllCeilings);
  const double X0 = Fr.X0, X1 = Fr.X1, Y0 = Fr.Y0, Y1 = Fr.Y1;
  nlohmann::json Ceil = nlohmann::json::array(), CeilLabels = nlohmann::json::array();
  chartCeilings(Fr, M, Ceil, CeilLabels);
  nlohmann::json Labels = C.Labels;
  // Label offsets in pixels -> factors on the log axis (540 px high).
  for (auto &L : Labels)
    L["gflops"] = L["gflops"].get<double>() *
                  std::pow(10.0, -L["dy"].get<double>() * std::log10(Y1 / Y0) / 540.0);
  // Memory labels follow their diagonal: slope 1 in log-log space.
  double Angle = 360.0 - std::atan((540.0 / std::log10(Y1 / Y0)) / (860.0 / std::log10(X1 / X0))) *
                             180.0 / M_PI;
  nlohmann::json X = {{"field", "ai"},
                      {"type", "quantitative"},
                      {"scale", {{"type", "log"}, {"domain", {X0, X1}}}},
                      {"axis", {{"title", "Arithmetic intensity (FLOP/byte)"}, {"format", "~g"}}}};
  nlohmann::json Y = {{"field", "gflops"},
                      {"type", "quantitative"},
                      {"scale", {{"type", "log"}, {"domain", {Y0, Y1}}}},
                      {"axis", {{"title", "Performance (GFLOP/s)"}, {"format", "~s"}}}};
  nlohmann::json Spec = {
      {"$schema", "https://vega.github.io/schema/vega-lite/v6.json"},
      {"title",
       {{"text", Title},
        {"subtitle",
         "ceilings: " + M.Name + " (" + M.Path.substr(M.Path.rfind('/') + 1) + ", hroof-ert)"}}},
      {"width", 860},
      {"height", 540},
      {"background", "white"},
      {"datasets",
       {{"points", C.Points},
        {"ceilings", Ceil},
        {"ceiling_labels", CeilLabels},
        {"labels", Labels}}},
      {"config",
       {{"legend", {{"labelLimit", 320}}}, {"axis", {{"grid", true}, {"gridOpacity", 0.35}}}}},
      {"layer", chartLayers(X, Y, Angle)},
      {"resolve", {{"scale", {{"color", "shared"}}}}}};
  return Spec;
}

//===--- Outputs ------------------------------------------------------------===//

struct Row {
  std::vector<std::string> Cells;
};

std::string aiAt(const KernelAnalysis &A, const std::string &Level) {
  for (const LevelPoint &L : A.Levels)
    if (L.Level == Level)
      return L.AI > 0 ? fmtNum(L.AI) : "-";
  return "-";
}

/// Requested-bytes AI from the dynamic counts (or counters), whatever the
/// chart's levels are.
double aiRequestedValue(const KernelAnalysis &A) {
  const KernelData &K = *A.K;
  const SourceCounts *S = K.Dynamic.present()    ? &K.Dynamic
                          : K.Counters.present() ? &K.Counters
                                                 : nullptr;
  if (!S)
    return 0;
  double B = sumPrefix(S->Counts, "bytes.global.") / double(S->Launches);
  return B > 0 && A.FlopsPerLaunch > 0 ? A.FlopsPerLaunch / B : 0;
}

std::string aiRequested(const KernelAnalysis &A) {
  double V = aiRequestedValue(A);
  return V > 0 ? fmtNum(V) : "-";
}

std::string srcCode(const std::string &S) {
  if (S == "counters")
    return "ctr";
  if (S == "dynamic")
    return "dyn";
  if (S == "static")
    return "sta";
  if (S == "activity")
    return "act";
  return "-";
}

std::vector<std::string> header() {
  return {"kernel", "launches", "time%",  "time ms", "GFLOP/s", "prec",     "AI L1",
          "AI L2",  "AI HBM",   "AI req", "%ceil",   "bound",   "src F/B/T"};
}

std::vector<std::vector<std::string>> tableRows(const std::vector<KernelAnalysis> &As) {
  std::vector<std::vector<std::string>> Rows;
  std::vector<std::string> Names = displayNames(As);
  for (size_t I = 0; I < As.size(); ++I) {
    const KernelAnalysis &A = As[I];
    std::string Share = fmtFixed(A.TimeShare, 1), Ms = fmtFixed(A.TotalTimeNs / 1e6, 3);
    std::string Pct = A.PctOfCeiling > 0 ? fmtFixed(A.PctOfCeiling, 1) : "-";
    Rows.push_back(
        {Names[I], std::to_string(A.K->Launches), A.TimeNsPerLaunch > 0 ? Share : "-",
         A.TimeNsPerLaunch > 0 ? Ms : "-", A.GFlops > 0 ? fmtNum(A.GFlops) : "-",
         A.Precision.empty() ? "-" : A.Precision, aiAt(A, "L1"), aiAt(A, "L2"), aiAt(A, "HBM"),
         aiRequested(A), Pct, A.Bound.empty() ? "-" : A.Bound,
         srcCode(A.FlopSource) + "/" + srcCode(A.BytesSource) + "/" + srcCode(A.TimeSource)});
  }
  return Rows;
}

void printTable(std::ostream &OS, const std::vector<KernelAnalysis> &As) {
  auto H = header();
  auto Rows = tableRows(As);
  std::vector<size_t> W(H.size());
  for (size_t C = 0; C < H.size(); ++C) {
    W[C] = H[C].size();
    for (const auto &R : Rows)
      W[C] = std::max(W[C], R[C].size());
  }
  auto Print = [&](const std::vector<std::string> &R) {
    for (size_t C = 0; C < R.size(); ++C) {
      bool Left = C == 0 || C == 5 || C == 11 || C == 12;
      OS << (C ? "  " : "") << (Left ? std::left : std::right)
         << std::setw(C + 1 == R.size() ? 0 : int(W[C])) << R[C];
    }
    OS << std::right << "\n";
  };
  Print(H);
  for (const auto &R : Rows)
    Print(R);
}

std::string htmlTable(const std::vector<KernelAnalysis> &As) {
  std::ostringstream OS;
  auto H = header();
  OS << "<table id=\"hroof-table\"><tr>";
  for (size_t C = 0; C < H.size(); ++C)
    OS << "<th" << (C == 0 ? " class=\"name\"" : "") << ">" << htmlEscape(H[C]) << "</th>";
  OS << "</tr>\n";
  auto Rows = tableRows(As);
  for (size_t I = 0; I < Rows.size(); ++I) {
    OS << "<tr>";
    for (size_t C = 0; C < Rows[I].size(); ++C)
      OS << "<td" << (C == 0 ? " class=\"name\" title=\"" + htmlEscape(As[I].K->Name) + "\"" : "")
         << ">" << htmlEscape(Rows[I][C]) << "</td>";
    OS << "</tr>\n";
  }
  OS << "</table>";
  return OS.str();
}

void writeCsv(std::ostream &OS, const std::vector<KernelAnalysis> &As) {
  writeCsvRow(OS, {"kernel",
                   "mangled",
                   "launches",
                   "time_ns_total",
                   "time_share_pct",
                   "time_ns_per_launch",
                   "flops_per_launch",
                   "gflops",
                   "precision",
                   "ai_l1",
                   "ai_l2",
                   "ai_hbm",
                   "ai_requested",
                   "peak_gflops",
                   "governing_gflops",
                   "pct_of_ceiling",
                   "bound",
                   "flop_source",
                   "bytes_source",
                   "time_source"});
  for (const KernelAnalysis &A : As) {
    auto Num = [](double V) { return fmtSignificant(V, 6); };
    // A level's AI, empty where the kernel has none.
    auto Ai = [&](const char *L) {
      for (const LevelPoint &P : A.Levels)
        if (P.Level == L && P.AI > 0)
          return Num(P.AI);
      return std::string();
    };
    double ReqV = aiRequestedValue(A);
    writeCsvRow(OS, {A.K->Name,
                     A.K->Mangled,
                     std::to_string(A.K->Launches),
                     Num(A.TotalTimeNs),
                     Num(A.TimeShare),
                     Num(A.TimeNsPerLaunch),
                     Num(A.FlopsPerLaunch),
                     Num(A.GFlops),
                     A.Precision,
                     Ai("L1"),
                     Ai("L2"),
                     Ai("HBM"),
                     ReqV > 0 ? Num(ReqV) : "",
                     Num(A.PeakGFlops),
                     Num(A.GoverningGFlops),
                     Num(A.PctOfCeiling),
                     A.Bound,
                     A.FlopSource,
                     A.BytesSource,
                     A.TimeSource});
  }
}

std::string shellQuote(const std::string &S) {
  std::string R = "'";
  for (char C : S)
    R += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return R + "'";
}

std::string renderSvg(const nlohmann::json &Spec) {
  std::string Dir = jsDir(), Script = assetsDir() + "/render-svg.mjs";
  struct stat St;
  if (::stat((Dir + "/vega/build/vega.module.js").c_str(), &St) != 0)
    throw UserError("--svg needs vega and vega-lite in '" + Dir +
                    "' (run scripts/setup.sh, or set HROOF_REPORT_JS)");
  char Tmp[] = "/tmp/hroof-spec-XXXXXX";
  int Fd = mkstemp(Tmp);
  if (Fd < 0)
    throw UserError(std::string("cannot create a temporary file: ") + std::strerror(errno));
  std::string Text = Spec.dump();
  bool Ok = ::write(Fd, Text.data(), Text.size()) == ssize_t(Text.size());
  ::close(Fd);
  if (!Ok) {
    ::unlink(Tmp);
    throw UserError("cannot write a temporary file in /tmp");
  }
  std::string Cmd = "node " + shellQuote(Script) + " " + shellQuote(Dir) + " " + shellQuote(Tmp);
  FILE *P = ::popen(Cmd.c_str(), "r");
  std::string Svg;
  if (P) {
    char Buf[65536];
    size_t N;
    while ((N = std::fread(Buf, 1, sizeof Buf, P)) > 0)
      Svg.append(Buf, N);
  }
  int RC = P ? ::pclose(P) : -1;
  ::unlink(Tmp);
  if (RC != 0 || Svg.rfind("<svg", 0) != 0)
    throw UserError("rendering the SVG with node failed (" + Cmd + ")");
  return Svg;
}

std::string buildHtml(const nlohmann::json &Spec, const std::vector<KernelAnalysis> &As,
                      const std::string &Title, const std::string &Subtitle,
                      const std::vector<std::string> &Notes) {
  std::string Page = readText(assetsDir() + "/chart.html", "the chart template");
  std::string Dir = jsDir();
  auto Lib = [&](const std::string &P) {
    struct stat St;
    if (::stat((Dir + "/" + P).c_str(), &St) != 0)
      throw UserError("--html needs '" + Dir + "/" + P +
                      "' (run scripts/setup.sh, or set HROOF_REPORT_JS)");
    return scriptSafe(readText(Dir + "/" + P, "the charting library"));
  };
  std::string NotesHtml;
  for (const std::string &N : Notes)
    NotesHtml += htmlEscape(N) + "<br>\n";
  // Placeholders last-to-first so library text cannot contain later ones.
  replaceAll(Page, "@@TITLE@@", htmlEscape(Title));
  replaceAll(Page, "@@SUBTITLE@@", htmlEscape(Subtitle));
  replaceAll(Page, "@@TABLE@@", htmlTable(As));
  replaceAll(Page, "@@NOTES@@", NotesHtml);
  replaceAll(Page, "@@SPEC@@", scriptSafe(Spec.dump(), true));
  replaceAll(Page, "@@VEGA_EMBED@@", Lib("vega-embed/build/vega-embed.min.js"));
  replaceAll(Page, "@@VEGA_LITE@@", Lib("vega-lite/build/vega-lite.min.js"));
  replaceAll(Page, "@@VEGA@@", Lib("vega/build/vega.min.js"));
  return Page;
}

int produceReport(const ReportOptions &O);

int runReport(const ReportOptions &O) {
  if (O.Sort != "time" && O.Sort != "flops" && O.Sort != "ai")
    throw UserError("--sort must be time, flops or ai (not '" + O.Sort + "')");
  if (O.Top < 0)
    throw UserError("--top must be positive");
  if (!O.RangeJson.empty() && O.By.empty())
    throw UserError("--range-json needs --by range");
  if (O.Tuning < 0)
    throw UserError("--tuning must be positive");
  // Outputs first: an unwritable output fails before any work (checked
  // without truncating; files created by the check are removed on failure).
  std::vector<std::string> Created;
  for (const std::string *P : {&O.Html, &O.Svg, &O.Csv, &O.RangeJson, &O.TuningJson}) {
    if (P->empty())
      continue;
    struct stat St;
    bool Existed = ::stat(P->c_str(), &St) == 0;
    if (Existed && S_ISDIR(St.st_mode))
      throw UserError("cannot write '" + *P + "': it is a directory");
    std::ofstream Probe(*P, std::ios::binary | std::ios::app);
    if (!Probe)
      throw UserError("cannot write '" + *P + "': " + std::strerror(errno));
    if (!Existed)
      Created.push_back(*P);
  }
  try {
    return produceReport(O);
  } catch (...) {
    for (const std::string &P : Created)
      ::unlink(P.c_str());
    throw;
  }
}

int produceReport(const ReportOptions &O) {
  Dataset D = loadInputs(O.Inputs);
  // The machine: --machine, or the bundled file of the profile's GPU.
  std::optional<Machine> M;
  std::string Device = D.Devices.size() == 1 ? *D.Devices.begin() : "";
  if (D.Devices.size() > 1) {
    std::string All;
    for (const std::string &N : D.Devices)
      All += (All.empty() ? "" : ", ") + N;
    D.Notes.push_back("the inputs ran on several GPU models (" + All + ")");
  }
  if (!O.Machine.empty()) {
    M = loadMachine(O.Machine);
    for (const std::string &Dv : D.Devices)
      if (!sameDevice(Dv, M->Name) && !O.AnyMachine)
        throw UserError("machine file '" + O.Machine + "' is for '" + M->Name +
                        "' but the profile ran on '" + Dv +
                        "' (use the machine file of that GPU, or --any-machine)");
  } else if (!Device.empty()) {
    if (auto F = findMachineFor(Device))
      M = loadMachine(*F);
    else
      throw UserError("no bundled machine file for '" + Device + "' in " + machinesDir() +
                      ": give --machine M.json (measure it with hroof-ert)");
  } else {
    throw UserError("the inputs do not say which GPU they ran on: give --machine M.json");
  }
  std::vector<KernelAnalysis> As = analyze(D, &*M);
  auto Key = [&](const KernelAnalysis &A) {
    if (O.Sort == "flops")
      return A.FlopsPerLaunch * double(A.K->Launches);
    if (O.Sort == "ai") {
      double Best = 0;
      for (const LevelPoint &L : A.Levels)
        Best = L.AI; // the last level: HBM (or requested)
      return Best;
    }
    return A.TotalTimeNs;
  };
  std::stable_sort(As.begin(), As.end(), [&](const KernelAnalysis &A, const KernelAnalysis &B) {
    return Key(A) > Key(B);
  });
  std::optional<RangeView> RV;
  if (!O.By.empty())
    RV = buildRangeView(O.Inputs, D, *M, parseByRange(O.By));
  std::vector<Candidate> Tuning = kernelCandidates(As); // all kernels, before --top
  if (O.Top > 0 && size_t(O.Top) < As.size())
    As.resize(size_t(O.Top));

  std::string Inputs;
  for (const std::string &P : D.Inputs)
    Inputs += (Inputs.empty() ? "" : ", ") + P;
  std::cout << "hroof report: " << D.Kernels.size() << " kernel(s) from " << D.Inputs.size()
            << " input(s); ceilings: " << M->Name << " (" << M->Path << ")\n";
  printTable(std::cout, As);
  const char *SrcLegend = "src F/B/T: where the FLOPs / bytes / time came from: ctr hardware "
                          "counters, dyn hroof dynamic counts, sta static model, act CUPTI "
                          "activity durations";
  std::cout << SrcLegend << "\n";
  std::vector<std::string> Notes = D.Notes;
  for (const std::string &T : transferLines(O.Inputs, totalTimeNs(Tuning)))
    Notes.push_back(T);
  for (const KernelAnalysis &A : As)
    for (const std::string &Mi : A.Missing)
      Notes.push_back(shortName(A.K->Name) + ": " + Mi);
  for (const std::string &N : Notes)
    std::cout << "note: " << N << "\n";
  writeRangeAndTuning(std::cout, RV ? &*RV : nullptr, std::move(Tuning), O.Tuning, O.RangeJson,
                      O.TuningJson);

  std::string Title =
      "Hierarchical roofline: " +
      (D.Inputs.size() == 1 ? D.Inputs[0] : std::to_string(D.Inputs.size()) + " inputs");
  // --by range: the ranges are the chart's points.
  nlohmann::json Spec = chartSpec(RV ? RV->ChartPoints : As, *M, Title, O.AllCeilings);
  for (const std::string *PP : {&O.Html, &O.Svg, &O.Csv}) {
    const std::string &Path = *PP;
    if (Path.empty())
      continue;
    std::ostringstream Out;
    if (PP == &O.Html) {
      Out << buildHtml(Spec, As, Title,
                       "inputs: " + Inputs + " | ceilings: " + M->Name + " (" + M->Path + ")", [&] {
                         std::vector<std::string> N = {SrcLegend};
                         N.insert(N.end(), Notes.begin(), Notes.end());
                         return N;
                       }());
    } else if (PP == &O.Svg) {
      Out << renderSvg(Spec);
    } else {
      writeCsv(Out, As);
    }
    std::ofstream F = openOut(Path);
    F << Out.str();
    finishOut(F, Path);
    std::cout << "wrote " << Path << "\n";
  }
  return 0;
}

} // namespace

Subcommand addReportCommand(CLI::App &App) {
  auto O = std::make_shared<ReportOptions>();
  CLI::App *R = App.add_subcommand(
      "report", "Hierarchical roofline of profiles written by `hroof run` (several "
                "merge: MPI ranks, repeated runs) or Nsight Compute exports "
                "(ncu --csv --page raw): a table per kernel, and the chart as HTML/SVG. "
                "See docs/report.md.");
  R->add_option("inputs", O->Inputs, "profile JSON files and/or ncu raw CSV files")->required();
  R->add_option("--machine", O->Machine,
                "machine JSON with the ceilings (hroof-ert); default: the bundled file "
                "of the profile's GPU in docs/machines/");
  R->add_flag("--any-machine", O->AnyMachine,
              "accept a machine file of another GPU than the profile's");
  R->add_option("--html", O->Html, "write the chart and table as one self-contained HTML file");
  R->add_option("--svg", O->Svg, "write the chart as a standalone SVG (needs node)");
  R->add_option("--csv", O->Csv, "write the table as CSV");
  R->add_option("--top", O->Top, "only the first N kernels (after sorting)");
  R->add_option("--sort", O->Sort, "sort kernels by time (default), flops or ai");
  R->add_option("--by", O->By,
                "range or range:DEPTH: FLOPs, bytes, time and transfers per NVTX range path "
                "(cut to DEPTH), each range a point of the chart");
  R->add_option("--range-json", O->RangeJson, "write the --by range table as JSON");
  R->add_option("--tuning", O->Tuning,
                "list the N largest tuning candidates: time x (1 - achieved/attainable at "
                "the limiting roof), of the kernels (of the ranges with --by range)");
  R->add_option("--tuning-json", O->TuningJson, "write the tuning candidates as JSON");
  R->add_flag("--all-ceilings", O->AllCeilings,
              "draw every compute ceiling of the machine, not only the precisions used");
  return {R, [O] { return runReport(*O); }};
}

} // namespace hroof
