//===- ReportData.h - what `hroof report` and `hroof compare` read --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Loads profiles (docs/profile-format.md) and Nsight Compute raw CSV exports
// into one per-kernel data set, merging several inputs (MPI ranks, repeated
// runs) by kernel; loads the machine JSON (docs/ert.md); and derives the
// hierarchical-roofline quantities (docs/report.md): FLOPs, bytes per level,
// arithmetic intensity, FLOP/s, the governing ceiling and what bounds it.
//
// Count objects are kept flattened to dotted keys ("flops.f32",
// "bytes.global.load", "l2_bytes", "time_ns") summed over inputs.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_REPORTDATA_H
#define HROOF_TOOLS_REPORT_REPORTDATA_H

#include "Format.h"
#include "ProfileData.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// One kernel, merged over every input.
struct KernelData {
  std::string Name, Mangled;
  uint64_t Launches = 0;
  uint64_t TimedLaunches = 0; ///< launches with an activity duration
  double DurationNs = 0;      ///< their summed duration
  SourceCounts Dynamic, Static, Counters;
  /// The static warp-level traffic (warp_bytes.*, sectors.*, wavefronts.*):
  /// lower bounds in StaticWarp, upper in StaticWarpHi (equal where exact).
  SourceCounts StaticWarp;
  Flat StaticWarpHi;
  bool StaticWarpExact = true;
  bool Instrumented = false;
  /// Launches whose dynamic counts are the exact static model's (the kernel
  /// was not instrumented: "from_model" in the profile).
  uint64_t DynamicFromModel = 0;
  /// Warps of the instrumented launches that also have hardware counters
  /// (their counters include the instrumentation's flush atomics).
  double CounterWarps = 0;
  uint64_t CounterWarpLaunches = 0;
  bool FromProfile = false; ///< seen in an hroof profile (not only in ncu exports)
  bool StaticExact = true;
  /// A static model that is not exact: summed bounds ("static.bounds"),
  /// lower in StaticLo, upper in StaticHi; counters without an upper bound
  /// in StaticNoHi.
  bool StaticHasBounds = false;
  Flat StaticLo, StaticHi;
  std::set<std::string> StaticNoHi;
  uint64_t StaticMatches = 0, StaticDiffers = 0;
  std::vector<std::string> StaticUnknown;  ///< why the model is not exact
  std::vector<std::string> StaticProblems; ///< why launches had no static totals
  std::set<std::string> Inputs;            ///< files it came from
  std::set<std::string> Devices;           ///< device names it ran on
};

/// The reference roofs that launch records' hardware counters carry
/// ("peak" in docs/profile-format.md): the highest of each over the inputs,
/// in the machine file's keys and units (Ceilings.h).
struct CounterPeaks {
  std::map<std::string, double> Flops;     ///< GFLOP/s: f32, tensor_f16, ...
  std::map<std::string, double> Bandwidth; ///< GB/s: l1, l2, hbm
  uint64_t Records = 0;                    ///< launch records that had a "peak"
};

/// Everything read from the inputs.
struct Dataset {
  std::vector<std::string> Inputs;
  std::set<std::string> Devices; ///< device names (may be empty)
  std::vector<KernelData> Kernels;
  std::vector<std::string> Notes;                ///< lines worth telling the user
  std::map<std::string, std::string> ProfileIds; ///< host/pid/start -> path
  CounterPeaks Peaks;
};

/// The whole file; throws UserError "'PATH' is a directory" or "cannot read
/// 'PATH'".
std::string readFile(const std::string &Path);

/// Merges the inputs read by readInputFiles (profiles first, then ncu
/// exports); a torn profile's whole launch records stand for it
/// (TornProfile.h), with a note. Throws UserError naming the file and the
/// problem; with \p KeepGoing a profile whose JSON cannot be read is a note
/// instead (--by rank names it in a row of its own).
Dataset loadInputs(const std::vector<InputFile> &Inputs, bool KeepGoing = false);
/// readInputFiles, then the above.
Dataset loadInputs(const std::vector<std::string> &Paths, bool KeepGoing = false);

