//===- ProfileData.h - one profile, read once into typed fields -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `hroof report` and `hroof compare` read each profile (docs/profile-format.md)
// once: readProfileData() walks the JSON one time, checking every field it
// keeps, into a Profile; the views (the kernel table, --by range, --by rank,
// the transfers line) then use the Profile, never the JSON. The keys are
// those of common/include/hroof/ProfileKeys.h, which the runtime's writer
// uses too.
//
// Count objects are kept flattened to dotted keys ("flops.f32",
// "bytes.global.load", "l2_bytes", "time_ns"); a bad field is a UserError
// naming the file and the field as a JSON pointer ("/kernels/0/launches").
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_PROFILEDATA_H
#define HROOF_TOOLS_REPORT_PROFILEDATA_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hroof {
namespace report {

using Flat = std::map<std::string, double>;

/// Flattens a nested object of numbers into dotted keys; other values skipped
/// (and the counters' "raw" and "peak", which are no counts).
void flatten(const nlohmann::json &J, const std::string &Prefix, Flat &Out);
double get(const Flat &F, const std::string &Key);
/// Sum of the keys starting with \p Prefix (e.g. "flops.").
double sumPrefix(const Flat &F, const std::string &Prefix);
void addInto(Flat &Sum, const Flat &Add);

/// One source of counts for one kernel, summed over the launches it covers.
struct SourceCounts {
  uint64_t Launches = 0; ///< launches these counts cover
  /// Of them, launches whose counters may not be their own (hardware
  /// counters' estimated_launches: counters_estimated in their records).
  uint64_t Estimated = 0;
  Flat Counts;
  bool present() const { return Launches > 0; }
};

/// A kernel aggregate's launches on one device ("by_device" entries).
struct KernelShare {
  bool Object = true; ///< false: an entry that is no object (a device, no launches)
  std::optional<int64_t> Device;
  uint64_t Launches = 0, TimedLaunches = 0;
  double DurationNs = 0;
  SourceCounts Dynamic, Counters;
  uint64_t FromModel = 0;
};

/// One kernel aggregate (kernels[], or a range's kernels[]).
struct ProfileKernel {
  std::string Name, Mangled;
  bool Instrumented = false;
  uint64_t Launches = 0;
  std::optional<uint64_t> RecordedLaunches; ///< launches with a record
  uint64_t TimedLaunches = 0; ///< duration_ns.timed_launches
  double DurationNs = 0;      ///< duration_ns.total
  SourceCounts Dynamic, Counters;
  uint64_t FromModel = 0; ///< dynamic.from_model
  SourceCounts Static;
  bool StaticExact = true, StaticHasBounds = false;
  Flat StaticLo, StaticHi;          ///< static.bounds
  std::set<std::string> StaticNoHi; ///< counters whose upper bound is null
  uint64_t StaticMatches = 0, StaticDiffers = 0;
  std::vector<std::string> StaticProblems, StaticUnknown;
  SourceCounts StaticWarp; ///< lower bounds
  Flat StaticWarpHi;
  bool StaticWarpExact = true;
  std::optional<int64_t> Device;                    ///< "device": every launch on one
  std::optional<std::vector<KernelShare>> ByDevice; ///< "by_device": launches on several

