//===- NcuImport.cpp - Nsight Compute raw CSV export as a counter source -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `ncu --csv --page raw [--metrics ...|--set roofline] ./app > ncu.csv`:
// lines of "==PROF==" chatter, then a header row ("ID","Process ID",
// "Process Name","Host Name","Kernel Name",...,"Device","CC", metrics...),
// a units row (first field empty) and one row per profiled launch. Values
// may carry thousands separators ("26,176") and scaled units ("Kbyte",
// "usecond", "Gbyte/second") unless --print-units base was given.
//
// Each row becomes one launch of its kernel with hardware counters under the
// keys of the profile's "counters" object, by the same metric table as the
// runtime (common/include/hroof/CounterMetrics.h): flops.<prec>,
// tensor_flops.<type>, bytes.<space>.<dir>, l1_bytes, l2_bytes, dram_bytes,
// and time_ns. Per-second and per-cycle forms (what `--set roofline` collects)
// are turned into totals with the launch's duration and cycles.
//===----------------------------------------------------------------------===//
#include "../Toolchain.h"
#include "ReportData.h"
#include "hroof/CounterMetrics.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace hroof {
namespace report {

namespace {

std::vector<std::vector<std::string>> parseCsv(const std::string &Text, size_t Start) {
  std::vector<std::vector<std::string>> Rows;
  std::vector<std::string> Row;
  std::string Field;
  bool Quoted = false, Any = false;
  for (size_t I = Start; I < Text.size(); ++I) {
    char C = Text[I];
    if (Quoted) {
      if (C == '"') {
        if (I + 1 < Text.size() && Text[I + 1] == '"')
          Field += '"', ++I;
        else
          Quoted = false;
      } else {
        Field += C;
      }
    } else if (C == '"') {
      Quoted = Any = true;
    } else if (C == ',') {
      Row.push_back(Field), Field.clear(), Any = true;
    } else if (C == '\n' || C == '\r') {
      if (Any || !Field.empty()) {
        Row.push_back(Field);
        Rows.push_back(Row);
      }
      Row.clear(), Field.clear(), Any = false;
    } else {
      Field += C, Any = true;
    }
  }
  if (Any || !Field.empty()) {
    Row.push_back(Field);
    Rows.push_back(Row);
  }
  return Rows;
}

size_t headerStart(const std::string &Text) {
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    std::string Line = Text.substr(Pos, End == std::string::npos ? std::string::npos : End - Pos);
    if (Line.rfind("\"ID\",", 0) == 0 && Line.find("\"Kernel Name\"") != std::string::npos)
      return Pos;
    if (End == std::string::npos)
      break;
    Pos = End + 1;
  }
  return std::string::npos;
}

/// Multiplier of one unit word to its base unit (byte, second, count).
double unitScale(std::string U) {
  if (U.empty())
    return 1;
  for (const auto &[Word, S] : {std::pair{"nsecond", 1e-9},
                                {"usecond", 1e-6},
                                {"msecond", 1e-3},
                                {"second", 1.0},
                                {"ns", 1e-9},
                                {"us", 1e-6},
                                {"ms", 1e-3}})
    if (U == Word)
      return S;
  double S = 1;
  struct P {
    const char *Pre;
    double S;
  };
  for (P Pr : {P{"Ki", 1024.0}, P{"Mi", 1048576.0}, P{"Gi", 1073741824.0}, P{"Ti", 1099511627776.0},
               P{"K", 1e3}, P{"M", 1e6}, P{"G", 1e9}, P{"T", 1e12}, P{"P", 1e15}}) {
    size_t N = std::strlen(Pr.Pre);
    if (U.size() > N && U.compare(0, N, Pr.Pre) == 0 && std::islower((unsigned char)U[N])) {
      S = Pr.S;
      U = U.substr(N);
      break;
    }
  }
  return S;
}

/// Value of a cell with its unit ("byte/second", "Gbyte", "cycle/nsecond").
std::optional<double> cellValue(const std::string &Cell, const std::string &Unit) {
  std::string S;
  for (char C : Cell)
    if (C != ',' && C != ' ')
      S += C;
  if (S.empty() || S == "n/a" || S == "N/A")
    return std::nullopt;
  char *End = nullptr;
  double V = std::strtod(S.c_str(), &End);
  if (End == S.c_str() || *End)
    return std::nullopt;
  if (Unit == "%" || Unit.empty())
    return V;
  size_t Slash = Unit.find('/');
  if (Slash == std::string::npos)
    return V * unitScale(Unit);
  return V * unitScale(Unit.substr(0, Slash)) / unitScale(Unit.substr(Slash + 1));
}

struct Row {
  std::map<std::string, double> V;
  bool has(const std::string &K) const { return V.count(K) != 0; }
  double at(const std::string &K) const { return V.at(K); }
};

/// Total of a metric over the launch: NAME (a .sum), else NAME.per_second x
/// duration, else NAME.per_cycle_elapsed x the unit's elapsed cycles.
std::optional<double> total(const Row &R, const std::vector<std::string> &Names, double Seconds) {
  for (const std::string &N : Names) {
    if (R.has(N))
      return R.at(N);
    if (Seconds > 0 && R.has(N + ".per_second"))
      return R.at(N + ".per_second") * Seconds;
    if (R.has(N + ".per_cycle_elapsed")) {
      std::string Unit = N.substr(0, N.find("__"));
      for (const std::string &Cyc : {Unit + "__cycles_elapsed.avg", Unit + "__cycles_elapsed.max"})
        if (R.has(Cyc))
          return R.at(N + ".per_cycle_elapsed") * R.at(Cyc);
      if (Seconds > 0 && R.has(Unit + "__cycles_elapsed.avg.per_second"))
        return R.at(N + ".per_cycle_elapsed") * R.at(Unit + "__cycles_elapsed.avg.per_second") *
               Seconds;
    }
  }
  return std::nullopt;
}

/// The hardware counters of one row: the shared metric table
/// (hroof/CounterMetrics.h) over the row's totals, and the duration.
Flat rowCounters(const Row &R) {
  double Seconds = 0;
  if (R.has("gpu__time_duration.sum"))
    Seconds = R.at("gpu__time_duration.sum");
  // ncu names SASS instruction counts per SM or per SM sub-partition.
  const std::string SmInst = "sm__sass_thread_inst_executed_op_";
  Flat C = metrics::countsFromMetrics([&](const std::string &M) {
    if (M.rfind(SmInst, 0) == 0)
      return total(R, {M, "smsp" + M.substr(2)}, Seconds);
    return total(R, {M}, Seconds);
  });
  if (R.has("gpu__time_duration.sum"))
    C["time_ns"] = Seconds * 1e9;
  return C;
}

/// The profile kernel an ncu row is about, or null: ncu names a kernel by
/// its demangled signature (default), its mangled name
/// (--print-kernel-base mangled) or its bare function name
/// (--print-kernel-base function); the profile has the first two. A bare
/// name that several profile kernels share (overloads, template instances)
/// attaches to none of them: \p Ambiguous lists them.
KernelData *profileKernelFor(Dataset &D, const std::string &RowName, std::string &Ambiguous) {
  std::string Sig = signatureKey(RowName);
  bool Bare = RowName.find('(') == std::string::npos;
  std::vector<KernelData *> ByBase;
  for (KernelData &K : D.Kernels) {
    if (!K.FromProfile)
      continue;
    if (signatureKey(K.Name) == Sig || (!K.Mangled.empty() && K.Mangled == RowName))
      return &K;
    if (Bare && baseName(K.Name) == RowName)
      ByBase.push_back(&K);
  }
  if (ByBase.size() == 1)
    return ByBase[0];
  for (const KernelData *K : ByBase)
    Ambiguous += (Ambiguous.empty() ? "" : "; ") + K->Name;
  return nullptr;
}

} // namespace

