//===- ReportData.cpp - machine files, roofline quantities ---------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ReportData.h"

#include "Ceilings.h"
#include "Insights.h"
#include "hroof/Communication.h"

#include "../Settings.h"
#include "../Toolchain.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace hroof {
namespace report {

// The machine file's (docs/ert.md) keys spelled like profile keys.
static const char *const MachineDevice = "device", *const MachineName = "name";

static bool has(const Flat &F, const std::string &Key) { return F.count(Key) != 0; }

static bool hasPrefix(const Flat &F, const std::string &Prefix) {
  auto It = F.lower_bound(Prefix);
  return It != F.end() && It->first.compare(0, Prefix.size(), Prefix) == 0;
}

//===--- Machine ------------------------------------------------------------===//

std::string machinesDir() {
  std::string Dir = setting(Setting::MachinesDir);
  return Dir.empty() ? installPrefix() + "/share/hroof/machines" : Dir;
}

static std::string normName(const std::string &S) {
  std::string R;
  for (char C : S)
    if (C != ' ' && C != '\t' && C != '-' && C != '_')
      R += char(std::tolower((unsigned char)C));
  return R;
}

bool sameDevice(const std::string &A, const std::string &B) { return normName(A) == normName(B); }

std::string Machine::describe() const {
  return Name + (FromCounterPeaks ? " (peaks from the counters, not measured)" : " (" + Path + ")");
}

Machine loadMachine(const std::string &Path) {
  std::string Text = readFile(Path);
  nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
  if (J.is_discarded())
    throw UserError("machine file '" + Path + "' is not valid JSON");
  if (!J.is_object() || !J.contains("schema") || !J["schema"].is_string() ||
      J["schema"].get<std::string>() != "hroof-machine/1")
    throw UserError("'" + Path +
                    "' is not a machine file (expected \"schema\": "
                    "\"hroof-machine/1\", written by hroof-ert)");
  Machine M;
  M.Path = Path;
  try {
    if (J.contains(MachineDevice) && J[MachineDevice].is_object())
      M.Name = J[MachineDevice].value(MachineName, std::string());
    const auto &C = J.at("ceilings");
    for (const char *Group : {"flops", "bandwidth"}) {
      if (!C.contains(Group))
        continue;
      for (auto It = C[Group].begin(); It != C[Group].end(); ++It) {
        double V = It->is_object()   ? It->value("value", 0.0)
                   : It->is_number() ? It->get<double>()
                                     : 0.0;
        if (V > 0)
          (std::string(Group) == "flops" ? M.Flops : M.Bandwidth)[It.key()] = V;
      }
    }
  } catch (const nlohmann::json::exception &E) {
    throw UserError("machine file '" + Path + "' is malformed: " + E.what());
  }
  if (M.Flops.empty() || M.Bandwidth.empty())
    throw UserError("machine file '" + Path + "' has no FLOP or bandwidth ceilings");
  return M;
}

std::optional<std::string> findMachineFor(const std::string &Device) {
  std::string Dir = machinesDir();
  DIR *Dp = opendir(Dir.c_str());
  if (!Dp)
    return std::nullopt;
  std::vector<std::string> Files;
  while (dirent *E = readdir(Dp)) {
    std::string N = E->d_name;
    if (N.size() > 5 && N.substr(N.size() - 5) == ".json")
      Files.push_back(Dir + "/" + N);
  }
  closedir(Dp);
  std::sort(Files.begin(), Files.end());
  for (const std::string &F : Files) {
    std::ifstream In(F);
    nlohmann::json J = nlohmann::json::parse(In, nullptr, false);
    if (J.is_object() && J.contains(MachineDevice) && J[MachineDevice].is_object() &&
        J[MachineDevice].contains(MachineName) && J[MachineDevice][MachineName].is_string() &&
        sameDevice(J[MachineDevice][MachineName].get<std::string>(), Device))
      return F;
  }
  return std::nullopt;
}

//===--- Analysis -----------------------------------------------------------===//

std::string signatureKey(const std::string &Name) {
  std::string S = Name.rfind("void ", 0) == 0 ? Name.substr(5) : Name;
  // Drop the word "const" and all blanks.
  std::string R;
  for (size_t I = 0; I < S.size();) {
    bool Word = S.compare(I, 5, "const") == 0 &&
                (I == 0 || !std::isalnum((unsigned char)S[I - 1]) && S[I - 1] != '_') &&
                (I + 5 >= S.size() || (!std::isalnum((unsigned char)S[I + 5]) && S[I + 5] != '_'));
    if (Word) {
      I += 5;
      continue;
    }
    if (S[I] != ' ')
      R += S[I];
    ++I;
  }
  return R;
}

std::string shortName(const std::string &Name) {
  // Drop the parameter list (the last top-level "(...)") and a leading "void ".
  std::string S = Name;
  if (S.rfind("void ", 0) == 0)
    S = S.substr(5);
  int Depth = 0;
  for (size_t I = S.size(); I-- > 0;) {
    if (S[I] == ')')
      ++Depth;
    else if (S[I] == '(' && --Depth == 0) {
      if (I > 0)
        S = S.substr(0, I);
      break;
    }
  }
  return S;
}

std::string compactName(const std::string &Name) {
  std::string S = shortName(Name), R;
  // Drop every "identifier::" (a qualifier), keeping what follows.
  size_t WordStart = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == ':' && I + 1 < S.size() && S[I + 1] == ':') {
      R.resize(R.size() - (I - WordStart));
      WordStart = ++I + 1;
      continue;
    }
    if (!std::isalnum((unsigned char)C) && C != '_')
      WordStart = I + 1;
    R += C;
  }
  return R;
}

