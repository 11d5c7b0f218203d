//===- HwMetrics.h - hardware-counter metric lists and their profile keys -===//
//
// The CPU side of the hardware counters (docs/runtime.md "Hardware
// counters"), no CUDA or CUPTI, unit-tested anywhere:
//  - the metric list of HROOF_COUNTERS (roofline | none | METRIC,...);
//  - turning one launch's metric values into the profile's "counters"
//    object: FLOPs from instruction counts (fma x2; packed half as Nsight
//    Compute's roofline: hadd/hmul x2, hfma x4), requested bytes under the
//    same keys as the dynamic counts, L1/L2/DRAM bytes, time, peaks;
//  - summing "counters" objects for the kernel aggregates.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_HWMETRICS_H
#define HROOF_RUNTIME_HWMETRICS_H

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

/// The metrics of `--counters roofline` (DESIGN.md "Hardware counters"),
/// counted metrics first, then the `.peak_sustained` and clock metrics used
/// for the reference roofs.
const std::vector<std::string> &rooflineMetrics();

/// HROOF_COUNTERS parsed.
struct CountersSetting {
  bool Enabled = false;
  std::vector<std::string> Metrics; ///< deduplicated, in order
  std::string Problem;              ///< malformed text ("" if fine)
};

/// "none"/"off"/"0"/"" -> off; "roofline" -> rooflineMetrics(); otherwise a
/// comma-separated list of metric names, where the word "roofline" expands
/// to the roofline set. Names must look like metrics ([A-Za-z0-9_.]+).
CountersSetting parseCountersSetting(const std::string &Text);

/// One launch's values by metric name -> the profile's "counters" object:
/// {"flops": {f64,f32,f16}, "tensor_flops": {...}, "bytes": {"global":
/// {load,store,atomic}, "shared": {load,store}, "local": {load,store}},
/// "shared_wavefronts": {load,store}, "l1_bytes", "l2_bytes", "dram_bytes",
/// "time_ns", "sm_hz", "peak": {...}, "raw": {metric: value}}. A key is
/// present only when every metric it needs was collected.
nlohmann::json countersToJson(const std::map<std::string, double> &Values);

/// Adds \p Add's summable fields (flops, tensor_flops, bytes,
/// shared_wavefronts, l1/l2/dram bytes, time_ns) into \p Sum.
void addCounters(nlohmann::json &Sum, const nlohmann::json &Add);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_HWMETRICS_H
