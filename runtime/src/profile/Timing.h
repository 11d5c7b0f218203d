//===- Timing.h - kernel time of launches outside the profiled range ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_TIMING_RANGE (docs/runtime.md "Timing ranges"): launches whose NVTX
// path matches it, but not HROOF_RANGE, get no record, counters or counts;
// their activity durations are summed here per (range path, kernel, device),
// so the report can take time, communication and imbalance from steps the
// profiler did not disturb, and counters from the profiled step.
//
// A launch that carried a counter pass or group for another launch's record
// (application and pass replay replay later steps) is counted as replayed:
// the report leaves out every top-level range that has one.
//
// The profile's "timing" object (docs/profile-format.md):
//   {"range_filter": REGEX, "entries": [{range, kernel, device, launches,
//    replayed, total_ns, first_start_ns, last_end_ns, communication}],
//    "dropped": N}
// Not thread-safe: the owner (Profile) locks.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_TIMING_H
#define HROOF_RUNTIME_TIMING_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <tuple>

namespace hroof {
namespace rt {

/// One activity record of a launch in a timing range.
struct TimingLaunch {
  std::string Range;  ///< NVTX path
  std::string Kernel; ///< mangled name
  int64_t Device = -1;
  uint64_t StartNs = 0, DurationNs = 0; ///< StartNs 0: not timed (only counted)
  bool Replayed = false;      ///< it carried counters for another launch's record
};

class TimingAggregate {
public:
  /// Most (range, kernel, device) entries; later ones only count in "dropped".
  static constexpr size_t EntryLimit = 16384;

  void setFilter(const std::string &Regex) { Filter = Regex; }
  bool any() const { return !Entries.empty() || Dropped > 0; }
  void add(const TimingLaunch &L);
  nlohmann::json toJson() const;

private:
  struct Entry {
    uint64_t Launches = 0, Replayed = 0, TotalNs = 0;
    uint64_t FirstStartNs = 0, LastEndNs = 0;
    bool Communication = false;
  };
  std::string Filter;
  std::map<std::tuple<std::string, std::string, int64_t>, Entry> Entries;
  uint64_t Dropped = 0;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_TIMING_H