std::string baseName(const std::string &Name) {
  std::string S = shortName(Name);
  // Trailing template arguments: from the '<' that closes the last '>'.
  if (!S.empty() && S.back() == '>') {
    int Depth = 0;
    for (size_t I = S.size(); I-- > 0;) {
      if (S[I] == '>')
        ++Depth;
      else if (S[I] == '<' && --Depth == 0) {
        S = S.substr(0, I);
        break;
      }
    }
  }
  size_t Colon = S.rfind("::");
  return Colon == std::string::npos ? S : S.substr(Colon + 2);
}

namespace {

/// FLOPs per precision key (f32, ..., tensor_f16, ...) of a count set.
std::map<std::string, double> flopsByPrecision(const Flat &F, double Per) {
  std::map<std::string, double> R;
  for (const auto &[K, V] : F) {
    if (!V)
      continue;
    if (K.rfind("flops.", 0) == 0)
      R[K.substr(6)] += V / Per;
    else if (K.rfind("tensor_flops.", 0) == 0)
      R["tensor_" + K.substr(13)] += V / Per;
  }
  return R;
}

const char *levelCeiling(const std::string &Level) {
  if (Level == "L1")
    return "l1";
  if (Level == "L2")
    return "l2";
  return "hbm";
}

} // namespace

