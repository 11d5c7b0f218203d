//===- RankView.h - `hroof report --by rank[:DEPTH]` ----------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A distributed run (torchrun, mpirun, srun) leaves one profile per process,
// named by rank (docs/profile-format.md). This view puts each (rank, GPU)
// apart: its kernel time, its communication time (NCCL and the other
// libraries of hroof/Communication.h), its peer-to-peer copies, and its
// kernels summed into one point of the hierarchical roofline, with the same
// arithmetic as a range of --by range (RangeView.h). Then the imbalance:
// for each kernel and each NVTX range (paths cut to DEPTH), its time on every
// (rank, GPU), the mean, the slowest and the fastest, and max/mean.
//
// A process that drives several GPUs has per-device shares in its kernel
// aggregates ("device", "by_device"); each device is a row of its own.
// Profiles written before those fields count as one row on their one device.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_RANKVIEW_H
#define HROOF_TOOLS_REPORT_RANKVIEW_H

#include "RangeView.h"
#include "ReportData.h"
#include "StepTiming.h"

#include <nlohmann/json.hpp>

#include <deque>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// One (process, device) of the run.
struct RankRow {
  std::string Label;  ///< "rank 0", "rank 1 GPU 1", "pid 4242" (no rank in the profile)
  std::string Rank;   ///< "" when the profile has none
  std::string Input;  ///< the profile it came from
  std::string Pid;    ///< the process (labels the row when there is no rank)
  int64_t Device = -1; ///< device ordinal, -1 unknown
  std::string DeviceName;
  RangeRow Sums; ///< launches, time, FLOPs, bytes per level, communication time, the point
  std::map<std::string, double> CommByLabel; ///< "NCCL AllReduce" -> ns
  uint64_t P2PCopies = 0;                    ///< PtoP copies of the process (not per device)
  double P2PBytes = 0, P2PNs = 0;
  /// "" for a profile the runtime finished; else why the row is incomplete
  /// (short: "torn", "unfinished", "no launches", "unreadable"; StatusWhy
  /// says it in full). Incomplete rows are shown but not Compared.
  std::string Status, StatusWhy;
  bool Compared = true; ///< in the mean, the imbalance and the straggler verdict
  /// Launches with hardware counters: each was replayed (kernel replay's
  /// passes, or application replay's later launches of its shape), and the
  /// other ranks waited in their collectives meanwhile.
  uint64_t CounterLaunches = 0;
  std::string Replay;                   ///< the profile's settings.replay
  std::set<std::string> ReplayedRanges; ///< range paths (cut) with counter launches
  /// Time per step from steps that were not profiled (--timing-range).
  StepTiming Timing;
  /// The row's kernel time outside communication kernels.
  double computeNs() const { return Sums.TimeNs - Sums.CommTimeNs; }
};

/// One kernel's (or range's) time on every row of the view.
struct ImbalanceRow {
  std::string Name;
  std::string Communication; ///< "NCCL AllReduce" for communication kernels
  std::vector<double> Ns;    ///< per RankRow, same order; 0 where it did not run
  double Total = 0, Mean = 0, Max = 0, Min = 0;
  size_t Slowest = 0, Fastest = 0; ///< indices into RankView::Rows
  double MaxOverMean = 0;          ///< 1 = balanced; 0 when it never ran
};

struct RankView {
  size_t RangeDepth = 0; ///< range paths cut to this depth (0: whole paths)
  std::vector<RankRow> Rows;
  std::vector<ImbalanceRow> Kernels, Ranges; ///< by decreasing total time
  double KernelNs = 0, CommNs = 0;           ///< over every row
  std::vector<std::string> Notes;
  /// The verdict's times come from unprofiled steps (RankRow::Timing).
  bool UnprofiledTiming = false;
  std::deque<KernelData> ChartData; ///< the rows as chart points
  std::vector<KernelAnalysis> ChartPoints;
  /// The rows' profiles by input path: the InputFiles given to
  /// buildRankView, which must outlive the view (Collectives.h reads them).
  std::map<std::string, const Profile *> Profiles;
};

/// Range depth of "rank" (0) or "rank:N"; throws UserError otherwise.
size_t parseByRank(const std::string &By);

/// The rows of the profile inputs (ncu exports are skipped with a note).
RankView buildRankView(const std::vector<InputFile> &Inputs, const Machine &M, size_t Depth);

/// The imbalance of the values in \p Ns (one per row), over the rows that
/// \p Compared marks (all without it).
ImbalanceRow imbalance(std::string Name, std::vector<double> Ns,
                       const std::vector<bool> *Compared = nullptr);

/// The rank table, then the kernel and range imbalance tables (the first
/// \p Top rows of each; 0 for all).
void printRankView(std::ostream &OS, const RankView &V, size_t Top, size_t NameWidth);
nlohmann::json rankViewJson(const RankView &V);
/// printRankView, then the JSON to \p JsonPath unless it is empty.
void writeRankView(std::ostream &OS, const RankView &V, size_t Top, size_t NameWidth,
                   const std::string &JsonPath);

/// The inputs whose profile rank is \p Rank (`hroof report --rank R`), all
/// of them when \p Rank is ""; throws UserError naming the ranks there are
/// when none is.
std::vector<InputFile> inputsOfRank(const std::vector<InputFile> &Inputs,
                                    const std::string &Rank);

/// A note on the communication kernels of \p As (time, share, per
/// library and collective); "" when there is none.
std::string communicationNote(const std::vector<KernelAnalysis> &As);

} // namespace report
} // namespace hroof

#endif