/// The kernel entry of \p D for this name (created if new).
KernelData &kernelFor(Dataset &D, const std::string &Name, const std::string &Mangled);
/// Adds one profile to \p D: its devices, kernels and counter peaks.
void addProfile(Dataset &D, const Profile &P);
/// Adds kernel aggregates of the profile \p Path that ran on \p Devices
/// (device names) to \p D.
void addKernels(Dataset &D, const std::string &Path, const std::set<std::string> &Devices,
                const std::vector<ProfileKernel> &Kernels);
/// The warps of the instrumented launches with counters among \p Launches
/// (the flush of the instrumentation adds one 8-byte atomic per warp and
/// counter there) and their counters' peaks.
void addLaunches(Dataset &D, const std::vector<ProfileLaunch> &Launches);
/// One launch row of an Nsight Compute `--csv --page raw` export.
struct NcuRow {
  std::string Kernel, Device;
  std::map<std::string, double> Metrics; ///< in base units (byte, second)
  Flat Counters;                         ///< the profile's counter keys (hroof/CounterMetrics.h)
};
struct NcuExport {
  std::vector<NcuRow> Rows;
  size_t Rejected = 0; ///< rows with the wrong number of fields
};
/// Parses an ncu raw CSV export; throws UserError when it has no header or
/// no kernel rows (NcuImport.cpp).
NcuExport readNcuCsv(const std::string &Path, const std::string &Text);
/// Adds one Nsight Compute `--csv --page raw` export (NcuImport.cpp).
void addNcuCsv(Dataset &D, const std::string &Path, const std::string &Text);
/// True when \p Text looks like an ncu raw CSV export.
bool looksLikeNcuCsv(const std::string &Text);

/// The machine's ceilings (docs/ert.md, schema hroof-machine/1).
struct Machine {
  std::string Path, Name;
  /// The ceilings are the counters' peaks (Ceilings.h), not a machine
  /// file's measured ones; Path is then empty.
  bool FromCounterPeaks = false;
  /// What the ceilings are, for headers and subtitles: "NAME (PATH)", or
  /// "NAME (peaks from the counters, not measured)".
  std::string describe() const;
  std::map<std::string, double> Flops;     ///< GFLOP/s: f32, tensor_f16, ...
  std::map<std::string, double> Bandwidth; ///< GB/s: l1, shared, l2, hbm
};
Machine loadMachine(const std::string &Path);
/// docs/machines/*.json whose device name matches \p Device, if any.
std::optional<std::string> findMachineFor(const std::string &Device);
/// Directory of the bundled machine files.
std::string machinesDir();
/// Case- and space-insensitive device-name match.
bool sameDevice(const std::string &A, const std::string &B);

/// A memory level of the hierarchical roofline.
struct LevelPoint {
  std::string Level;   ///< "L1", "L2", "HBM", "global (requested)"
  std::string Ceiling; ///< machine bandwidth key: l1, l2, hbm
  double Bytes = 0;    ///< per launch
  double AI = 0;       ///< FLOP/byte (0 when no bytes)
};

/// The deep-learning insight lines of a kernel or a range (Insights.h).
struct Insight {
  /// Shares of the bytes at L1 that L1 served (1 - L2/L1 bytes) and of the
  /// bytes at L2 that L2 served (1 - HBM/L2 bytes); -1 when unknown.
  double L1HitShare = -1, L2HitShare = -1;
  bool PoorL1Locality = false; ///< L2 serves most of what L1 misses, L1 little
  /// A Tensor Core opportunity: every FLOP on CUDA cores in f32/f16/bf16, at
  /// an AI (HBM, else requested bytes) above the CUDA-core ridge point
  /// (their ceiling over the HBM bandwidth). RidgeAI is 0 otherwise.
  double RidgeAI = 0, AI = 0;
  std::string CudaCorePrecisions; ///< "f32", "f16+bf16", ...
};