namespace {

/// The counters of an instrumented kernel also see the instrumentation's own
/// code: ptxas zeroes its accumulators with HFMA2.MMA, which the SASS counters
/// (and Nsight Compute) call half-precision FMAs. Where the counters stay the
/// FLOP source (a launch limit gave them to fewer launches), a precision they
/// report and the kernel's exact dynamic counts do not have is left out, and
/// a note says so: it is not the kernel's work.
void dropCounterOnlyPrecisions(const KernelData &K, KernelAnalysis &A) {
  auto Dyn = flopsByPrecision(K.Dynamic.Counts, double(K.Dynamic.Launches));
  for (auto It = A.FlopsByPrecision.begin(); It != A.FlopsByPrecision.end();) {
    auto D = Dyn.find(It->first);
    if (It->second > 0 && (D == Dyn.end() || D->second == 0)) {
      A.Missing.push_back("the counters' " + fmtNum(It->second) + " " + It->first +
                          " FLOPs per launch are left out: the kernel's own code has none "
                          "(its dynamic counts), and the counters of an instrumented build "
                          "also count the instrumentation's code (ptxas's HFMA2.MMA "
                          "register moves)");
      It = A.FlopsByPrecision.erase(It);
    } else {
      ++It;
    }
  }
}

/// FLOPs per launch by precision and time per launch, each from the best
/// source that has them (dynamic, counters, static; activity, counters).
void analyzeFlopsAndTime(const KernelData &K, KernelAnalysis &A) {
  const Flat &C = K.Counters.Counts;
  bool CtrFlops = K.Counters.present() && (hasPrefix(C, "flops.") || hasPrefix(C, "tensor_flops."));
  bool CtrSubset = CtrFlops && K.Counters.Launches < K.Dynamic.Launches;
  // FLOPs: an instrumented kernel's dynamic counts first (its own exact work;
  // its counters also count the instrumentation's code), unless a launch limit
  // gave counters to fewer launches: then the counters, so that FLOPs, bytes
  // and time come from the same launches (analyzeRate).
  if (K.Dynamic.present() && !CtrSubset) {
    A.FlopSource = "dynamic";
    A.FlopsByPrecision = flopsByPrecision(K.Dynamic.Counts, double(K.Dynamic.Launches));
  } else if (CtrFlops) {
    A.FlopSource = "counters";
    A.FlopsByPrecision = flopsByPrecision(C, double(K.Counters.Launches));
    if (K.Dynamic.present())
      dropCounterOnlyPrecisions(K, A);
  } else if (K.Dynamic.present()) {
    A.FlopSource = "dynamic";
    A.FlopsByPrecision = flopsByPrecision(K.Dynamic.Counts, double(K.Dynamic.Launches));
  } else if (K.Static.present()) {
    A.FlopSource = "static";
    A.FlopsByPrecision = flopsByPrecision(K.Static.Counts, double(K.Static.Launches));
  } else {
    A.Missing.push_back("no FLOP counts (uninstrumented and no hardware counters)");
  }
  for (const auto &[P, V] : A.FlopsByPrecision)
    A.FlopsPerLaunch += V;
  // Time.
  if (K.TimedLaunches && K.DurationNs > 0) {
    A.TimeSource = "activity";
    A.TimeNsPerLaunch = K.DurationNs / double(K.TimedLaunches);
  } else if (K.Counters.present() && get(C, "time_ns") > 0) {
    A.TimeSource = "counters";
    A.TimeNsPerLaunch = get(C, "time_ns") / double(K.Counters.Launches);
  } else {
    A.Missing.push_back("no duration (no activity record or counter time)");
  }
}

/// The rate's time: rates pair counts and time of the same launches. With a
/// launch limit the counters cover only the first launches of a kernel,
/// whose own time (the counters' gpu__time_duration) goes with them.
void analyzeRate(const KernelData &K, KernelAnalysis &A) {
  const Flat &C = K.Counters.Counts;
  A.RateTimeNsPerLaunch = A.TimeNsPerLaunch;
  if (K.Counters.present() && get(C, "time_ns") > 0 && K.Counters.Launches < K.TimedLaunches &&
      (A.FlopSource == "counters" || !K.Dynamic.present()))
    A.RateTimeNsPerLaunch = get(C, "time_ns") / double(K.Counters.Launches);
  if (A.RateTimeNsPerLaunch > 0)
    A.GFlops = A.FlopsPerLaunch / A.RateTimeNsPerLaunch; // FLOP/ns == GFLOP/s
}

/// Bytes per launch at each memory level: the counters' cache levels, else
/// the requested global bytes; and the AI at each.
void analyzeBytes(const KernelData &K, KernelAnalysis &A) {
  const Flat &C = K.Counters.Counts;
  if (K.Counters.present() && (has(C, "l1_bytes") || has(C, "l2_bytes") || has(C, "dram_bytes"))) {
    A.BytesSource = "counters";
    double N = double(K.Counters.Launches);
    for (const auto &[Key, Level] :
         {std::pair{"l1_bytes", "L1"}, std::pair{"l2_bytes", "L2"}, std::pair{"dram_bytes", "HBM"}})
      if (has(C, Key))
        A.Levels.push_back({Level, levelCeiling(Level), get(C, Key) / N, 0});
  } else {
    const SourceCounts *S = K.Dynamic.present()                                       ? &K.Dynamic
                            : (K.Counters.present() && hasPrefix(C, "bytes.global.")) ? &K.Counters
                            : K.Static.present()                                      ? &K.Static
                                                                                      : nullptr;
    if (S) {
      A.BytesSource = S == &K.Dynamic ? "dynamic" : S == &K.Counters ? "counters" : "static";
      A.Levels.push_back({"global (requested)", "hbm",
                          sumPrefix(S->Counts, "bytes.global.") / double(S->Launches), 0});
    } else {
      A.Missing.push_back("no byte counts");
    }
  }
  for (LevelPoint &L : A.Levels)
    L.AI = L.Bytes > 0 ? A.FlopsPerLaunch / L.Bytes : 0;
}

/// Dominant precision and the compute ceiling of the mix (the time the mix
/// takes at each precision's ceiling, summed: a harmonic combination).
void analyzePrecision(const Machine *M, KernelAnalysis &A) {
  double Best = 0, Secs = 0;
  bool AllKnown = true;
  for (const auto &[P, V] : A.FlopsByPrecision) {
    if (V > Best)
      Best = V, A.Precision = P;
    if (M) {
      auto It = M->Flops.find(P);
      if (It == M->Flops.end()) {
        AllKnown = false;
        A.Missing.push_back(std::string(M->FromCounterPeaks ? "the counters' peaks have"
                                                            : "the machine file has") +
                            " no '" + P + "' ceiling");
      } else {
        Secs += V / It->second;
      }
    }
  }
  if (Best > 0 && Best < 0.9 * A.FlopsPerLaunch)
    A.Precision += "+";
  if (M && Secs > 0 && AllKnown)
    A.PeakGFlops = A.FlopsPerLaunch / Secs;
}

/// The governing ceiling: the lowest attainable performance over the
/// compute ceiling and every memory level (hierarchical roofline); without
/// FLOPs, the busiest memory level's share of its bandwidth.
void analyzeBound(const Machine *M, KernelAnalysis &A) {
  if (M && A.FlopsPerLaunch > 0 && A.PeakGFlops > 0) {
    A.GoverningGFlops = A.PeakGFlops;
    A.Bound = "compute (" + A.Precision + ")";
    for (LevelPoint &L : A.Levels) {
      if (L.Bytes <= 0)
        continue;
      if (L.Level == "global (requested)") {
        // Requested bytes: every one passes L1, but how many reach L2 or
        // HBM is unknown. Take the slowest level (HBM, then L2, then L1)
        // whose roof the kernel does not exceed: faster than the HBM roof
        // means the caches served part of the bytes.
        for (const char *Lv : {"hbm", "l2", "l1"}) {
          auto It = M->Bandwidth.find(Lv);
          if (It == M->Bandwidth.end())
            continue;
          L.Ceiling = Lv;
          if (A.GFlops <= 1.02 * std::min(A.PeakGFlops, L.AI * It->second))
            break;
        }
      }
      auto It = M->Bandwidth.find(L.Ceiling);
      if (It == M->Bandwidth.end())
        continue;
      double Att = L.AI * It->second;
      if (Att < A.GoverningGFlops) {
        A.GoverningGFlops = Att;
        A.Bound = L.Level == "global (requested)" ? std::string(L.Ceiling == "hbm"  ? "HBM"
                                                                : L.Ceiling == "l2" ? "L2"
                                                                                    : "L1") +
                                                        " bandwidth (requested bytes)"
                                                  : L.Level + " bandwidth";
      }
    }
    if (A.GFlops > 0)
      A.PctOfCeiling = 100.0 * A.GFlops / A.GoverningGFlops;
  } else if (M && A.FlopsPerLaunch == 0 && A.RateTimeNsPerLaunch > 0) {
    // No FLOPs: judge by the busiest memory level's share of its bandwidth.
    for (const LevelPoint &L : A.Levels) {
      auto It = M->Bandwidth.find(L.Ceiling);
      if (It == M->Bandwidth.end() || L.Bytes <= 0)
        continue;
      double Pct = 100.0 * (L.Bytes / A.RateTimeNsPerLaunch) / It->second;
      if (Pct > A.PctOfCeiling) {
        A.PctOfCeiling = Pct;
        A.Bound =
            (L.Level == "global (requested)" ? std::string("HBM (requested bytes)") : L.Level) +
            " bandwidth, no FLOPs";
      }
    }
  }
}

} // namespace

