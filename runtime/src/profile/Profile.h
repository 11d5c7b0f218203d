//===- Profile.h - the runtime's CPU side: settings, records, profile file ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Everything here is plain C++ (no CUDA, no CUPTI) so the unit tests run on
// any machine:
//  - Settings: the RuntimeSettings.h table read from the environment;
//  - KernelFilter and demangle(): which kernels are profiled;
//  - profilePath(): hroof-<pid>[-rank<R>].json, MPI/Slurm rank aware;
//  - Profile: per-kernel aggregates plus the first N launch records of each
//    kernel, written incrementally (docs/profile-format.md): the file is
//    valid JSON after every write, so a crash keeps every completed launch.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_PROFILE_H
#define HROOF_RUNTIME_PROFILE_H

#include "nvtx/NvtxPayload.h"
#include "profile/Timing.h"
#include "profile/Transfers.h"

#include "hroof/RuntimeSettings.h"
#include "hroof/StaticModel.h"

#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

/// The settings of RuntimeSettings.h, parsed. Malformed values keep their
/// default and add a line to Problems.
struct Settings {
  bool Enable = true;
  std::string Output = ".";
  std::string KernelFilter;
  int64_t LaunchLimit = 100;
  bool Counting = true;
  bool StaticEval = true;
  int64_t EvalLimit = 67108864;
  int64_t WarpEvalLimit = 1048576;
  int64_t FlushMs = 200;
  int64_t Verbose = 0;
  std::string Counters = "roofline"; ///< HROOF_COUNTERS (HwMetrics.h)
  std::string TypeCache = "auto";    ///< HROOF_TYPE_CACHE (TypeCache.h)
  std::string Range;                 ///< HROOF_RANGE: NVTX range path regex
  std::string TimingRange;           ///< HROOF_TIMING_RANGE (Timing.h)
  bool RoundActivityOff = true;      ///< HROOF_ROUND_ACTIVITY=off (the default) (PassReplayCounters.cpp)
  bool FlushL2 = false;              ///< HROOF_CACHE_CONTROL=all (L2Flush.h)
  int64_t CountersPerShape = 0;      ///< HROOF_COUNTERS_PER_SHAPE (0: off)
  bool AppReplay = false;            ///< HROOF_REPLAY=application or passes (ApplicationReplay.h)
  bool PassReplay = false;           ///< HROOF_REPLAY=passes (PassSchedule.h)
  std::vector<std::string> Problems;

  static Settings fromEnvironment();
  nlohmann::json toJson() const;
};

/// The process's rank in a distributed job: RANK (torchrun; only with
/// WORLD_SIZE or LOCAL_RANK set too), OMPI_COMM_WORLD_RANK (Open MPI),
/// PMI_RANK (MPICH), PMIX_RANK or SLURM_PROCID (srun), the first set wins;
/// "" when none is set.
std::string rankFromEnvironment();
/// The header's other distributed-job fields: "rank_from" (the variable
/// the rank came from), "local_rank" and "world_size" (null when unset).
nlohmann::json distributedFromEnvironment();

/// The profile's fixed top-level fields (docs/profile-format.md "Top level"):
/// version, the process, its rank fields (distributedFromEnvironment() is
/// the caller's to add), the settings.
struct ProfileHeader {
  long Pid = 0;
  std::string Rank; ///< "" for none (written as null)
  std::string Host, Command, RunId;
  long StartTime = 0; ///< Unix seconds
};
nlohmann::json headerToJson(const ProfileHeader &H, const Settings &S);
/// One entry of the profile's "devices".
nlohmann::json deviceToJson(int Ordinal, const std::string &Name, int Major, int Minor, int Sms);

/// The profile's path for \p Output (a directory, or a name ending in .json
/// where %p is the pid and %r the rank), \p Pid and \p Rank ("" for none).
std::string profilePath(const std::string &Output, long Pid, const std::string &Rank);

/// "MANGLED g=X,Y,Z b=X,Y,Z s=BYTES": what HROOF_COUNTERS_PER_SHAPE counts
/// launches by (the same kernel with the same shape does the same work on
/// inputs of the same size).
std::string launchShapeKey(const std::string &Mangled, const unsigned Grid[3],
                           const unsigned Block[3], unsigned SharedMem);

/// Demangled C++ name, or \p Mangled itself when it is not a C++ name.
std::string demangle(const std::string &Mangled);

/// The kernel filter: an ECMAScript regex searched in the mangled and the
/// demangled name. Empty matches everything.
class KernelFilter {
public:
  /// Returns "" or why \p Pattern is not a regular expression (then the
  /// filter matches everything); \p Setting names it in that message.
  std::string set(const std::string &Pattern, const char *Setting = "HROOF_KERNEL_FILTER");
  bool matches(const std::string &Mangled, const std::string &Demangled) const;
  bool empty() const { return !Re; }

private:
  std::optional<std::regex> Re;
};