/// The roofline quantities of one kernel (per launch, then scaled).
struct KernelAnalysis {
  const KernelData *K = nullptr;
  std::string FlopSource;  ///< "counters", "dynamic", "static", ""
  std::string BytesSource; ///< "counters", "dynamic", ""
  std::string TimeSource;  ///< "activity", "counters", ""
  double FlopsPerLaunch = 0;
  double TimeNsPerLaunch = 0;
  /// Time per launch of the launches the FLOP/byte counts come from (the
  /// counters' own time when they cover only some launches).
  double RateTimeNsPerLaunch = 0;
  double TotalTimeNs = 0;                         ///< all launches (for the share of time)
  double GFlops = 0;                              ///< achieved GFLOP/s (0 if unknown)
  std::string Precision;                          ///< dominant: f32, f64, f16, bf16, tensor_f16...
  std::map<std::string, double> FlopsByPrecision; ///< per launch
  std::vector<LevelPoint> Levels;
  double PeakGFlops = 0;            ///< the dominant precision's ceiling
  double GoverningGFlops = 0;       ///< min over levels/compute of the attainable
  std::string Bound;                ///< "compute (f32)", "HBM bandwidth", ...
  double PctOfCeiling = 0;          ///< GFlops / GoverningGFlops * 100
  double TimeShare = 0;             ///< percent of the summed kernel time
  std::vector<std::string> Missing; ///< what could not be computed and why
  /// Requested global bytes per launch (dynamic counts, else counters) and
  /// the AI over them, whatever the levels are (0 when unknown).
  double BytesRequested = 0, AIRequested = 0;
  /// Short unique id, "K1".."Kn" by decreasing total time (ties: name):
  /// what the chart, the table, the CSV and the JSON call the kernel.
  std::string Id;
  /// Why the kernel's memory levels do not read as a hierarchy, "" when
  /// they do (hierarchyFlag).
  std::string HierarchyFlag;
  /// "NCCL AllReduce" for a communication kernel (hroof/Communication.h):
  /// its time is communication, its FLOPs are left out (a reduction's adds),
  /// its bytes are what it moved, and it is no point of the roofline.
  std::string Communication;
  Insight Insights; ///< Insights.h
};

std::vector<KernelAnalysis> analyze(const Dataset &D, const Machine *M);

/// "" when AI rises from L1 to HBM as a memory hierarchy's should (each
/// level moves at most the bytes of the level above it); else why not:
/// L1 moving fewer bytes than HBM (L1 AI above HBM AI: traffic that bypassed
/// L1, or counters of different launches), or L1 moving over
/// HierarchySpreadLimit times the HBM bytes (L1 AI far below HBM AI).
std::string hierarchyFlag(const std::vector<LevelPoint> &Levels);
constexpr double HierarchySpreadLimit = 1e4;

/// "N of M launches' counters came from ...": a kernel some of whose
/// launches carry counters_estimated (per-shape sampling, pass or
/// application replay served by launches of other parameter bytes).
std::string estimatedCountersNote(const KernelData &K);

/// Signature key that matches ncu's and the runtime's demangling of one
/// kernel ("f(const float *)" and "f(float const*)"): no spaces, no const.
std::string signatureKey(const std::string &Name);
/// Short display name: the demangled name without its parameter list.
std::string shortName(const std::string &Name);
/// The short name without namespace qualifiers anywhere
/// ("at::native::f<4, at::native::G<float> >" -> "f<4, G<float> >"): what
/// the table and the chart's legend show, cut to --name-width.
std::string compactName(const std::string &Name);
/// The bare function name: the short name without its namespaces, class
/// and template arguments ("at::native::f<4>(int)" -> "f"), as ncu's
/// --print-kernel-base function writes it.
std::string baseName(const std::string &Name);

} // namespace report
} // namespace hroof

#endif