std::string estimatedCountersNote(const KernelData &K) {
  return std::to_string(K.Counters.Estimated) + " of " + std::to_string(K.Counters.Launches) +
         " launches with counters carry counters_estimated (counters, or some counter passes, "
         "from launches of the same launch shape whose parameter bytes differ, or of a "
         "duration outside the tolerance: see the records)";
}

std::string hierarchyFlag(const std::vector<LevelPoint> &Levels) {
  double L1 = 0, Hbm = 0;
  for (const LevelPoint &L : Levels) {
    if (L.Level == "L1")
      L1 = L.Bytes;
    if (L.Level == "HBM")
      Hbm = L.Bytes;
  }
  if (L1 <= 0 || Hbm <= 0)
    return "";
  // 5% slack: counters of one launch differ by a few sectors between levels.
  if (L1 * 1.05 < Hbm)
    return "inverted: L1 moved fewer bytes than HBM (L1 AI above HBM AI)";
  if (L1 > HierarchySpreadLimit * Hbm)
    return "spread: L1 moved over " + fmtNum(HierarchySpreadLimit) +
           "x the HBM bytes (L1 AI far below HBM AI)";
  return "";
}

namespace {

/// Requested global bytes per launch and the AI over them.
void analyzeRequested(const KernelData &K, KernelAnalysis &A) {
  const SourceCounts *S = K.Dynamic.present()    ? &K.Dynamic
                          : K.Counters.present() ? &K.Counters
                                                 : nullptr;
  if (!S)
    return;
  A.BytesRequested = sumPrefix(S->Counts, "bytes.global.") / double(S->Launches);
  if (A.BytesRequested > 0 && A.FlopsPerLaunch > 0)
    A.AIRequested = A.FlopsPerLaunch / A.BytesRequested;
}

/// A communication kernel keeps its time and bytes; its FLOPs (the adds of
/// a reduction, if counted) are left out so that no roofline point or FLOP
/// total includes them. Runs before analyzePrecision and analyzeBound, which
/// then judge it by its busiest memory level as any kernel without FLOPs.
void markCommunication(KernelAnalysis &A) {
  CommunicationKernel C = communicationKernel(A.K->Name);
  if (!C)
    C = communicationKernel(A.K->Mangled);
  if (!C)
    return;
  A.Communication = communicationLabel(C);
  A.FlopsPerLaunch = A.GFlops = 0;
  A.FlopsByPrecision.clear();
  for (LevelPoint &L : A.Levels)
    L.AI = 0;
  A.Missing.erase(std::remove_if(A.Missing.begin(), A.Missing.end(),
                                 [](const std::string &M) {
                                   // no counters by design (runtime: no replay)
                                   return M.rfind("no FLOP counts", 0) == 0 ||
                                          M.rfind("no byte counts", 0) == 0;
                                 }),
                  A.Missing.end());
}

/// Ids K1..Kn by decreasing total time, ties by name, so that the same
/// inputs always give the same ids whatever --sort says.
void assignIds(std::vector<KernelAnalysis> &As) {
  std::vector<KernelAnalysis *> Order;
  for (KernelAnalysis &A : As)
    Order.push_back(&A);
  std::stable_sort(Order.begin(), Order.end(),
                   [](const KernelAnalysis *A, const KernelAnalysis *B) {
                     if (A->TotalTimeNs != B->TotalTimeNs)
                       return A->TotalTimeNs > B->TotalTimeNs;
                     return A->K->Name < B->K->Name;
                   });
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I]->Id = "K" + std::to_string(I + 1);
}

} // namespace