using CountVector = hroof::CountVector;
using TotalVector = hroof::TotalVector;

/// Nested count object with the keys of docs/counting-model.md (flops.f32,
/// bytes.global.load, ...), every counter present, like `hroof static --json`.
using hroof::countsToJson; // common/StaticModel.h

/// One completed kernel launch.
struct LaunchRecord {
  std::string Mangled, Name;
  std::string Api;          ///< cuLaunchKernel, cuLaunchKernelEx, ...
  uint32_t Correlation = 0; ///< CUPTI correlation id
  uint64_t Thread = 0;      ///< host thread (gettid) that launched it
  int64_t Device = -1;      ///< CUDA device ordinal, -1 unknown
  int64_t Stream = -1;      ///< CUPTI stream id, -1 unknown
  std::array<uint32_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint32_t SharedMem = 0; ///< dynamic shared memory bytes
  bool Timed = false;     ///< Start/Duration come from CUPTI activity
  uint64_t StartNs = 0, DurationNs = 0;
  bool Instrumented = false;                         ///< the kernel has __hroof_counters_<mangled>
  bool Graph = false;                                ///< ran inside a CUDA graph (not attributed)
  std::optional<CountVector> Dynamic;                ///< this launch's exact counts
  bool DynamicFromModel = false;                     ///< Dynamic is the exact model's
  std::string DynamicWarpProblem; ///< why Dynamic's warp-level counters are 0 (not counted)
  std::string DynamicProblem;                        ///< why no counts (instrumented only)
  std::optional<TotalVector> Static;                 ///< static model at this launch
  std::optional<TotalBounds> StaticBounds;           ///< [lo, hi] when not exact
  std::string StaticProblem;                         ///< why no static totals
  bool StaticExact = true;                           ///< the model says it is exact
  std::optional<WarpTraffic> StaticWarp;             ///< warp-level model at this launch
  std::string StaticWarpProblem;                     ///< why none
  std::vector<std::pair<std::string, int64_t>> Args; ///< integer arguments
  std::string Error;                                 ///< launch or execution error
  bool HwTried = false;                              ///< hardware counters were attempted
  bool DurationFromCounters = false;                 ///< DurationNs is gpu__time_duration.sum
  std::optional<nlohmann::json> Hw;                  ///< "counters" (HwMetrics.h)
  std::string HwProblem;                             ///< why no counters (when tried)
  /// HROOF_REPLAY=application: the one-pass groups still missing at exit
  /// ("counters_incomplete"; Hw then holds only the keys of the groups it has).
  std::vector<std::string> HwIncomplete;
  std::string Range; ///< NVTX range path at the launch (hroof/RangePath.h)
  std::optional<CollectiveCall> Collective; ///< communication kernel: its call's payload
  /// Per-shape sampling (replay/CounterLoans.h): the launch's work key, and
  /// for a launch past the limit the correlation id of the launch of equal
  /// work whose counters it carries ("counters_from"; 0: its own), and why
  /// those counters may not be its own ("counters_estimated").
  std::string WorkKey;
  uint32_t CountersFrom = 0;
  std::string CountersEstimated;
};

nlohmann::json launchToJson(const LaunchRecord &R, uint64_t Index);

/// Per-kernel aggregate over every launch, recorded or not.
struct KernelAggregate {
  std::string Mangled, Name;
  bool Instrumented = false;
  uint64_t Launches = 0, Recorded = 0, Timed = 0, GraphLaunches = 0, Errors = 0;
  uint64_t TotalNs = 0, MinNs = UINT64_MAX, MaxNs = 0;
  uint64_t Counted = 0;   ///< launches with dynamic counts
  uint64_t FromModel = 0; ///< ... of which from the exact model (not instrumented)
  TotalVector Dynamic{};
  uint64_t StaticEvaluated = 0; ///< launches with static totals
  TotalVector Static{};
  uint64_t StaticMatches = 0, StaticDiffers = 0; ///< among launches with both
  bool StaticExact = true;
  TotalBounds StaticBounds;                ///< summed [lo, hi] (exact launches: lo = hi)
  std::vector<std::string> StaticProblems; ///< distinct, at most 4
  uint64_t WarpEvaluated = 0;              ///< launches with warp-level numbers
  bool WarpExact = true;
  std::map<std::string, Bounds> Warp; ///< their summed warp-level traffic
  uint64_t HwLaunches = 0;            ///< launches with hardware counters
  uint64_t HwEstimated = 0;           ///< of them, with counters_estimated
  nlohmann::json HwTotal;             ///< their summed counters (addCounters)
  /// The launches of one CUDA device: a process may drive several GPUs,
  /// and `hroof report --by rank` places each (rank, device) apart.
  struct DeviceShare {
    uint64_t Launches = 0, Timed = 0, TotalNs = 0, Counted = 0, HwLaunches = 0;
    TotalVector Dynamic{};
    nlohmann::json HwTotal;
  };
  std::map<int64_t, DeviceShare> ByDevice; ///< by device ordinal (-1 unknown)

