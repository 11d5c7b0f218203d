//===- CounterMetrics.h - hardware-counter metrics -> profile count keys ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one table that turns Nsight-Compute/CUPTI metric values into the keys
// of the profile's "counters" object (docs/profile-format.md, the same keys
// as the dynamic counts of docs/counting-model.md). Used by the runtime
// (runtime/src/metrics/HwMetrics.cpp, one launch's CUPTI values) and by the Nsight
// Compute import of the CLI (tools/report/NcuImport.cpp, one CSV row), so a
// counter means the same thing whichever tool measured it. Plain C++: no
// LLVM, no CUDA.
//
// The rules (docs/runtime.md "Hardware counters"):
//  - CUDA-core FLOPs from SASS thread-instruction counts: add and mul 1, fma
//    2; half instructions are taken as packed as Nsight Compute's roofline
//    does (hadd/hmul 2, hfma 4);
//  - Tensor Core FLOPs: sm__ops_path_tensor_src_<type>.sum;
//  - requested bytes sm__sass_data_bytes_mem_<space>_op_<op>.sum, atomic
//    bytes = atom + red (global) and atom (shared);
//  - L1/L2/DRAM bytes: l1tex__t_bytes, lts__t_bytes, dram read + write.
// A key is produced only when every metric it needs was collected (a
// missing metric is unknown, not zero).
//===----------------------------------------------------------------------===//
#ifndef HROOF_COUNTERMETRICS_H
#define HROOF_COUNTERMETRICS_H

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hroof {
namespace metrics {

/// "sm__sass_thread_inst_executed_op_<Op>_pred_on.sum".
std::string sassInstMetric(const std::string &Op);
/// "sm__ops_path_tensor_src_<Suffix>.sum".
std::string tensorMetric(const std::string &Suffix);

/// CUDA-core FLOPs of one precision: AddMulWeight x (add + mul) +
/// FmaWeight x fma, from the SASS instruction counts of the three ops.
struct FlopRule {
  const char *Key; ///< flops.<Key>: f64, f32, f16
  const char *Add, *Mul, *Fma;
  double AddMulWeight, FmaWeight;
};
const std::vector<FlopRule> &flopRules();

/// A Tensor Core type metric suffix and its tensor_flops key.
struct TensorRule {
  const char *Suffix; ///< sm__ops_path_tensor_src_<Suffix>.sum
  const char *Key;    ///< tensor_flops.<Key>
};
const std::vector<TensorRule> &tensorRules();

/// A count key that is the sum of metrics: the first of \p Alternatives
/// whose metrics were all collected gives the value.
struct SumRule {
  std::string Key; ///< dotted: "bytes.global.atomic", "l2_bytes"
  std::vector<std::vector<std::string>> Alternatives;
};
/// Requested bytes per space and direction, then l1_bytes, l2_bytes and
/// dram_bytes.
const std::vector<SumRule> &byteRules();

/// The value of a metric, or nullopt when it was not collected.
using MetricLookup = std::function<std::optional<double>(const std::string &)>;

/// Every key of the table that \p Lookup can give, dotted ("flops.f32",
/// "tensor_flops.f16", "bytes.global.load", "l1_bytes", ...).
std::map<std::string, double> countsFromMetrics(const MetricLookup &Lookup);

} // namespace metrics
} // namespace hroof

#endif // HROOF_COUNTERMETRICS_H