  /// This kernel on the device of \p S: its names and static model, the
  /// share's launches, durations, counters and dynamic counts.
  ProfileKernel onDevice(const KernelShare &S) const;
};

/// The reference roofs of one launch's counters ("peak"), per second.
struct CounterPeak {
  std::map<std::string, double> FlopsPerS, TensorFlopsPerS;
  std::map<std::string, double> BytesPerS; ///< l1, l2, hbm
};

/// A communication launch's library call ("collective": NCCL's NVTX payload).
struct CollectivePayload {
  std::string Call, Comm;
  std::optional<double> Bytes;
};

/// What the report uses of one launch record.
struct ProfileLaunch {
  std::string Kernel, Mangled;
  bool Instrumented = false;
  int64_t Device = -1;
  std::optional<double> StartNs, DurationNs;
  std::optional<CollectivePayload> Collective;
  /// Instrumented, with complete counters and a launch shape: its warps
  /// count the instrumentation's flush atomics in the counters.
  bool CounterWarps = false;
  double Warps = 0;          ///< blocks x warps per block
  bool ReplayGroups = false; ///< its counters came from application replay
  std::optional<CounterPeak> Peak;
};

/// A transfer aggregate ("transfers.by_kind", a range's "transfers").
struct TransferSum {
  std::string Kind;
  uint64_t Count = 0;
  double Bytes = 0, DurationNs = 0;
};

/// A copy record ("transfers.records").
struct TransferRecordData {
  std::string Kind;
  double Bytes = 0, DurationNs = 0;
  int64_t Device = -1;
};

struct ProfileRange {
  std::string Path;
  std::vector<ProfileKernel> Kernels;
  std::vector<TransferSum> Transfers;
};

struct ProfileDevice {
  std::optional<int64_t> Ordinal; ///< when an integer
  std::optional<std::string> Name;
};

/// One entry of the "timing" section (--timing-range).
struct TimingEntry {
  std::string Range, Kernel;
  int64_t Device = -1;
  uint64_t Launches = 0, Replayed = 0, FirstStartNs = 0;
  double TotalNs = 0;
};

struct Profile {
  std::string Path;
  /// host/pid/start_time/command: two inputs with the same one are one
  /// process ("" when pid or start_time is missing).
  std::string Id;
  std::string Rank; ///< "" when none
  std::string Pid = "?";
  std::string Host;
  std::string Replay, Range; ///< settings.replay, settings.range
  int64_t LaunchLimit = 0;   ///< settings.launch_limit (0 unknown)
  std::optional<bool> Complete;
  bool Torn = false;    ///< rebuilt from the whole launch records of a cut file
  size_t Recovered = 0; ///< launch records recovered from a torn file
  std::vector<ProfileDevice> Devices;
  std::vector<ProfileLaunch> Launches;
  std::vector<ProfileKernel> Kernels;
  bool HasRanges = false; ///< a "ranges" array (NVTX ranges were open)
  std::vector<ProfileRange> Ranges;
  bool HasTransfers = false; ///< a "transfers" object
  std::vector<TransferSum> TransferKinds;
  std::vector<TransferRecordData> TransferRecords;
  bool HasTiming = false;
  std::string TimingFilter;
  std::vector<TimingEntry> Timing;
  std::vector<std::string> Notes;

  /// The names of the devices ("devices[].name").
  std::set<std::string> deviceNames() const;
  /// The name of device \p Ordinal, "" when unknown.
  std::string deviceName(int64_t Ordinal) const;
};

/// Reads a profile's parsed JSON \p J (from \p Path) in one pass. Throws
/// UserError: not an hroof profile, another version, no "kernels" array, a
/// field of the wrong type. \p Out holds what was read before a throw (the
/// rank, for `--rank`).
void readProfileData(const std::string &Path, const nlohmann::json &J, Profile &Out);
Profile readProfileData(const std::string &Path, const nlohmann::json &J);
/// Parses \p Text (a torn file rebuilt from its whole launch records,
/// TornProfile.h) and reads it.
Profile readProfileText(const std::string &Path, const std::string &Text);

/// One input of `hroof report` or `compare`, read once (readInputFiles):
/// an Nsight Compute export, a profile, or why it is neither.
struct InputFile {
  std::string Path;
  bool Ncu = false; ///< an ncu raw CSV export, its text in NcuText
  std::string NcuText;
  std::optional<Profile> P; ///< the profile (also a torn one with nothing recovered)
  std::string Rank;         ///< the rank its JSON names, "" when none
  std::string FileError;    ///< it cannot be read (a directory, no permission)
  /// It is no profile to report on (empty, not JSON, a bad field): the
  /// report stops with this.
  std::string Fatal;
  /// Its JSON does not parse (or a torn file kept no whole record): the
  /// report stops with this, or --by rank shows it as an unreadable row.
  std::string Unreadable;
};

/// Reads every input once, in order; nothing throws (each InputFile says
/// what is wrong with it).
std::vector<InputFile> readInputFiles(const std::vector<std::string> &Paths);

/// Why \p P is incomplete, one line naming its path; "" when the runtime
/// finished it.
std::string incompleteReason(const Profile &P);
/// A short form for a table cell: "torn", "unfinished"; "" when complete.
std::string incompleteStatus(const Profile &P);

} // namespace report
} // namespace hroof

#endif
