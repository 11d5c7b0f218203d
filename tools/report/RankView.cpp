//===- RankView.cpp - `hroof report --by rank[:DEPTH]` --------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "RankView.h"
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

size_t parseByRank(const std::string &By) {
  if (By == "rank")
    return 0;
  if (By.rfind("rank:", 0) == 0 && By.size() > 5 && By.size() < 15 &&
      By.find_first_not_of("0123456789", 5) == std::string::npos)
    return size_t(std::stoul(By.substr(5)));
  throw UserError("--by must be range, range:DEPTH, rank or rank:DEPTH (not '" + By + "')");
}

ImbalanceRow imbalance(std::string Name, std::vector<double> Ns,
                       const std::vector<bool> *Compared) {
  ImbalanceRow R;
  R.Name = std::move(Name);
  R.Ns = std::move(Ns);
  size_t N = 0;
  for (size_t I = 0; I < R.Ns.size(); ++I) {
    if (Compared && !(*Compared)[I])
      continue;
    if (N++ == 0)
      R.Max = R.Min = R.Ns[I], R.Slowest = R.Fastest = I;
    R.Total += R.Ns[I];
    if (R.Ns[I] > R.Max)
      R.Max = R.Ns[I], R.Slowest = I;
    if (R.Ns[I] < R.Min)
      R.Min = R.Ns[I], R.Fastest = I;
  }
  if (!N)
    return R;
  R.Mean = R.Total / double(N);
  R.MaxOverMean = R.Mean > 0 ? R.Max / R.Mean : 0;
  return R;
}