bool looksLikeNcuCsv(const std::string &Text) { return headerStart(Text) != std::string::npos; }

NcuExport readNcuCsv(const std::string &Path, const std::string &Text) {
  size_t Start = headerStart(Text);
  if (Start == std::string::npos)
    throw UserError("'" + Path + "': no ncu CSV header (\"ID\",...,\"Kernel Name\",...)");
  auto Rows = parseCsv(Text, Start);
  const auto &Head = Rows[0];
  size_t First = 1;
  std::vector<std::string> Units(Head.size());
  if (Rows.size() > 1 && !Rows[1].empty() && Rows[1][0].empty()) {
    Units = Rows[1];
    First = 2;
  }
  auto Col = [&](const char *Name) -> int {
    for (size_t I = 0; I < Head.size(); ++I)
      if (Head[I] == Name)
        return int(I);
    return -1;
  };
  int KCol = Col("Kernel Name"), DevName = Col("device__attribute_display_name");
  if (KCol < 0) // the header was recognised by its first cells only
    throw UserError("'" + Path + "': the ncu CSV header has no \"Kernel Name\" column");
  if (Rows.size() <= First)
    throw UserError("'" + Path + "': the ncu export has no kernel rows (empty profile)");
  NcuExport E;
  for (size_t RI = First; RI < Rows.size(); ++RI) {
    const auto &Cells = Rows[RI];
    if (Cells.size() != Head.size()) {
      ++E.Rejected;
      continue;
    }
    NcuRow Out;
    Out.Kernel = Cells[KCol];
    if (DevName >= 0)
      Out.Device = Cells[DevName];
    Row R;
    for (size_t I = 0; I < Head.size(); ++I)
      if (Head[I].find("__") != std::string::npos)
        if (auto V = cellValue(Cells[I], I < Units.size() ? Units[I] : ""))
          R.V[Head[I]] = *V;
    Out.Counters = rowCounters(R);
    Out.Metrics = std::move(R.V);
    E.Rows.push_back(std::move(Out));
  }
  return E;
}

