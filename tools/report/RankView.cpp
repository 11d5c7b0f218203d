//===- RankView.cpp - `hroof report --by rank[:DEPTH]` --------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "RankView.h"
#include "ProfileReader.h"
#include "TextTable.h"

#include "../Toolchain.h"

#include "hroof/RangePath.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <cmath>
#include <optional>
#include <set>

namespace hroof {
namespace report {

using nlohmann::json;

size_t parseByRank(const std::string &By) {
  if (By == "rank")
    return 0;
  if (By.rfind("rank:", 0) == 0 && By.size() > 5 && By.size() < 15 &&
      By.find_first_not_of("0123456789", 5) == std::string::npos)
    return size_t(std::stoul(By.substr(5)));
  throw UserError("--by must be range, range:DEPTH, rank or rank:DEPTH (not '" + By + "')");
}

ImbalanceRow imbalance(std::string Name, std::vector<double> Ns) {
  ImbalanceRow R;
  R.Name = std::move(Name);
  R.Ns = std::move(Ns);
  if (R.Ns.empty())
    return R;
  R.Max = R.Min = R.Ns[0];
  for (size_t I = 0; I < R.Ns.size(); ++I) {
    R.Total += R.Ns[I];
    if (R.Ns[I] > R.Max)
      R.Max = R.Ns[I], R.Slowest = I;
    if (R.Ns[I] < R.Min)
      R.Min = R.Ns[I], R.Fastest = I;
  }
  R.Mean = R.Total / double(R.Ns.size());
  R.MaxOverMean = R.Mean > 0 ? R.Max / R.Mean : 0;
  return R;
}

namespace {

/// A kernel aggregate's (or by_device entry's) "device": absent, or an
/// integer ordinal (-1 unknown); anything else is a malformed profile.
std::optional<int64_t> deviceField(const json &Obj, const std::string &Where,
                                   const ProfileFields &F) {
  if (!Obj.is_object() || !Obj.contains("device"))
    return std::nullopt;
  if (!Obj["device"].is_number_integer())
    F.fail(Where + "/device", "is not an integer device ordinal");
  return Obj["device"].get<int64_t>();
}

/// The devices of one profile: those its kernel aggregates name ("device",
/// "by_device"), else its one entry of "devices", else unknown (-1). A
/// launch whose device is unknown (-1: a failed launch of an older runtime)
/// belongs to the process's one known device when it has exactly one.
struct ProcessDevices {
  std::set<int64_t> All;
  int64_t Fallback = -1; ///< the one known device, for aggregates without a field
  int64_t resolve(int64_t Dev) const { return Dev < 0 ? Fallback : Dev; }
};

ProcessDevices devicesOf(const json &J, const ProfileFields &F) {
  std::set<int64_t> Named;
  const json Kernels = J.value("kernels", json::array());
  for (size_t I = 0; I < Kernels.size(); ++I) {
    std::string Where = "/kernels/" + std::to_string(I);
    const json &K = Kernels[I];
    if (K.is_object() && K.contains("by_device")) {
      if (!K["by_device"].is_array())
        F.fail(Where + "/by_device", "is not an array");
      for (size_t E = 0; E < K["by_device"].size(); ++E)
        Named.insert(deviceField(K["by_device"][E], Where + "/by_device/" + std::to_string(E), F)
                         .value_or(-1));
    } else if (K.is_object()) {
      Named.insert(deviceField(K, Where, F).value_or(-1));
    }
  }
  ProcessDevices P;
  std::set<int64_t> Known;
  for (int64_t D : Named)
    if (D >= 0)
      Known.insert(D);
  if (Known.empty()) {
    const json Devs = J.value("devices", json::array());
    if (Devs.size() == 1 && Devs[0].is_object() && Devs[0].contains("ordinal") &&
        Devs[0]["ordinal"].is_number_integer())
      Known.insert(Devs[0]["ordinal"].get<int64_t>());
  }
  if (Known.size() == 1)
    P.Fallback = *Known.begin();
  for (int64_t D : Named)
    P.All.insert(P.resolve(D));
  if (P.All.empty())
    P.All.insert(P.Fallback);
  return P;
}

/// The part of kernel aggregates \p Kernels that ran on \p Dev. A
/// by_device entry becomes an aggregate of its own: the kernel's names and
/// static model (per-launch means, scaled by the entry's launches) with the
/// entry's launches, durations, counters and dynamic counts.
json kernelsOn(const json &Kernels, int64_t Dev, const ProcessDevices &PD,
               const ProfileFields &F) {
  json Out = json::array();
  for (size_t I = 0; I < Kernels.size(); ++I) {
    const json &K = Kernels[I];
    std::string Where = "/kernels/" + std::to_string(I);
    if (!K.is_object())
      continue;
    if (K.contains("by_device") && K["by_device"].is_array()) {
      for (size_t E = 0; E < K["by_device"].size(); ++E) {
        const json &Entry = K["by_device"][E];
        std::string At = Where + "/by_device/" + std::to_string(E);
        if (PD.resolve(deviceField(Entry, At, F).value_or(-1)) != Dev || !Entry.is_object())
          continue;
        json Part = json::object();
        for (const char *Field : {"kernel", "mangled", "instrumented", "static", "static_warp"})
          if (K.contains(Field))
            Part[Field] = K[Field];
        for (const char *Field : {"launches", "duration_ns", "counters", "dynamic"})
          if (Entry.contains(Field))
            Part[Field] = Entry[Field];
        Out.push_back(std::move(Part));
      }
    } else if (PD.resolve(deviceField(K, Where, F).value_or(-1)) == Dev) {
      Out.push_back(K);
    }
  }
  return Out;
}

json launchesOn(const json &Launches, int64_t Dev, const ProcessDevices &PD) {
  json Out = json::array();
  for (const json &L : Launches)
    if (L.is_object() && PD.resolve(L.contains("device") && L["device"].is_number_integer()
                                        ? L["device"].get<int64_t>()
                                        : -1) == Dev)
      Out.push_back(L);
  return Out;
}

std::string deviceName(const json &J, int64_t Dev) {
  for (const json &D : J.value("devices", json::array()))
    if (D.is_object() && D.value("ordinal", int64_t(-2)) == Dev && D.contains("name") &&
        D["name"].is_string())
      return D["name"].get<std::string>();
  return "";
}

std::string rankOf(const json &J) {
  if (!J.contains("rank") || J["rank"].is_null())
    return "";
  return J["rank"].is_string() ? J["rank"].get<std::string>() : J["rank"].dump();
}

/// Sort key: numeric ranks in numeric order, then the rest by text.
std::pair<long long, std::string> rankKey(const std::string &Rank) {
  bool Numeric = !Rank.empty() && Rank.find_first_not_of("0123456789") == std::string::npos &&
                 Rank.size() < 18;
  return {Numeric ? std::stoll(Rank) : -1, Rank};
}

/// Per row: kernel and range times by name, filled while the rows are read.
struct Times {
  std::map<std::string, std::pair<std::string, double>> Kernels; ///< key -> (comm label, ns)
  std::map<std::string, double> Ranges;
};

/// Reads one (process, device) of profile \p J into \p Row and \p T.
void readRow(RankRow &Row, Times &T, const json &J, const ProcessDevices &PD, const Machine &M,
             size_t Depth) {
  ProfileFields F(Row.Input);
  Dataset D;
  json Part = {{"hroof_profile", 1},
               {"kernels", kernelsOn(J["kernels"], Row.Device, PD, F)},
               {"launches", launchesOn(J.value("launches", json::array()), Row.Device, PD)},
               {"devices", J.value("devices", json::array())}};
  addProfile(D, Row.Input, Part);
  std::vector<KernelAnalysis> As = analyze(D, &M);
  std::map<std::string, const KernelAnalysis *> ByKey;
  for (const KernelAnalysis &A : As) {
    addKernelToRow(Row.Sums, A, nullptr);
    if (!A.Communication.empty())
      Row.CommByLabel[A.Communication] += A.TotalTimeNs;
    auto &E = T.Kernels[A.K->Name];
    E.first = A.Communication;
    E.second += A.TotalTimeNs;
    ByKey[A.K->Mangled.empty() ? A.K->Name : A.K->Mangled] = &A;
  }
  placeOnRoofline(Row.Sums, M);
  for (const json &E : J.value("ranges", json::array())) {
    if (!E.is_object())
      continue;
    Dataset RD;
    addProfile(RD, Row.Input,
               {{"hroof_profile", 1},
                {"kernels", kernelsOn(E.value("kernels", json::array()), Row.Device, PD, F)}});
    double Ns = 0;
    for (const KernelAnalysis &A : analyze(RD, &M)) {
      auto It = ByKey.find(A.K->Mangled.empty() ? A.K->Name : A.K->Mangled);
      Ns += A.TotalTimeNs > 0 || It == ByKey.end()
                ? A.TotalTimeNs
                : It->second->TimeNsPerLaunch * double(A.K->Launches);
    }
    T.Ranges[cutRangePath(F.text(E, "/ranges", "range"), Depth)] += Ns;
  }
}

/// The process's peer-to-peer copies on the row of the device that issued
/// them (each copy record's "device"); copies past the record limit, known
/// only from the per-kind totals, go to the process's first row (\p First).
void readP2P(RankRow &Row, const json &J, const ProcessDevices &PD, bool First) {
  if (!J.contains("transfers") || !J["transfers"].is_object())
    return;
  ProfileFields F(Row.Input);
  uint64_t AllCount = 0, Recorded = 0;
  double AllBytes = 0, AllNs = 0, RecBytes = 0, RecNs = 0;
  for (const json &K : J["transfers"].value("by_kind", json::array()))
    if (K.is_object() && F.text(K, "/transfers/by_kind", "kind") == "PtoP") {
      AllCount += F.count(K, "/transfers/by_kind", "count");
      AllBytes += F.number(K, "/transfers/by_kind", "bytes");
      AllNs += F.number(K, "/transfers/by_kind", "duration_ns");
    }
  for (const json &R : J["transfers"].value("records", json::array())) {
    if (!R.is_object() || F.text(R, "/transfers/records", "kind") != "PtoP")
      continue;
    double Bytes = F.number(R, "/transfers/records", "bytes"),
           Ns = F.number(R, "/transfers/records", "duration_ns");
    ++Recorded, RecBytes += Bytes, RecNs += Ns;
    int64_t Dev = R.contains("device") && R["device"].is_number_integer()
                      ? R["device"].get<int64_t>()
                      : -1;
    if (PD.resolve(Dev) == Row.Device)
      ++Row.P2PCopies, Row.P2PBytes += Bytes, Row.P2PNs += Ns;
  }
  if (First && AllCount > Recorded) {
    Row.P2PCopies += AllCount - Recorded;
    Row.P2PBytes += std::max(0.0, AllBytes - RecBytes);
    Row.P2PNs += std::max(0.0, AllNs - RecNs);
  }
}

/// Labels: "rank R", with " GPU d" where a process drove several GPUs, and
/// the file name where two profiles claim the same rank.
void labelRows(std::vector<RankRow> &Rows) {
  std::map<std::string, std::set<int64_t>> DevicesOfInput;
  std::map<std::string, std::set<std::string>> InputsOfRank;
  for (const RankRow &R : Rows) {
    DevicesOfInput[R.Input].insert(R.Device);
    InputsOfRank[R.Rank].insert(R.Input);
  }
  for (RankRow &R : Rows) {
    R.Label = R.Rank.empty() ? "pid " + R.Pid : "rank " + R.Rank;
    if (DevicesOfInput[R.Input].size() > 1)
      R.Label += " GPU " + (R.Device < 0 ? std::string("?") : std::to_string(R.Device));
    if (InputsOfRank[R.Rank].size() > 1)
      R.Label += " (" + R.Input.substr(R.Input.find_last_of('/') + 1) + ")";
  }
}

std::vector<ImbalanceRow> imbalanceRows(const std::vector<Times> &PerRow, bool RangesNotKernels) {
  std::map<std::string, std::string> Comm;
  std::set<std::string> Names;
  for (const Times &T : PerRow) {
    if (RangesNotKernels)
      for (const auto &[Name, Ns] : T.Ranges)
        Names.insert(Name);
    else
      for (const auto &[Name, E] : T.Kernels)
        Names.insert(Name), Comm[Name] = E.first;
  }
  std::vector<ImbalanceRow> Out;
  for (const std::string &Name : Names) {
    std::vector<double> Ns;
    for (const Times &T : PerRow) {
      if (RangesNotKernels) {
        auto It = T.Ranges.find(Name);
        Ns.push_back(It == T.Ranges.end() ? 0 : It->second);
      } else {
        auto It = T.Kernels.find(Name);
        Ns.push_back(It == T.Kernels.end() ? 0 : It->second.second);
      }
    }
    Out.push_back(imbalance(Name, std::move(Ns)));
    Out.back().Communication = Comm[Name];
  }
  std::stable_sort(Out.begin(), Out.end(), [](const ImbalanceRow &A, const ImbalanceRow &B) {
    return A.Total > B.Total;
  });
  return Out;
}

void addSummaryNotes(RankView &V) {
  if (V.Rows.size() < 2 || V.KernelNs <= 0)
    return;
  std::vector<double> Ns;
  for (const RankRow &R : V.Rows)
    Ns.push_back(R.Sums.TimeNs);
  ImbalanceRow All = imbalance("kernel time", Ns);
  V.Notes.push_back("slowest: " + V.Rows[All.Slowest].Label + ", kernel time " +
                    fmtFixed(100 * (All.MaxOverMean - 1), 1) + "% above the mean of the " +
                    std::to_string(V.Rows.size()) + " rows (max/mean " +
                    fmtFixed(All.MaxOverMean, 3) + "); fastest: " + V.Rows[All.Fastest].Label);
  std::vector<double> Comm;
  for (const RankRow &R : V.Rows)
    Comm.push_back(R.Sums.CommTimeNs);
  ImbalanceRow C = imbalance("communication", Comm);
  if (C.Max > C.Min)
    V.Notes.push_back(V.Rows[C.Slowest].Label + " has the most communication time (" +
                      fmtFixed(C.Max / 1e6, 3) + " ms; " + V.Rows[C.Fastest].Label + " " +
                      fmtFixed(C.Min / 1e6, 3) +
                      " ms): a collective ends when the last rank joins it, so the rank with "
                      "the most communication time has usually been waiting for the others");
}

} // namespace

RankView buildRankView(const std::vector<std::string> &Inputs, const Machine &M, size_t Depth) {
  RankView V;
  V.RangeDepth = Depth;
  std::vector<Times> PerRow;
  for (const std::string &Path : Inputs) {
    std::string Text = readFile(Path);
    if (looksLikeNcuCsv(Text)) {
      V.Notes.push_back("'" + Path + "' is an Nsight Compute export: it has no rank and is not "
                        "in the rank view");
      continue;
    }
    json J = parseProfileJson(Path, Text);
    if (!J.is_object() || !J.contains("kernels") || !J["kernels"].is_array())
      continue; // loadInputs has already said what is wrong with it
    // A launcher (torchrun, mpirun's or a forking program's parent) that
    // used no GPU: a row of zeros would only skew the mean and imbalance.
    auto TrIt = J.find("transfers");
    auto EmptyOrAbsent = [&](const char *Key) {
      auto It = TrIt->find(Key);
      return It == TrIt->end() || It->empty();
    };
    bool NoTransfers = TrIt == J.end() || !TrIt->is_object() ||
                       (EmptyOrAbsent("records") && EmptyOrAbsent("by_kind"));
    if (J["kernels"].empty() && NoTransfers) {
      V.Notes.push_back("'" + Path + "' launched no kernels and made no copies (a launcher " +
                        "process): not a row");
      continue;
    }
    ProfileFields F(Path);
    ProcessDevices PD = devicesOf(J, F);
    bool First = true;
    for (int64_t Dev : PD.All) {
      RankRow Row;
      Row.Rank = rankOf(J);
      Row.Input = Path;
      Row.Pid = J.contains("pid") ? J["pid"].dump() : "?";
      Row.Device = Dev;
      Row.DeviceName = deviceName(J, Dev);
      Row.Sums.Range = Path;
      Times T;
      readRow(Row, T, J, PD, M, Depth);
      readP2P(Row, J, PD, First);
      First = false;
      V.Rows.push_back(std::move(Row));
      PerRow.push_back(std::move(T));
    }
  }
  // Rows by rank, then device; the times follow their rows.
  std::vector<size_t> Order(V.Rows.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    auto KA = rankKey(V.Rows[A].Rank), KB = rankKey(V.Rows[B].Rank);
    if (KA != KB)
      return KA < KB;
    if (V.Rows[A].Input != V.Rows[B].Input) // rank-less processes apart
      return V.Rows[A].Input < V.Rows[B].Input;
    return V.Rows[A].Device < V.Rows[B].Device;
  });
  std::vector<RankRow> Rows;
  std::vector<Times> Ts;
  for (size_t I : Order) {
    Rows.push_back(std::move(V.Rows[I]));
    Ts.push_back(std::move(PerRow[I]));
  }
  V.Rows = std::move(Rows);
  labelRows(V.Rows);
  for (const RankRow &R : V.Rows) {
    V.KernelNs += R.Sums.TimeNs;
    V.CommNs += R.Sums.CommTimeNs;
  }
  for (const RankRow &R : V.Rows)
    addRowPoint(V.ChartData, V.ChartPoints, V.KernelNs, R.Sums, R.Label);
  V.Kernels = imbalanceRows(Ts, false);
  V.Ranges = imbalanceRows(Ts, true);
  if (V.Ranges.size() == 1 && V.Ranges[0].Name.empty())
    V.Ranges.clear(); // no NVTX ranges at all
  addSummaryNotes(V);
  return V;
}

std::vector<std::string> inputsOfRank(const std::vector<std::string> &Inputs,
                                      const std::string &Rank) {
  std::vector<std::string> Out;
  std::set<std::string> Seen;
  size_t NoRank = 0;
  for (const std::string &Path : Inputs) {
    std::string Text = readFile(Path);
    if (looksLikeNcuCsv(Text)) {
      ++NoRank;
      continue;
    }
    json J = parseProfileJson(Path, Text);
    std::string R = J.is_object() ? rankOf(J) : "";
    if (R.empty())
      ++NoRank;
    else
      Seen.insert(R);
    if (R == Rank)
      Out.push_back(Path);
  }
  if (Out.empty()) {
    std::string Ranks;
    for (const std::string &R : Seen)
      Ranks += (Ranks.empty() ? "" : ", ") + R;
    throw UserError("--rank " + Rank + ": no input has that rank (ranks: " +
                    (Ranks.empty() ? std::string("none") : Ranks) + "; " +
                    std::to_string(NoRank) + " input(s) without a rank)");
  }
  return Out;
}

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
  if (Rows.empty() || V.Rows.size() < 2)
    return;
  bool PerRowColumns = V.Rows.size() <= 8;
  std::vector<std::string> Head = {What,    "total ms", "mean ms", "max ms", "slowest",
                                   "min ms", "fastest",  "max/mean"};
  if (PerRowColumns)
    for (const RankRow &R : V.Rows)
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
      for (double Ns : R.Ns)
        Cells.push_back(ms(Ns));
    Table.push_back(std::move(Cells));
  }
  OS << What << " imbalance across " << V.Rows.size() << " ranks/GPUs"
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
      PerRow.push_back({{"row", V.Rows[I].Label}, {"time_ns", R.Ns[I]}});
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
  double Mean = V.Rows.empty() ? 0 : V.KernelNs / double(V.Rows.size());
  std::vector<std::vector<std::string>> Table = {
      {"rank", "GPU", "launches", "kernel ms", "vs mean", "comm ms", "comm%", "GFLOP/s", "prec",
       "AI L1", "AI L2", "AI HBM", "%roof", "P2P copies", "limiting roof"}};
  for (const RankRow &R : V.Rows) {
    const RangeRow &S = R.Sums;
    std::string Gpu = R.Device < 0 ? "?" : std::to_string(R.Device);
    if (!R.DeviceName.empty())
      Gpu += " " + R.DeviceName;
    Table.push_back(
        {R.Label, Gpu, std::to_string(S.Launches), ms(S.TimeNs),
         Mean > 0 ? (S.TimeNs >= Mean ? "+" : "") + fmtFixed(100 * (S.TimeNs / Mean - 1), 1) + "%"
                  : "-",
         ms(S.CommTimeNs), S.TimeNs > 0 ? fmtFixed(100 * S.CommTimeNs / S.TimeNs, 1) : "-",
         S.GFlops > 0 ? fmtNum(S.GFlops) : "-", S.Precision.empty() ? "-" : S.Precision,
         aiCell(S, "L1"), aiCell(S, "L2"), aiCell(S, "HBM"),
         S.Bound.empty() ? "-" : fmtFixed(100 * S.Fraction, 1),
         R.P2PCopies ? std::to_string(R.P2PCopies) + " copies, " +
                           fmtSi(R.P2PBytes, SiStyle::Counts) + "B in all, " + ms(R.P2PNs) + " ms"
                     : "-",
         S.Bound.empty() ? "-" : S.Bound});
  }
  printTextTable(OS, Table, {0, 1, 8});
  OS << "vs mean: kernel time against the mean of the rows; comm: communication kernels (NCCL, "
        "...), no FLOPs; the point (GFLOP/s, AI, roof) is the row's other kernels summed\n";
  printImbalance(OS, V, V.Kernels, "kernel", Top, NameWidth);
  printImbalance(OS, V, V.Ranges, "range", Top, NameWidth);
  for (const std::string &N : V.Notes)
    OS << "note: " << N << "\n";
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
                {"communication_by_kind", R.CommByLabel},
                {"p2p", {{"count", R.P2PCopies}, {"bytes", R.P2PBytes}, {"duration_ns", R.P2PNs}}}});
    Rows.push_back(std::move(Row));
  }
  return {{"range_depth", V.RangeDepth},
          {"kernel_time_ns", V.KernelNs},
          {"communication_time_ns", V.CommNs},
          {"rows", Rows},
          {"kernels", imbalanceJson(V, V.Kernels)},
          {"ranges", imbalanceJson(V, V.Ranges)},
          {"notes", V.Notes}};
}

} // namespace report
} // namespace hroof