  void add(const LaunchRecord &R);
  /// "device" when every launch ran on one device, else "by_device": one
  /// entry per device with the fields of this aggregate that it splits.
  nlohmann::json toJson() const;
  nlohmann::json byDeviceJson() const;
};

/// The profile: aggregates in memory, the file on disk kept valid after
/// every write. Thread-safe.
class Profile {
public:
  Profile(int64_t LaunchLimit, int64_t FlushMs) : LaunchLimit(LaunchLimit), FlushMs(FlushMs) {}
  ~Profile();

  /// Creates the file and writes \p Header (fields of the top-level object).
  /// Returns "" or why the file cannot be written; the profile then keeps
  /// aggregating in memory only.
  std::string open(const std::string &Path, const nlohmann::json &Header);

  /// Adds one completed launch: aggregates always, the record itself while
  /// the kernel has fewer than LaunchLimit recorded launches.
  void addLaunch(const LaunchRecord &R);
  /// Adds one copy or memset: its kind's and its range's aggregates always,
  /// the record itself while its kind has fewer than LaunchLimit records.
  void addTransfer(const TransferRecord &R);
  /// Adds one launch of a timing range (Timing.h): its time only.
  void addTiming(const TimingLaunch &L);
  void setTimingFilter(const std::string &Regex);
  /// A CUDA graph launch (its kernels are reported from activity records).
  void addGraphLaunch();
  void addDevice(const nlohmann::json &D);
  /// A line for the profile's "notes" (errors, skipped work); deduplicated.
  void note(const std::string &Line);
  /// Writes the final trailer ("complete": true). Later calls do nothing.
  void finish();

  /// Returns "" or the first write error (reported once by the caller).
  std::string takeWriteError();

  // Inspection (tests, summary).
  std::map<std::string, KernelAggregate> kernels() const;
  uint64_t recordedLaunches() const;
  nlohmann::json trailerJson() const;
  bool isOpen() const { return Fd >= 0; }

  /// Most (range, kernel) and (range, transfer kind) aggregates kept; later
  /// ones are counted in "ranges_dropped" (bounded memory and file).
  static constexpr size_t RangeEntryLimit = 16384;

private:
  /// The aggregates of one NVTX range path.
  struct RangeAggregate {
    std::map<std::string, KernelAggregate> Kernels;     ///< by mangled name
    std::map<std::string, TransferAggregate> Transfers; ///< by kind
  };

  void writeLocked(const std::string &Records, bool Force);
  nlohmann::json trailerLocked(bool Complete) const;
  /// "ranges" and "transfers", the sections that grow with the run.
  nlohmann::json rangesLocked() const;
  nlohmann::json transfersLocked() const;
  /// Their text, re-dumped at most every FlushMs (and at the end): dumping
  /// them at every launch record would cost time quadratic in the run.
  std::string growingSectionsLocked(bool Force);
  /// The aggregate of range \p Path, or null past RangeEntryLimit.
  RangeAggregate *rangeLocked(const std::string &Path, bool NewEntry);

  mutable std::mutex M;
  int64_t LaunchLimit, FlushMs;
  int Fd = -1;
  uint64_t TrailerOffset = 0; ///< where the trailer starts (after the records)
  uint64_t Written = 0;       ///< launch records in the file
  uint64_t NextIndex = 0;     ///< completed launches, all kernels
  bool Finished = false, Dirty = false;
  std::string WriteError;
  bool WriteErrorTaken = false;
  std::chrono::steady_clock::time_point LastFlush{};
  std::map<std::string, KernelAggregate> Kernels;
  std::vector<nlohmann::json> Devices;
  std::vector<std::string> Notes;
  uint64_t GraphLaunches = 0, DroppedRecords = 0;
  std::map<std::string, RangeAggregate> Ranges;
  bool AnyRange = false; ///< some launch or transfer had a non-empty path
  size_t RangeEntries = 0;
  uint64_t RangesDropped = 0;
  TimingAggregate Timing;
  std::map<std::string, TransferAggregate> TransferKinds;
  std::map<std::string, uint64_t> TransferRecordsByKind;
  std::vector<nlohmann::json> TransferRecords;
  std::string TrailerText; ///< the trailer last written (Throttled record writes reuse it)
  std::string GrowingText;
  std::chrono::steady_clock::time_point GrowingAt{};
  bool GrowingDirty = true;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_PROFILE_H