void addNcuCsv(Dataset &D, const std::string &Path, const std::string &Text) {
  NcuExport E = readNcuCsv(Path, Text);
  size_t Used = 0, Rejected = E.Rejected;
  std::set<std::string> Matched;
  bool AnyMetric = false;
  for (const NcuRow &Row : E.Rows) {
    const Flat &C = Row.Counters;
    if (C.size() > (C.count("time_ns") ? 1u : 0u))
      AnyMetric = true;
    // A kernel of a profile given beside the export gets these counters.
    std::string Ambiguous;
    KernelData *Match = profileKernelFor(D, Row.Kernel, Ambiguous);
    if (!Ambiguous.empty() && Matched.insert(Row.Kernel).second)
      D.Notes.push_back("'" + Path + "': ncu rows of '" + Row.Kernel +
                        "' stay apart: several profile kernels have that name (" + Ambiguous + ")");
    if (Match && !Matched.count(Match->Name)) {
      Matched.insert(Match->Name);
      D.Notes.push_back("'" + Path + "': ncu rows of '" + Row.Kernel +
                        "' add hardware counters to the profile's kernel '" + Match->Name + "'");
    }
    KernelData &K = Match ? *Match : kernelFor(D, Row.Kernel, "");
    K.Inputs.insert(Path);
    if (!Match)
      ++K.Launches;
    ++K.Counters.Launches;
    addInto(K.Counters.Counts, C);
    if (!Row.Device.empty()) {
      K.Devices.insert(Row.Device);
      D.Devices.insert(Row.Device);
    }
    ++Used;
  }
  if (!Used)
    throw UserError("'" + Path + "': no complete kernel row in the ncu export (" +
                    std::to_string(Rejected) +
                    " rows with the wrong number of fields: truncated?)");
  if (!AnyMetric)
    throw UserError("'" + Path +
                    "': the ncu export has none of the roofline metrics "
                    "(profile with --set roofline, or the metrics in docs/report.md)");
  if (Rejected)
    D.Notes.push_back("'" + Path + "': skipped " + std::to_string(Rejected) +
                      " ncu rows with the wrong number of fields");
  D.Notes.push_back("'" + Path + "': " + std::to_string(Used) +
                    " kernel launches imported from Nsight Compute (counters; "
                    "time is ncu's replayed gpu__time_duration)");
}

} // namespace report
} // namespace hroof