std::vector<KernelAnalysis> analyze(const Dataset &D, const Machine *M) {
  std::vector<KernelAnalysis> Out;
  double SumTime = 0;
  for (const KernelData &K : D.Kernels) {
    KernelAnalysis A;
    A.K = &K;
    analyzeFlopsAndTime(K, A);
    A.TotalTimeNs = A.TimeNsPerLaunch * double(std::max<uint64_t>(K.Launches, 1));
    SumTime += A.TotalTimeNs;
    analyzeRate(K, A);
    analyzeBytes(K, A);
    markCommunication(A);
    analyzePrecision(M, A);
    analyzeBound(M, A);
    if (!A.Communication.empty()) // busiest level's share kept, the label replaced
      A.Bound = "communication (" + A.Communication + ")";
    analyzeRequested(K, A);
    A.HierarchyFlag = hierarchyFlag(A.Levels);
    if (A.Communication.empty())
      A.Insights = insightOf(A.FlopsByPrecision, levelBytes(A.Levels), M);
    Out.push_back(std::move(A));
  }
  for (KernelAnalysis &A : Out)
    A.TimeShare = SumTime > 0 ? 100.0 * A.TotalTimeNs / SumTime : 0;
  assignIds(Out);
  return Out;
}

} // namespace report
} // namespace hroof
