//===- ReportCommand.cpp - hroof report PROFILE... -----------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hierarchical roofline of one or more profiles (or Nsight Compute raw
// CSV exports): a terminal table per kernel and, on request, the chart as a
// self-contained HTML page (Vega-Lite, inlined) and a standalone SVG
// (rendered by the same spec in node), and every kernel as CSV and JSON
// (report/ReportExport.h). docs/report.md.
//===----------------------------------------------------------------------===//
#include "ReportChart.h"
#include "Settings.h"
#include "Subcommand.h"
#include "Toolchain.h"
#include "report/Ceilings.h"
#include "report/Insights.h"
#include "report/RangeBaseline.h"
#include "report/RangeView.h"
#include "report/RankView.h"
#include "report/StaticPoints.h"
#include "report/TextTable.h"
#include "report/ReportData.h"
#include "report/ReportExport.h"
#include "report/TuningCandidates.h"

#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

namespace hroof {

using namespace report;

namespace {

struct ReportOptions {
  std::vector<std::string> Inputs;
  std::vector<std::string> Baseline; ///< one or more profiles, merged as the inputs
  std::string Machine, Html, Svg, Csv, Json, Sort = "time", ColorBy = "kernel";
  std::string By, RangeJson, TuningJson; ///< RangeView.h, TuningCandidates.h
  std::string Rank, RankJson;             ///< RankView.h
  int Top = 10, Tuning = 0;
  double MinTimeShare = 0;
  int NameWidth = 48;
  bool AllCeilings = false, AnyMachine = false;
  bool StaticPoints = false; ///< --static (StaticPoints.h)
};

/// The output paths, in the order they are written: the SVG last, since it
/// alone needs node, and the others must not be lost when it fails.
std::vector<std::pair<const char *, const std::string *>> outputs(const ReportOptions &O) {
  return {{"--html", &O.Html}, {"--csv", &O.Csv}, {"--json", &O.Json}, {"--svg", &O.Svg}};
}

/// "-" stands for standard output.
bool isStdout(const std::string &Path) { return Path == "-"; }

std::string readText(const std::string &Path, const char *What) {
  if (std::string Why = unreadableReason(Path); !Why.empty())
    throw UserError(std::string("cannot read ") + What + " '" + Path + "': " + Why);
  std::ifstream In(Path, std::ios::binary);
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

/// The chart libraries: HROOF_REPORT_JS, else the installed copy, else the
/// build tree's (scripts/setup.sh runs npm into build/report-js).
std::string jsDir() {
  std::string Dir = setting(Setting::ReportJs);
  if (Dir.empty())
    Dir = dataPath("report-js/node_modules");
  return Dir.empty() ? installPrefix() + "/report-js/node_modules" : Dir;
}

/// The page template and the SVG renderer: HROOF_REPORT_ASSETS, else
/// <bin>/../share/hroof/report.
std::string assetsDir() {
  std::string Dir = setting(Setting::ReportAssets);
  return Dir.empty() ? installPrefix() + "/share/hroof/report" : Dir;
}

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

//===--- The kernels shown, and the rest as one --------------------------===//

/// The kernels the table and chart leave out (--top, --min-time-share),
/// summed into one: time, launches, FLOPs and bytes add up, and rates and
/// AIs are those of the sums.
struct OtherKernels {
  KernelData K;
  KernelAnalysis A;
};

std::unique_ptr<OtherKernels> otherKernels(const std::vector<const KernelAnalysis *> &Rest) {
  if (Rest.empty())
    return nullptr;
  auto O = std::make_unique<OtherKernels>();
  O->K.Name = "other (" + std::to_string(Rest.size()) + " kernels)";
  KernelAnalysis &A = O->A;
  A.K = &O->K;
  A.Id = "other";
  double Flops = 0, RateNs = 0;
  std::map<std::string, std::pair<double, double>> LevelSums; // level -> FLOPs, bytes
  for (const KernelAnalysis *R : Rest) {
    double N = double(std::max<uint64_t>(R->K->Launches, 1));
    O->K.Launches += R->K->Launches;
    A.TotalTimeNs += R->TotalTimeNs;
    A.TimeShare += R->TimeShare;
    if (R->GFlops <= 0)
      continue;
    Flops += R->FlopsPerLaunch * N;
    RateNs += R->RateTimeNsPerLaunch * N;
    for (const auto &[P, V] : R->FlopsByPrecision)
      A.FlopsByPrecision[P] += V * N;
    for (const LevelPoint &L : R->Levels)
      if (L.Bytes > 0) {
        LevelSums[L.Level].first += R->FlopsPerLaunch * N;
        LevelSums[L.Level].second += L.Bytes * N;
      }
  }
  double N = double(std::max<uint64_t>(O->K.Launches, 1));
  A.TimeNsPerLaunch = A.TotalTimeNs / N;
  A.FlopsPerLaunch = Flops / N;
  for (auto &[P, V] : A.FlopsByPrecision)
    V /= N;
  A.GFlops = RateNs > 0 ? Flops / RateNs : 0;
  for (const char *L : {"L1", "L2", "HBM", "global (requested)"})
    if (LevelSums.count(L))
      A.Levels.push_back(
          {L, "", LevelSums[L].second / N, LevelSums[L].first / LevelSums[L].second});
  return O;
}

//===--- The table ------------------------------------------------------------===//

std::string fmtAi(double V) { return V > 0 ? fmtNum(V) : "-"; }

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

/// A table as the terminal and the HTML show it: the kernel's full name
/// is each row's hover text in the HTML.
struct Table {
  std::vector<std::string> Head;
  std::vector<std::vector<std::string>> Rows;
  std::vector<std::string> FullNames;
  std::set<size_t> Left; ///< left-aligned columns
  std::string HtmlId;
};

Table kernelTable(const std::vector<const KernelAnalysis *> &As, size_t NameWidth) {
  Table T{{"id", "kernel", "launches", "time%", "time ms", "GFLOP/s", "prec", "AI L1", "AI L2",
           "AI HBM", "AI req", "%ceil", "bound", "src F/B/T"},
          {},
          {},
          {0, 1, 6, 12, 13},
          "hroof-table"};
  // Insight lines (report/Insights.h): a column only when a kernel shown has one.
  bool AnyInsight = std::any_of(As.begin(), As.end(), [](const KernelAnalysis *A) {
    return !insightLabel(A->Insights).empty();
  });
  if (AnyInsight)
    T.Head.push_back("insight"), T.Left.insert(14);
  for (const KernelAnalysis *AP : As) {
    const KernelAnalysis &A = *AP;
    std::string Share = fmtFixed(A.TimeShare, 1), Ms = fmtFixed(A.TotalTimeNs / 1e6, 3);
    std::string Pct = A.PctOfCeiling > 0 ? fmtFixed(A.PctOfCeiling, 1) : "-";
    std::string Src = A.Id == "other" ? "-"
                                      : srcCode(A.FlopSource) + "/" + srcCode(A.BytesSource) + "/" +
                                            srcCode(A.TimeSource);
    T.Rows.push_back(
        {A.Id, cutName(A.Id == "other" ? A.K->Name : compactName(A.K->Name), NameWidth),
         std::to_string(A.K->Launches), A.TimeNsPerLaunch > 0 ? Share : "-",
         A.TimeNsPerLaunch > 0 ? Ms : "-", A.GFlops > 0 ? fmtNum(A.GFlops) : "-",
         A.Precision.empty() ? "-" : A.Precision, fmtAi(aiAt(A, "L1")), fmtAi(aiAt(A, "L2")),
         fmtAi(aiAt(A, "HBM")), fmtAi(A.AIRequested), Pct, A.Bound.empty() ? "-" : A.Bound, Src});
    if (AnyInsight)
      T.Rows.back().push_back(insightLabel(A.Insights).empty() ? "-" : insightLabel(A.Insights));
    T.FullNames.push_back(A.K->Name);
  }
  return T;
}

/// "OLD -> NEW" of a quantity that may be unknown (0).
std::string oldToNew(double Old, double New) { return fmtAi(Old) + " -> " + fmtAi(New); }

std::string pct(double Old, double New) {
  if (Old <= 0 || New <= 0)
    return "-";
  double P = changePct(Old, New);
  return (P >= 0 ? "+" : "") + fmtFixed(P, 1) + "%";
}

/// --baseline: per kernel of both runs, time, GFLOP/s and AI per level,
/// old -> new with the change.
Table baselineTable(const BaselineComparison &C, size_t NameWidth) {
  Table T{{"id", "kernel", "time ms", "time", "GFLOP/s", "GFLOP/s", "AI L1", "AI L2", "AI HBM"},
          {},
          {},
          {0, 1},
          "hroof-baseline"};
  for (const auto &[Old, New] : C.Pairs) {
    T.Rows.push_back(
        {New->Id, cutName(compactName(New->K->Name), NameWidth),
         fmtFixed(Old->TotalTimeNs / 1e6, 3) + " -> " + fmtFixed(New->TotalTimeNs / 1e6, 3),
         pct(Old->TotalTimeNs, New->TotalTimeNs), oldToNew(Old->GFlops, New->GFlops),
         pct(Old->GFlops, New->GFlops), oldToNew(aiAt(*Old, "L1"), aiAt(*New, "L1")),
         oldToNew(aiAt(*Old, "L2"), aiAt(*New, "L2")),
         oldToNew(aiAt(*Old, "HBM"), aiAt(*New, "HBM"))});
    T.FullNames.push_back(New->K->Name);
  }
  return T;
}

/// The terminal form: the one aligned-column printer of the report tables.
void printTable(std::ostream &OS, const Table &T) {
  std::vector<std::vector<std::string>> Rows{T.Head};
  Rows.insert(Rows.end(), T.Rows.begin(), T.Rows.end());
  report::printTextTable(OS, Rows, T.Left);
}

std::string htmlTable(const Table &T) {
  std::ostringstream OS;
  OS << "<table id=\"" << T.HtmlId << "\"><tr>";
  for (size_t C = 0; C < T.Head.size(); ++C)
    OS << "<th" << (C == 1 ? " class=\"name\"" : "") << ">" << htmlEscape(T.Head[C]) << "</th>";
  OS << "</tr>\n";
  for (size_t I = 0; I < T.Rows.size(); ++I) {
    OS << "<tr>";
    for (size_t C = 0; C < T.Rows[I].size(); ++C)
      OS << "<td" << (C == 1 ? " class=\"name\" title=\"" + htmlEscape(T.FullNames[I]) + "\"" : "")
         << ">" << htmlEscape(T.Rows[I][C]) << "</td>";
    OS << "</tr>\n";
  }
  OS << "</table>";
  return OS.str();
}

std::string shellQuote(const std::string &S) {
  std::string R = "'";
  for (char C : S)
    R += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return R + "'";
}

std::string renderSvg(const nlohmann::json &Spec) {
  std::string Dir = jsDir(), Script = assetsDir() + "/render-svg.mjs";
  if (findOnPath("node").empty())
    throw UserError("--svg needs node on PATH (the --html chart does not)");
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

std::string buildHtml(const nlohmann::json &Spec, const std::string &TableHtml,
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
  replaceAll(Page, "@@TABLE@@", TableHtml);
  replaceAll(Page, "@@NOTES@@", NotesHtml);
  replaceAll(Page, "@@SPEC@@", scriptSafe(Spec.dump(), true));
  replaceAll(Page, "@@VEGA_EMBED@@", Lib("vega-embed/build/vega-embed.min.js"));
  replaceAll(Page, "@@VEGA_LITE@@", Lib("vega-lite/build/vega-lite.min.js"));
  replaceAll(Page, "@@VEGA@@", Lib("vega/build/vega.min.js"));
  return Page;
}

/// Checks the values of the options (UsageError) before anything is read.
void checkOptions(const ReportOptions &O) {
  if (O.Sort != "time" && O.Sort != "flops" && O.Sort != "ai")
    throw UsageError("--sort must be time, flops or ai (not '" + O.Sort + "')");
  if (O.Top < 0)
    throw UsageError("--top must be 0 (every kernel) or more (not " + std::to_string(O.Top) + ")");
  if (!(O.MinTimeShare >= 0 && O.MinTimeShare < 100))
    throw UsageError("--min-time-share must be a percentage from 0 to below 100 (not " +
                     fmtNum(O.MinTimeShare) + ")");
  if (O.NameWidth < 8)
    throw UsageError("--name-width must be 8 or more (not " + std::to_string(O.NameWidth) + ")");
  bool ByRank = O.By.rfind("rank", 0) == 0;
  try { // a --by that does not parse is a usage error (exit 2), not a failure
    if (ByRank)
      parseByRank(O.By);
    else if (!O.By.empty())
      parseByRange(O.By);
  } catch (const UserError &E) {
    throw UsageError(E.what());
  }
  if (!O.RangeJson.empty() && (O.By.empty() || ByRank))
    throw UsageError("--range-json needs --by range");
  if (O.StaticPoints && (!O.Baseline.empty() || !O.By.empty()))
    throw UsageError("--static draws kernels' static points: not with --baseline or --by");
  if (!O.RankJson.empty() && !ByRank)
    throw UsageError("--rank-json needs --by rank");
  if (O.Tuning < 0)
    throw UsageError("--tuning must be 0 or more (not " + std::to_string(O.Tuning) + ")");
  if (O.ColorBy != "kernel" && O.ColorBy != "bound")
    throw UsageError("--color must be kernel or bound (not '" + O.ColorBy + "')");
  int ToStdout = 0;
  for (const auto &[Flag, Path] : outputs(O))
    ToStdout += isStdout(*Path);
  if (ToStdout > 1)
    throw UsageError("only one of --html, --csv, --json, --svg can be '-' (standard output)");
}

/// Sorts by --sort and splits at --top and --min-time-share: the kernels
/// shown, then the rest (for "other").
std::pair<std::vector<const KernelAnalysis *>, std::vector<const KernelAnalysis *>>
selectKernels(std::vector<KernelAnalysis> &As, const ReportOptions &O) {
  auto Key = [&](const KernelAnalysis &A) {
    if (O.Sort == "flops")
      return A.FlopsPerLaunch * double(A.K->Launches);
    if (O.Sort == "ai")
      return A.Levels.empty() ? 0.0 : A.Levels.back().AI; // HBM (or requested)
    return A.TotalTimeNs;
  };
  std::stable_sort(As.begin(), As.end(), [&](const KernelAnalysis &A, const KernelAnalysis &B) {
    return Key(A) > Key(B);
  });
  std::vector<const KernelAnalysis *> Shown, Rest;
  for (const KernelAnalysis &A : As)
    ((O.Top > 0 && Shown.size() >= size_t(O.Top)) || A.TimeShare < O.MinTimeShare ? Rest : Shown)
        .push_back(&A);
  return {Shown, Rest};
}

int produceReport(const ReportOptions &O, std::set<std::string> &Written);

int runReport(const ReportOptions &O) {
  checkOptions(O);
  // Outputs first: an unwritable output fails before any work (checked
  // without truncating; files created by the check and not written after
  // are removed).
  std::vector<std::string> Created;
  auto Probed = outputs(O);
  Probed.push_back({"--range-json", &O.RangeJson});
  Probed.push_back({"--tuning-json", &O.TuningJson});
  Probed.push_back({"--rank-json", &O.RankJson});
  for (const auto &[Flag, P] : Probed) {
    if (P->empty() || isStdout(*P))
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
  std::set<std::string> Written;
  try {
    return produceReport(O, Written);
  } catch (...) {
    for (const std::string &P : Created)
      if (!Written.count(P))
        ::unlink(P.c_str());
    throw;
  }
}

/// Writes \p Text to \p Path ("-": standard output).
void writeOutput(const std::string &Path, const std::string &Text, std::ostream &Info) {
  if (isStdout(Path)) {
    std::cout << Text << std::flush;
    return;
  }
  std::ofstream F = openOut(Path);
  F << Text;
  finishOut(F, Path);
  Info << "wrote " << Path << "\n";
}

/// What the outputs are made of, computed once.
struct ReportParts {
  nlohmann::json Spec, Json;
  std::string TablesHtml, Title, Subtitle;
  std::vector<std::string> HtmlNotes;
  const std::vector<KernelAnalysis> *All = nullptr;
};

/// Writes every output asked for, the SVG last; an output that fails does
/// not stop the others, and the error names those written.
void writeOutputs(const ReportOptions &O, const ReportParts &P, std::ostream &Info,
                  std::set<std::string> &Written) {
  std::string Failed;
  for (const auto &[Flag, PP] : outputs(O)) {
    const std::string &Path = *PP;
    if (Path.empty())
      continue;
    std::ostringstream Out;
    try {
      if (PP == &O.Html)
        Out << buildHtml(P.Spec, P.TablesHtml, P.Title, P.Subtitle, P.HtmlNotes);
      else if (PP == &O.Svg)
        Out << renderSvg(P.Spec);
      else if (PP == &O.Csv)
        writeReportCsv(Out, *P.All);
      else
        Out << P.Json.dump(1) << "\n";
      writeOutput(Path, Out.str(), Info);
      Written.insert(Path);
    } catch (const UserError &E) {
      Failed += (Failed.empty() ? "" : "; ") + std::string(E.what());
    }
  }
  if (!Failed.empty()) {
    std::string Done;
    for (const std::string &W : Written)
      Done += (Done.empty() ? "" : ", ") + W;
    throw UserError(Failed + (Done.empty() ? "" : " (written: " + Done + ")"));
  }
}

/// The notes under the table: the inputs', "other", what is missing, and
/// memory levels that do not read as a hierarchy.
std::vector<std::string> reportNotes(const Dataset &D, const std::vector<KernelAnalysis> &As,
                                     size_t Others, const ReportOptions &O) {
  std::vector<std::string> Notes = D.Notes;
  if (Others)
    Notes.push_back("other: " + std::to_string(Others) + " kernels below --top " +
                    std::to_string(O.Top) +
                    (O.MinTimeShare > 0 ? " or --min-time-share " + fmtNum(O.MinTimeShare) : "") +
                    ", summed into one row and point (every kernel is in --csv and --json)");
  for (const KernelAnalysis &A : As) {
    for (const std::string &Mi : A.Missing)
      Notes.push_back(A.Id + " " + compactName(A.K->Name) + ": " + Mi);
    if (!A.HierarchyFlag.empty())
      Notes.push_back(A.Id + " " + compactName(A.K->Name) + ": memory levels " + A.HierarchyFlag +
                      " (its points are outlined in red where the chart draws them)");
    if (A.FlopSource == "counters" && A.K->Counters.Estimated)
      Notes.push_back(A.Id + " " + compactName(A.K->Name) + ": " + estimatedCountersNote(*A.K));
  }
  return Notes;
}

/// --baseline: the baseline run, analysed on the same machine; its kernels
/// compared, or with --by range its ranges (RangeBaseline.h).
struct Baseline {
  Dataset D;
  std::vector<KernelAnalysis> As;
  BaselineComparison C;
  std::optional<RangeView> RV;
  std::optional<RangeComparison> RC;
};

/// --static: each shown kernel's static placement as the hollow "baseline"
/// of its point (kept in \p Keep), with the notes that explain them.
void addStaticPoints(const std::vector<const KernelAnalysis *> &Shown, ChartOptions &CO,
                     std::deque<KernelAnalysis> &Keep, std::vector<std::string> &Notes,
                     bool Charted) {
  std::string Without;
  for (const KernelAnalysis *A : Shown) {
    std::string Note;
    if (auto S = staticPlacement(*A, Note)) {
      Keep.push_back(std::move(*S));
      CO.Baseline[A] = &Keep.back();
      if (!Note.empty())
        Notes.push_back(Note);
    } else if (A->Id != "other") {
      Without += (Without.empty() ? "" : ", ") + A->Id;
    }
  }
  CO.BaselineWhereEqual = true;
  if (!Without.empty())
    Notes.push_back("--static: no static point for " + Without +
                    " (no static model, or no static bytes at a level the measurement has)");
  if (!Charted) {
    Notes.push_back("--static draws in the chart: give --html or --svg");
    return;
  }
  Notes.push_back("hollow points: the static model's placement of each kernel (its FLOPs over "
                  "its predicted sectors at L1, footprint at HBM, requested bytes), dashed to "
                  "the measured point at the same level");
}

/// The chart's points: the kernels by time (legend and colours follow time
/// whatever --sort says), or the ranges (R1..Rn) or ranks (P1..Pn) instead.
std::vector<const KernelAnalysis *> chartPoints(const std::vector<const KernelAnalysis *> &Shown,
                                                RangeView *RV, RankView *KV, ChartOptions &CO) {
  std::vector<const KernelAnalysis *> ByTime = Shown;
  std::stable_sort(ByTime.begin(), ByTime.end(),
                   [](const KernelAnalysis *A, const KernelAnalysis *B) {
                     return A->TotalTimeNs > B->TotalTimeNs;
                   });
  if (RV) {
    CO.LegendTitle = "NVTX range";
    ByTime.clear();
    for (size_t I = 0; I < RV->ChartPoints.size(); ++I) {
      if (RV->ChartPoints[I].Id.empty())
        RV->ChartPoints[I].Id = "R" + std::to_string(I + 1);
      ByTime.push_back(&RV->ChartPoints[I]);
    }
  }
  if (KV) {
    CO.LegendTitle = "rank / GPU";
    ByTime.clear();
    for (size_t I = 0; I < KV->ChartPoints.size(); ++I) {
      KV->ChartPoints[I].Id = "P" + std::to_string(I + 1);
      ByTime.push_back(&KV->ChartPoints[I]);
    }
  }
  return ByTime;
}

int produceReport(const ReportOptions &O, std::set<std::string> &Written) {
  // --rank R: that rank's profiles alone, every view as for one process.
  std::vector<InputFile> Files = inputsOfRank(readInputFiles(O.Inputs), O.Rank); // read once
  Dataset D = loadInputs(Files, O.By.rfind("rank", 0) == 0); // --by rank: unreadable ones are rows
  Machine M = chooseMachine(D, O.Machine, O.AnyMachine);
  std::vector<KernelAnalysis> As = analyze(D, &M);
  std::optional<RangeView> RV;
  std::optional<RankView> KV;
  if (O.By.rfind("rank", 0) == 0)
    KV = buildRankView(Files, M, parseByRank(O.By));
  else if (!O.By.empty())
    RV = buildRangeView(Files, D, M, parseByRange(O.By));
  std::vector<Candidate> Tuning = kernelCandidates(As); // all kernels, before --top
  auto [Shown, Rest] = selectKernels(As, O);
  std::unique_ptr<OtherKernels> Other = otherKernels(Rest);
  std::vector<const KernelAnalysis *> Rows = Shown;
  if (Other)
    Rows.push_back(&Other->A);
  std::unique_ptr<Baseline> Base;
  if (!O.Baseline.empty()) {
    Base = std::make_unique<Baseline>();
    std::vector<InputFile> BaseFiles = inputsOfRank(readInputFiles(O.Baseline), O.Rank);
    Base->D = loadInputs(BaseFiles);
    if (RV) { // the ranges are compared, not the kernels (AMP and FP32 kernels differ)
      Base->RV = buildRangeView(BaseFiles, Base->D, M, RV->Depth);
      Base->RC = compareRanges(*RV, *Base->RV, Base->D.Inputs);
    } else {
      Base->As = analyze(Base->D, &M);
      Base->C = compareToBaseline(Base->As, As);
    }
  }

  // With an output on standard output, the table goes to stderr.
  bool AnyStdout = false;
  for (const auto &[Flag, P] : outputs(O))
    AnyStdout |= isStdout(*P);
  std::ostream &Info = AnyStdout ? std::cerr : std::cout;
  std::string Inputs;
  for (const std::string &P : D.Inputs)
    Inputs += (Inputs.empty() ? "" : ", ") + P;
  Info << "hroof report: " << D.Kernels.size() << " kernel(s) from " << D.Inputs.size()
       << " input(s); ceilings: " << M.describe() << "\n";
  Table Main = kernelTable(Rows, size_t(O.NameWidth));
  printTable(Info, Main);
  const char *SrcLegend = "src F/B/T: where the FLOPs / bytes / time came from: ctr hardware "
                          "counters, dyn hroof dynamic counts, sta static model, act CUPTI "
                          "activity durations";
  Info << SrcLegend << "\n";
  ReportParts P;
  P.TablesHtml = htmlTable(Main);
  std::vector<std::string> Notes = reportNotes(D, As, Rest.size(), O);
  for (const KernelAnalysis *A : Shown)
    if (std::string N = insightNote(A->Insights, fmtFixed(A->TotalTimeNs / 1e6, 3) + " ms, " +
                                                     fmtFixed(A->TimeShare, 1) +
                                                     "% of the kernel time");
        !N.empty())
      Notes.push_back(A->Id + " " + compactName(A->K->Name) + ": " + N);
  if (Base && !RV) {
    Table Delta = baselineTable(Base->C, size_t(O.NameWidth));
    Info << "against the baseline (" << Base->D.Inputs.size() << " input(s)):\n";
    printTable(Info, Delta);
    P.TablesHtml += "\n<h2>Against the baseline</h2>\n" + htmlTable(Delta);
    for (const KernelAnalysis *A : Base->C.OnlyNew)
      Notes.push_back(A->Id + " " + compactName(A->K->Name) + ": not in the baseline");
    for (const KernelAnalysis *A : Base->C.OnlyOld)
      Notes.push_back(compactName(A->K->Name) + ": in the baseline only");
  }
  for (const std::string &T : transferLines(Files, totalTimeNs(Tuning)))
    Notes.push_back(T);
  if (std::string C = communicationNote(As); !C.empty())
    Notes.push_back(C);
  ChartOptions CO;
  std::deque<KernelAnalysis> StaticAs;
  if (O.StaticPoints)
    addStaticPoints(Shown, CO, StaticAs, Notes, !O.Html.empty() || !O.Svg.empty());
  for (const std::string &N : Notes)
    Info << "note: " << N << "\n";
  writeRangeAndTuning(Info, RV ? &*RV : nullptr, std::move(Tuning), O.Tuning, O.RangeJson,
                      O.TuningJson, Base && Base->RC ? &*Base->RC : nullptr);
  // Each file written is named, as --json and --csv name theirs.
  if (RV && !O.RangeJson.empty())
    Info << "wrote " << O.RangeJson << "\n";
  if (!O.TuningJson.empty())
    Info << "wrote " << O.TuningJson << "\n";
  if (KV) { // the same tables in the HTML, as the terminal shows them
    writeRankView(Info, *KV, size_t(O.Top), size_t(O.NameWidth), O.RankJson);
    std::ostringstream Text;
    printRankView(Text, *KV, size_t(O.Top), size_t(O.NameWidth));
    P.TablesHtml += "\n<h2>By rank and GPU</h2>\n<pre>" + htmlEscape(Text.str()) + "</pre>";
  }

  P.Title = "Hierarchical roofline: " +
            (D.Inputs.size() == 1 ? D.Inputs[0] : std::to_string(D.Inputs.size()) + " inputs");
  P.Subtitle = "inputs: " + Inputs + " | ceilings: " + M.describe();
  CO.AllCeilings = O.AllCeilings;
  CO.ColorByBound = O.ColorBy == "bound";
  CO.NameWidth = size_t(O.NameWidth);
  if (Base) // arrows between the kernels' points, or with --by range the ranges'
    CO.Baseline = Base->RV ? rangeArrows(*RV, *Base->RV) : pairArrows(Base->C);
  std::vector<const KernelAnalysis *> ByTime = chartPoints(Shown, RV ? &*RV : nullptr,
                                                           KV ? &*KV : nullptr, CO);
  P.Spec = chartSpec(ByTime, RV || KV || !Other ? nullptr : &Other->A, M, P.Title, CO);
  P.HtmlNotes.insert(P.HtmlNotes.begin(), SrcLegend);
  P.HtmlNotes.insert(P.HtmlNotes.begin() + 1, Notes.begin(), Notes.end());
  P.Json = reportJson(D, M, As, Notes);
  if (KV)
    P.Json["by_rank"] = rankViewJson(*KV);
  if (Base && !RV)
    P.Json["baseline"] = baselineJson(Base->C, Base->D);
  P.All = &As;
  writeOutputs(O, P, Info, Written);
  return 0;
}

} // namespace

Subcommand addReportCommand(CLI::App &App) {
  auto O = std::make_shared<ReportOptions>();
  CLI::App *R = App.add_subcommand(
      "report", "Hierarchical roofline of profiles written by `hroof run` (several "
                "merge: MPI ranks, repeated runs) or Nsight Compute exports "
                "(ncu --csv --page raw): a table per kernel, and the chart as HTML/SVG; "
                "every kernel as CSV/JSON. See docs/report.md.");
  R->add_option("inputs", O->Inputs, "profile JSON files and/or ncu raw CSV files")->required();
  R->add_option("--machine", O->Machine,
                "machine JSON with the ceilings (hroof-ert --out DIR writes DIR/machine.json); "
                "default: the bundled file of the profile's GPU in share/hroof/machines/ (from "
                "docs/machines/), else the peaks its hardware counters recorded (not measured)");
  R->add_flag("--any-machine", O->AnyMachine,
              "accept a machine file of another GPU than the profile's");
  R->add_option("--html", O->Html,
                "write the chart and table as one self-contained HTML file (- = stdout)");
  R->add_option("--svg", O->Svg, "write the chart as a standalone SVG (needs node; - = stdout)");
  R->add_option("--csv", O->Csv, "write every kernel as CSV, numbers exact, its insight line last (- = stdout)");
  R->add_option("--json", O->Json, "write every kernel as JSON, numbers exact (- = stdout)");
  R->add_option("--top", O->Top,
                "the table and chart show this many kernels (default 10; 0: all), the rest "
                "summed as 'other'; --by rank's imbalance tables show this many rows");
  R->add_option("--min-time-share", O->MinTimeShare,
                "kernels under this percentage of the time go to 'other' too (default 0)");
  R->add_option("--sort", O->Sort, "sort the table by time (default), flops or ai");
  R->add_option("--name-width", O->NameWidth,
                "kernel names in the table and legend cut to this many characters (default "
                "48; the ids K1..Kn are unique)");
  R->add_option("--color", O->ColorBy,
                "colour the chart's points by kernel (default) or by bound (limiting roof)");
  R->add_option("--baseline", O->Baseline,
                "a profile (or ncu export) of an earlier run, analysed on the same machine; one "
                "file per --baseline, repeat it for several (they merge as the inputs do): per "
                "kernel the changes in time, GFLOP/s and AI per level, arrows old -> new on "
                "the chart; with --by range, per NVTX range path instead (in both runs or one), "
                "the time, FLOPs and Tensor Core share of the FLOPs of each run, the speedup "
                "(baseline time / this run's), arrows between the ranges' points (FP32 -> AMP)")
      ->allow_extra_args(false);
  R->add_option("--by", O->By,
                "range or range:DEPTH: FLOPs, bytes, time and transfers per NVTX range path "
                "(cut to DEPTH), each range a point of the chart; rank or rank:DEPTH: per "
                "rank and GPU of a distributed run, kernel and communication time, each a "
                "point of the chart, and the imbalance (max/mean) of every kernel and NVTX "
                "range (paths cut to DEPTH) across them");
  R->add_option("--range-json", O->RangeJson,
                "write the --by range table as JSON (with --baseline: its comparison too)");
  R->add_option("--rank-json", O->RankJson, "write the --by rank tables as JSON");
  R->add_option("--rank", O->Rank,
                "only the profiles of this rank (the \"rank\" of each profile: RANK, "
                "OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK or SLURM_PROCID at run time)");
  R->add_option("--tuning", O->Tuning,
                "list the N largest tuning candidates: time x (1 - achieved/attainable at "
                "the limiting roof), of the kernels (of the ranges with --by range)");
  R->add_option("--tuning-json", O->TuningJson, "write the tuning candidates as JSON");
  R->add_flag("--static", O->StaticPoints,
              "draw where the static model places each kernel beside its measured point, "
              "per level (hollow, dashed): AI of the static FLOPs over the predicted L1 "
              "sectors, the footprint at HBM and the requested bytes");
  R->add_flag("--all-ceilings", O->AllCeilings,
              "draw every compute ceiling of the machine, not only the precisions used");
  R->footer(environmentHelp({Setting::MachinesDir, Setting::ReportJs, Setting::ReportAssets}));
  return {R, [O] { return runReport(*O); }};
}

} // namespace hroof
