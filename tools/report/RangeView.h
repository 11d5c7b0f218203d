//===- RangeView.h - `hroof report --by range[:DEPTH]` --------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Aggregates the profiles' per-range sections ("ranges", docs/profile-format.md)
// by NVTX range path cut to DEPTH: FLOPs per precision, bytes per memory level,
// kernel time, transfers, the share of time in kernels without FLOPs, and the
// range as one point of the hierarchical roofline (its FLOPs over its time,
// its AI at each level, its limiting roof). The kernels of a range are
// analysed exactly as `hroof report` analyses kernels (ReportData.h analyze()),
// so a range's numbers are the sums of its kernels'.
//
// Forward and backward of one module are put side by side: rows whose paths
// differ only in an element "forward" / "backward" are adjacent.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_RANGEVIEW_H
#define HROOF_TOOLS_REPORT_RANGEVIEW_H

#include "ReportData.h"
#include "TuningCandidates.h"

#include <nlohmann/json.hpp>

#include <deque>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// One range path (cut to the depth), summed over its kernels and inputs.
struct RangeRow {
  std::string Range; ///< "" for launches outside every range
  uint64_t Launches = 0, Kernels = 0;
  double TimeNs = 0; ///< summed kernel time
  double Flops = 0;
  std::map<std::string, double> FlopsByPrecision; ///< f32, tensor_f16, ...
  std::map<std::string, double> BytesByLevel;     ///< L1, L2, HBM, global (requested)
  double NoFlopTimeNs = 0;                        ///< kernels with a FLOP count of zero
  double CommTimeNs = 0; ///< communication kernels (hroof/Communication.h), also in NoFlopTimeNs
  double UnknownFlopTimeNs = 0;                   ///< kernels without any FLOP count
  /// Launches without counts of their own in this range (past the launch
  /// limit), counted at their kernel's mean over the launches that had them.
  uint64_t EstimatedLaunches = 0;
  /// Launches whose counters carry counters_estimated (the FLOPs and bytes
  /// are theirs only if the launches that served them did the same work).
  uint64_t CountersEstimated = 0;
  uint64_t Transfers = 0;
  double TransferBytes = 0, TransferNs = 0;
  // The range as a point of the hierarchical roofline.
  std::string Precision; ///< dominant
  double GFlops = 0, AttainableGFlops = 0;
  std::string Bound;   ///< limiting roof
  double Fraction = 0; ///< of the limiting roof (busiest level without FLOPs)
  double HeadroomNs = 0;
  Insight Insights; ///< Insights.h
  /// Kernel time per step of the same path in the steps --timing-range
  /// recorded and no counter touched (StepTiming.h); -1: none.
  double UnprofiledNsPerStep = -1;
};

struct RangeView {
  size_t Depth = 0; ///< 0: whole paths
  std::vector<RangeRow> Rows;
  std::vector<std::string> Notes;
  /// The unprofiled steps some row's UnprofiledNsPerStep came from ("" none).
  std::string UnprofiledSteps;
  double KernelNs = 0, TransferNs = 0; ///< over every range
  /// The rows as KernelAnalysis points, for the chart of ReportCommand
  /// (KernelData names are the range paths' tails, "#1 " ... "#3 " before
  /// the three largest tuning candidates).
  std::deque<KernelData> ChartData;
  std::vector<KernelAnalysis> ChartPoints;
};

/// The arithmetic that makes a group of kernels (a range, a rank) one point
/// of the hierarchical roofline; RankView.h uses it too.
///
/// Adds one analysed kernel to \p R; \p Whole is the same kernel over the
/// whole run (its counts stand in where the group's launches have none).
void addKernelToRow(RangeRow &R, const KernelAnalysis &A, const KernelAnalysis *Whole);
/// The row's achieved GFLOP/s, its lowest roof and the fraction of it.
void placeOnRoofline(RangeRow &R, const Machine &M);
/// The row as a chart point named \p Label (kept in \p Data, which must
/// not move while \p Points is used); \p TotalNs for its share of time.
void addRowPoint(std::deque<KernelData> &Data, std::vector<KernelAnalysis> &Points,
                 double TotalNs, const RangeRow &R, const std::string &Label);
/// The machine's bandwidth key of a memory level ("L1" -> "l1", ...).
const char *levelBandwidthKey(const std::string &Level);

/// Lines on the inputs' copies and memsets (the profiles' "transfers"):
/// per kind count, bytes, time and bandwidth, and their share of the GPU
/// time (\p KernelNs: the kernels' summed time). Empty without transfers.
std::vector<std::string> transferLines(const std::vector<InputFile> &Inputs, double KernelNs);

/// Writes \p J to \p Path (indented); throws UserError naming the path.
void writeJsonFile(const std::string &Path, const nlohmann::json &J);

/// Depth of "range" (0) or "range:N"; throws UserError otherwise.
size_t parseByRange(const std::string &By);

/// The "ranges" sections of the profile inputs (ncu exports have none).
RangeView buildRangeView(const std::vector<InputFile> &Inputs, const Dataset &All,
                         const Machine &M, size_t Depth);

void printRangeView(std::ostream &OS, const RangeView &V);
nlohmann::json rangeViewJson(const RangeView &V);
/// A row's point in JSON (launches, FLOPs by precision, bytes and AI by
/// level, GFLOP/s, the limiting roof and the fraction of it, communication
/// time): the fields --range-json and --rank-json share.
nlohmann::json rowPointJson(const RangeRow &R);
/// One candidate per range with a roof.
std::vector<Candidate> rangeCandidates(const RangeView &V);

struct RangeComparison; // RangeBaseline.h

/// What `hroof report` prints and writes for --by range and --tuning N:
/// the range table (when \p RV) and its comparison with the baseline (when
/// \p Cmp), the first \p Tuning candidates of \p Cs (the kernels'; the
/// ranges' instead when \p RV), the JSON files named.
void writeRangeAndTuning(std::ostream &OS, const RangeView *RV, std::vector<Candidate> Cs,
                         int Tuning, const std::string &RangeJson, const std::string &TuningJson,
                         const RangeComparison *Cmp = nullptr);

} // namespace report
} // namespace hroof

#endif