namespace {

std::string ms(double Ns) { return fmtFixed(Ns / 1e6, 3); }

/// The devices of one profile: those its kernel aggregates name ("device",
/// "by_device"), else its one entry of "devices", else unknown (-1). A
/// launch whose device is unknown (-1: a failed launch of an older runtime)
/// belongs to the process's one known device when it has exactly one.
struct ProcessDevices {
  std::set<int64_t> All;
  int64_t Fallback = -1; ///< the one known device, for aggregates without a field
  int64_t resolve(int64_t Dev) const { return Dev < 0 ? Fallback : Dev; }
};

ProcessDevices devicesOf(const Profile &Pr) {
  std::set<int64_t> Named;
  for (const ProfileKernel &K : Pr.Kernels) {
    if (K.ByDevice)
      for (const KernelShare &S : *K.ByDevice)
        Named.insert(S.Device.value_or(-1));
    else
      Named.insert(K.Device.value_or(-1));
  }
  ProcessDevices P;
  std::set<int64_t> Known;
  for (int64_t D : Named)
    if (D >= 0)
      Known.insert(D);
  if (Known.empty() && Pr.Devices.size() == 1 && Pr.Devices[0].Ordinal)
    Known.insert(*Pr.Devices[0].Ordinal);
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
std::vector<ProfileKernel> kernelsOn(const std::vector<ProfileKernel> &Kernels, int64_t Dev,
                                     const ProcessDevices &PD) {
  std::vector<ProfileKernel> Out;
  for (const ProfileKernel &K : Kernels) {
    if (K.ByDevice) {
      for (const KernelShare &S : *K.ByDevice)
        if (S.Object && PD.resolve(S.Device.value_or(-1)) == Dev)
          Out.push_back(K.onDevice(S));
    } else if (PD.resolve(K.Device.value_or(-1)) == Dev) {
      Out.push_back(K);
    }
  }
  return Out;
}

std::vector<ProfileLaunch> launchesOn(const std::vector<ProfileLaunch> &Launches, int64_t Dev,
                                      const ProcessDevices &PD) {
  std::vector<ProfileLaunch> Out;
  for (const ProfileLaunch &L : Launches)
    if (PD.resolve(L.Device) == Dev)
      Out.push_back(L);
  return Out;
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

/// Reads one (process, device) of profile \p P into \p Row and \p T.
void readRow(RankRow &Row, Times &T, const Profile &P, const ProcessDevices &PD,
             const Machine &M, size_t Depth) {
  Dataset D;
  std::set<std::string> Devs = P.deviceNames();
  D.Devices = Devs;
  std::vector<ProfileKernel> Kernels = kernelsOn(P.Kernels, Row.Device, PD);
  std::vector<ProfileLaunch> Launches = launchesOn(P.Launches, Row.Device, PD);
  if (!Kernels.empty()) {
    addLaunches(D, Launches);
    addKernels(D, Row.Input, Devs, Kernels);
  }
  for (const KernelData &K : D.Kernels)
    Row.CounterLaunches += K.Counters.Launches;
  Row.Replay = P.Replay;
  // A process that communicates switches to application replay after its
  // header was written: its records and notes say so.
  for (const ProfileLaunch &L : Launches)
    if (L.ReplayGroups)
      Row.Replay = "application";
  for (const std::string &N : P.Notes)
    if (N.rfind("application replay", 0) == 0)
      Row.Replay = "application";
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
  Row.Timing = readStepTiming(P, PD.All.size() > 1 ? Row.Device : -1);
  for (const ProfileRange &E : P.Ranges) {
    Dataset RD;
    addKernels(RD, Row.Input, {}, kernelsOn(E.Kernels, Row.Device, PD));
    double Ns = 0;
    std::string Path = cutRangePath(E.Path, Depth);
    for (const KernelAnalysis &A : analyze(RD, &M)) {
      auto It = ByKey.find(A.K->Mangled.empty() ? A.K->Name : A.K->Mangled);
      Ns += A.TotalTimeNs > 0 || It == ByKey.end()
                ? A.TotalTimeNs
                : It->second->TimeNsPerLaunch * double(A.K->Launches);
      if (A.K->Counters.Launches)
        Row.ReplayedRanges.insert(Path);
    }
    T.Ranges[Path] += Ns;
  }
}

/// The process's peer-to-peer copies on the row of the device that issued
/// them (each copy record's "device"); copies past the record limit, known
/// only from the per-kind totals, go to the process's first row (\p First).
void readP2P(RankRow &Row, const Profile &P, const ProcessDevices &PD, bool First) {
  uint64_t AllCount = 0, Recorded = 0;
  double AllBytes = 0, AllNs = 0, RecBytes = 0, RecNs = 0;
  for (const TransferSum &K : P.TransferKinds)
    if (K.Kind == "PtoP") {
      AllCount += K.Count;
      AllBytes += K.Bytes;
      AllNs += K.DurationNs;
    }
  for (const TransferRecordData &R : P.TransferRecords) {
    if (R.Kind != "PtoP")
      continue;
    ++Recorded, RecBytes += R.Bytes, RecNs += R.DurationNs;
    if (PD.resolve(R.Device) == Row.Device)
      ++Row.P2PCopies, Row.P2PBytes += R.Bytes, Row.P2PNs += R.DurationNs;
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

std::vector<ImbalanceRow> imbalanceRows(const std::vector<Times> &PerRow,
                                        const std::vector<bool> &Compared, bool RangesNotKernels) {
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
    Out.push_back(imbalance(Name, std::move(Ns), &Compared));
    Out.back().Communication = Comm[Name];
  }
  std::stable_sort(Out.begin(), Out.end(), [](const ImbalanceRow &A, const ImbalanceRow &B) {
    return A.Total > B.Total;
  });
  return Out;
}

/// No kernels and no copies (a launcher's profile, or a rank's that never
/// reached the profiled range).
bool noTransfers(const Profile &P) {
  return !P.HasTransfers || (P.TransferRecords.empty() && P.TransferKinds.empty());
}

/// A profile that cannot be read at all: its rank and pid from the name the
/// runtime gives it (hroof-<pid>-rank<R>.json).
RankRow unreadableRow(const std::string &Path, const std::string &Why) {
  RankRow Row;
  Row.Input = Row.Sums.Range = Path;
  std::string Name = Path.substr(Path.find_last_of('/') + 1);
  size_t R = Name.rfind("-rank"), Dot = Name.rfind(".json");
  if (R != std::string::npos && Dot != std::string::npos && Dot > R + 5)
    Row.Rank = Name.substr(R + 5, Dot - R - 5);
  size_t P = Name.find("hroof-");
  size_t PidEnd = P == std::string::npos ? P : Name.find_first_not_of("0123456789", P + 6);
  Row.Pid = P == std::string::npos || PidEnd == P + 6 ? "?" : Name.substr(P + 6, PidEnd - P - 6);
  Row.Status = "unreadable";
  Row.StatusWhy = Why;
  Row.Compared = false;
  return Row;
}

/// The processes without launches: a rank that no row has (it never reached
/// the profiled range) becomes a row, named; a launcher a note.
void addIdleRows(RankView &V, std::vector<Times> &PerRow, const std::vector<const Profile *> &Idle) {
  std::set<std::string> Ranks;
  for (const RankRow &R : V.Rows)
    Ranks.insert(R.Rank);
  for (const Profile *P : Idle) {
    const std::string &Path = P->Path;
    if (P->Rank.empty() || Ranks.count(P->Rank)) {
      V.Notes.push_back("'" + Path + "' launched no kernels and made no copies (a launcher " +
                        "process): not a row");
      continue;
    }
    RankRow Row;
    Row.Rank = P->Rank;
    Row.Input = Row.Sums.Range = Path;
    Row.Pid = P->Pid;
    if (P->Devices.size() == 1 && P->Devices[0].Ordinal)
      Row.Device = *P->Devices[0].Ordinal, Row.DeviceName = P->deviceName(Row.Device);
    Row.Status = "no launches";
    Row.StatusWhy = P->Range.empty() ? "'" + Path + "' launched no kernel and made no copy"
                                     : "'" + Path + "' never reached the profiled range '" +
                                           P->Range + "' (HROOF_RANGE): no launch inside it";
    Row.Compared = false;
    V.Rows.push_back(std::move(Row));
    PerRow.emplace_back();
  }
}

/// Notes on the incomplete rows; when no row is complete, the rows with
/// launches are compared all the same (what each recorded), and a note
/// says so.
void incompleteRowNotes(RankView &V) {
  bool AnyCompared = false;
  for (const RankRow &R : V.Rows)
    AnyCompared |= R.Compared;
  for (RankRow &R : V.Rows) {
    if (R.Status.empty())
      continue;
    if (!AnyCompared && R.Sums.Launches > 0)
      R.Compared = true;
    V.Notes.push_back(R.Label + " is incomplete (" + R.Status + "): " + R.StatusWhy +
                      (R.Compared ? "" : "; not in the mean, the imbalance or the verdict"));
  }
  if (!AnyCompared)
    V.Notes.push_back("no rank/GPU row is complete: the mean, the imbalance and the verdict "
                      "compare what each row recorded");
}

/// Where hardware counters were collected, communication times include
/// the waits for other ranks' replays: a note naming those rows and ranges.
void replayNote(RankView &V) {
  std::string Rows, Modes;
  std::set<std::string> Ranges, ModeSet;
  for (const RankRow &R : V.Rows)
    if (R.CounterLaunches) {
      Rows += (Rows.empty() ? "" : ", ") + R.Label;
      Ranges.insert(R.ReplayedRanges.begin(), R.ReplayedRanges.end());
      ModeSet.insert(R.Replay.empty() ? std::string("kernel") : R.Replay);
    }
  if (Rows.empty() || V.CommNs <= 0 || V.UnprofiledTiming)
    return;
  for (const std::string &Mo : ModeSet)
    Modes += (Modes.empty() ? "" : ", ") + Mo;
  std::string Where;
  size_t N = 0;
  for (const std::string &Ra : Ranges)
    if (++N <= 4)
      Where += (Where.empty() ? "" : ", ") + (Ra.empty() ? std::string("(outside any range)") : Ra);
  if (N > 4)
    Where += ", and " + std::to_string(N - 4) + " more";
  V.Notes.push_back("launches were replayed for hardware counters on " + Rows + " (replay: " +
                    Modes + "): while one rank replays, the others wait in their collectives, " +
                    "so communication times " +
                    (Where.empty() ? std::string("of these rows")
                                   : "inside the replayed ranges (" + Where + ")") +
                    " include replay waits; the verdict above uses compute time");
}

/// The verdict: the rank with the most compute time (its kernels other than
/// communication) is the straggler; the others wait for it in collectives,
/// so the most communication time marks a waiter, not the cause.
void addSummaryNotes(RankView &V) {
  std::vector<bool> Cmp;
  std::vector<double> Compute, Comm;
  size_t N = 0;
  // Time from unprofiled steps when every compared row has them: the
  // profiled step's times include the waits for other ranks' replays.
  bool Unprofiled = true;
  for (const RankRow &R : V.Rows)
    Unprofiled &= !R.Compared || R.Timing.usable();
  if (Unprofiled) {
    // Only the steps clean on every compared row: in a step where one rank
    // replayed, the others wait for it in their collectives.
    std::map<std::string, size_t> Clean;
    size_t Rows = 0;
    for (const RankRow &R : V.Rows)
      if (R.Compared) {
        ++Rows;
        for (const std::string &St : R.Timing.Steps)
          ++Clean[St];
      }
    std::vector<std::string> Common;
    for (const auto &[St, N] : Clean)
      if (N == Rows)
        Common.push_back(St);
    for (RankRow &R : V.Rows)
      if (R.Compared)
        Unprofiled &= R.Timing.useSteps(Common);
  }
  for (const RankRow &R : V.Rows) {
    Cmp.push_back(R.Compared);
    N += R.Compared;
    Compute.push_back(Unprofiled ? R.Timing.ComputeNs : R.computeNs());
    Comm.push_back(Unprofiled ? R.Timing.CommNs : R.Sums.CommTimeNs);
  }
  if (N < 2 || V.KernelNs <= 0)
    return;
  if (Unprofiled) {
    for (const RankRow &R : V.Rows)
      if (R.Compared) {
        V.Notes.push_back("times per step below from " + R.Timing.describe() + " of " + R.Label +
                          " (--timing-range '" + R.Timing.Filter +
                          "'), not replayed; FLOPs, bytes and the roofline from the profiled "
                          "range");
        break;
      }
    V.UnprofiledTiming = true;
  }
  ImbalanceRow C = imbalance("compute", Compute, &Cmp), W = imbalance("communication", Comm, &Cmp);
  bool Straggler = C.Max > C.Min;
  std::string Rows = std::to_string(N) + " compared rows";
  if (Straggler)
    V.Notes.push_back("straggler: " + V.Rows[C.Slowest].Label + ", the most compute time " +
                      "(kernels other than communication" + (Unprofiled ? ", per step" : "") +
                      "): " + ms(C.Max) + " ms, " +
                      fmtFixed(100 * (C.MaxOverMean - 1), 1) + "% above the mean of the " + Rows +
                      " (max/mean " + fmtFixed(C.MaxOverMean, 3) + "; fastest " +
                      V.Rows[C.Fastest].Label + " " + ms(C.Min) +
                      " ms); the others wait for it in their collectives");
  else
    V.Notes.push_back("compute time (kernels other than communication) is equal on the " + Rows +
                      ": no straggler among the kernels");
  if (W.Max > W.Min) {
    std::string Line = V.Rows[W.Slowest].Label + " has the most communication time (" +
                       ms(W.Max) + " ms; " + V.Rows[W.Fastest].Label + " " + ms(W.Min) + " ms)";
    if (Straggler && W.Slowest != C.Slowest)
      Line += ": waiting for the straggler in collectives, not a cause of its own";
    else if (Straggler)
      Line += ": the straggler by compute time also waits the longest, so what delays the "
              "others is outside their kernels (host work, data loading)";
    V.Notes.push_back(Line);
  }
}

} // namespace

RankView buildRankView(const std::vector<InputFile> &Inputs, const Machine &M, size_t Depth) {
  RankView V;
  V.RangeDepth = Depth;
  std::vector<Times> PerRow;
  std::vector<RankRow> Unread;
  std::vector<const Profile *> Idle;
  for (const InputFile &In : Inputs) {
    if (In.Ncu) {
      V.Notes.push_back("'" + In.Path + "' is an Nsight Compute export: it has no rank and is "
                        "not in the rank view");
      continue;
    }
    if (!In.P) {
      Unread.push_back(unreadableRow(In.Path, In.Unreadable.empty() ? In.Fatal : In.Unreadable));
      continue;
    }
    const Profile &P = *In.P;
    V.Profiles[P.Path] = &P;
    if (P.Kernels.empty() && !P.Torn && noTransfers(P)) {
      // A process without launches: a launcher (torchrun, mpirun's or a
      // forking program's parent), or a rank that never reached the
      // profiled range (after the loop: whether another profile has its rank).
      Idle.push_back(&P);
      continue;
    }
    ProcessDevices PD = devicesOf(P);
    bool First = true;
    for (int64_t Dev : PD.All) {
      RankRow Row;
      Row.Rank = P.Rank;
      Row.Input = P.Path;
      Row.Pid = P.Pid;
      Row.Device = Dev;
      Row.DeviceName = P.deviceName(Dev);
      Row.Sums.Range = P.Path;
      Row.Status = incompleteStatus(P);
      Row.StatusWhy = incompleteReason(P);
      Row.Compared = Row.Status.empty();
      Times T;
      readRow(Row, T, P, PD, M, Depth);
      if (P.Torn && !P.Recovered)
        Row.Status += ", nothing recovered";
      readP2P(Row, P, PD, First);
      First = false;
      V.Rows.push_back(std::move(Row));
      PerRow.push_back(std::move(T));
    }
  }
  for (RankRow &Row : Unread) {
    V.Rows.push_back(std::move(Row));
    PerRow.emplace_back();
  }
  addIdleRows(V, PerRow, Idle);
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
  incompleteRowNotes(V);
  std::vector<bool> Compared;
  for (const RankRow &R : V.Rows)
    Compared.push_back(R.Compared);
  for (const RankRow &R : V.Rows) {
    V.KernelNs += R.Sums.TimeNs;
    V.CommNs += R.Sums.CommTimeNs;
  }
  for (const RankRow &R : V.Rows)
    addRowPoint(V.ChartData, V.ChartPoints, V.KernelNs, R.Sums, R.Label);
  V.Kernels = imbalanceRows(Ts, Compared, false);
  V.Ranges = imbalanceRows(Ts, Compared, true);
  if (V.Ranges.size() == 1 && V.Ranges[0].Name.empty())
    V.Ranges.clear(); // no NVTX ranges at all
  addSummaryNotes(V);
  replayNote(V);
  return V;
}

std::vector<InputFile> inputsOfRank(const std::vector<InputFile> &Inputs,
                                    const std::string &Rank) {
  if (Rank.empty())
    return Inputs;
  std::vector<InputFile> Out;
  std::set<std::string> Seen;
  size_t NoRank = 0;
  for (const InputFile &In : Inputs) {
    if (!In.FileError.empty())
      throw UserError(In.FileError);
    // An input that cannot be read has no rank (loadInputs says what is
    // wrong with it).
    if (In.Rank.empty())
      ++NoRank;
    else
      Seen.insert(In.Rank);
    if (In.Rank == Rank)
      Out.push_back(In);
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

} // namespace report
} // namespace hroof
