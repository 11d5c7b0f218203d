//===- RangeProfiler.h - the CUPTI range profiler: host and target sides --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CUPTI calls of the hardware counters, in two small classes after
// NVIDIA's CUPTI range_profiling sample: RangeProfilerHost (metric lists,
// config images, evaluation; no GPU work) and RangeProfilerTarget (device
// checks, the range profiler object of a context, one range's steps). Every
// call's failure becomes a message through one helper, hwErr(); nothing here
// exits, logs or keeps policy: HardwareCounters.h decides what to profile and
// switches the counters off on an error.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_RANGEPROFILER_H
#define HROOF_RUNTIME_RANGEPROFILER_H

#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

/// CUPTI's text of \p R.
std::string cuptiErr(CUptiResult R);

/// The message for a failed CUPTI profiler call, with the usual causes
/// named: the one error helper of the range profiler. Errors travel back as
/// text to HardwareCounters, which switches the counters off (the runtime
/// lives in the user's process: it never exits).
std::string hwErr(const char *What, CUptiResult R);

/// The host side of the range profiler (cupti_profiler_host.h), as in
/// NVIDIA's range_profiling sample: no GPU work. One host object for a chip
/// and its counter availability; with a metric list added, the config image
/// that the target runs and its pass count; the evaluation of a decoded
/// range. Never torn down implicitly (at exit the driver may be gone).
class RangeProfilerHost {
public:
  /// cuptiProfilerHostInitialize for \p Chip ("" or why not).
  std::string initialize(const std::string &Chip, std::vector<uint8_t> &Avail);
  /// Whether the chip has metric \p Name.
  bool hasMetric(const std::string &Name);
  /// Adds \p Names, then builds the config image and its pass count (0 when
  /// CUPTI cannot tell).
  std::string configure(std::vector<const char *> &Names, std::vector<uint8_t> &Config,
                        size_t &Passes);
  /// The values of \p Names (NaN: not evaluated) in range \p Index of the
  /// counter-data image \p Data.
  std::string evaluate(std::vector<uint8_t> &Data, size_t Index, std::vector<const char *> &Names,
                       std::vector<double> &Values);
  void deinitialize();
  bool initialized() const { return Obj != nullptr; }

private:
  CUpti_Profiler_Host_Object *Obj = nullptr;
};

/// CUPTI's pass count of \p Metrics for \p Chip (\p Avail may be empty: no
/// device needed), on a fresh host object: one takes metrics but never drops
/// them, so each trial list needs its own. "" or the error.
std::string hostPassCount(const std::string &Chip, std::vector<uint8_t> &Avail,
                          const std::vector<std::string> &Metrics, size_t &Passes);

/// The target side of the range profiler (cupti_range_profiler.h,
/// cupti_profiler_target.h), as in NVIDIA's range_profiling sample: the
/// device checks, and one context's range profiler object with its per-range
/// steps (counter data, SetConfig, Start, Stop, Decode). Auto range, kernel
/// replay, one range per pass.
class RangeProfilerTarget {
public:
  /// cuptiProfilerInitialize, once per process ("" or why not).
  static std::string initializeProfiler();
  /// "" when device \p Dev supports the range profiler, else why not.
  static std::string checkDevice(CUdevice Dev, const char *DevName);
  static std::string chipName(CUdevice Dev, std::string &Chip);
  static std::string counterAvailability(CUcontext Ctx, std::vector<uint8_t> &Avail);
  /// The number of ranges recorded in counter-data image \p Data.
  static std::string rangeCount(std::vector<uint8_t> &Data, size_t &Ranges);
  /// The name of range \p Index of \p Data (auto ranges: its index; user
  /// ranges: the pushed names joined by "/").
  static std::string rangeName(std::vector<uint8_t> &Data, size_t Index, std::string &Name);

  /// Creates the range profiler object of \p Ctx.
  std::string enable(CUcontext Ctx);
  void disable();
  bool enabled() const { return Obj != nullptr; }
  /// Size of a counter-data image of \p MaxRanges ranges for \p Names (the
  /// image takes its metric list from the object's last call of this).
  std::string counterDataSize(std::vector<const char *> &Names, size_t &Size,
                              size_t MaxRanges = 1);
  std::string initCounterData(std::vector<uint8_t> &Data);
  /// Kernel replay: CUPTI replays each range's kernel once per pass, saving
  /// and restoring device memory. User replay: no replay at all, so only a
  /// one-pass config collects everything; up to \p MaxRanges launches
  /// between Start and Stop are one range each.
  /// With \p Range CUPTI_UserRange only the work between pushRange and
  /// popRange is counted, one range each.
  std::string setConfig(std::vector<uint8_t> &Config, std::vector<uint8_t> &Data,
                        CUpti_ProfilerReplayMode Mode = CUPTI_KernelReplay,
                        size_t MaxRanges = 1, CUpti_ProfilerRange Range = CUPTI_AutoRange);
  std::string start();
  std::string pushRange(const char *Name);
  std::string popRange();
  /// \p AllPassesSubmitted: every replay pass of the range was submitted.
  std::string stop(bool &AllPassesSubmitted);
  std::string decode();

private:
  CUpti_RangeProfiler_Object *Obj = nullptr;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_RANGEPROFILER_H
