//===- HwMetrics.h - hardware-counter metric lists and their profile keys -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU side of the hardware counters (docs/runtime.md "Hardware
// counters"), no CUDA or CUPTI, unit-tested anywhere:
//  - the metric list of HROOF_COUNTERS (roofline | none | METRIC,...);
//  - turning one launch's metric values into the profile's "counters"
//    object: FLOPs, requested bytes and L1/L2/DRAM bytes by the shared
//    metric table (common/include/hroof/CounterMetrics.h, also used by the
//    Nsight Compute import), time, peaks;
//  - summing "counters" objects for the kernel aggregates.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_HWMETRICS_H
#define HROOF_RUNTIME_HWMETRICS_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

/// The metrics of `--counters roofline` (docs/runtime.md "Hardware counters"),
/// counted metrics first, then the `.peak_sustained` and clock metrics used
/// for the reference roofs.
const std::vector<std::string> &rooflineMetrics();

/// The Tensor Core type metrics of the roofline set
/// (sm__ops_path_tensor_src_*.sum): on GH100 each needs replay passes of its
/// own (5 of the set's 7), so they are collected at a kernel's first profiled
/// launch and afterwards only those that were nonzero (TensorTypes below).
const std::vector<std::string> &tensorTypeMetrics();

/// The tensor-pipe instruction counters that fit in the set's base passes
/// (sm__inst_executed_pipe_tensor_op_{hmma,gmma,dmma,imma}.sum): they tell,
/// at every launch, whether a pipe that was idle when the types were learned
/// is busy now.
const std::vector<std::string> &tensorPipeMetrics();

/// HROOF_COUNTERS parsed.
struct CountersSetting {
  bool Enabled = false;
  std::vector<std::string> Metrics; ///< deduplicated, in order
  std::string Problem;              ///< malformed text ("" if fine)
  /// Collect every tensor type metric only at a kernel's first profiled
  /// launch ("roofline"; "roofline-full" turns it off). Needs every
  /// tensorPipeMetrics() in Metrics.
  bool LearnTensorTypes = false;
};

/// "none"/"off"/"0"/"" -> off; "roofline" -> rooflineMetrics() with learned
/// tensor types; "roofline-full" -> the same metrics, every tensor type at
/// every launch; otherwise a comma-separated list of metric names, where
/// those two words expand to the roofline set. Names must look like metrics
/// ([A-Za-z0-9_.]+).
CountersSetting parseCountersSetting(const std::string &Text);

/// What a kernel's launch with every tensor type metric taught: the type
/// metrics that were nonzero and the tensor pipes that issued instructions.
struct TensorTypes {
  std::set<std::string> Types; ///< nonzero tensorTypeMetrics()
  std::set<std::string> Pipes; ///< nonzero tensorPipeMetrics()
};

/// A kernel's learned tensor types, and the same as a mask over
/// tensorTypeMetrics() (the key of its context's HwConfig); Code: the
/// kernel's code hash, its key in the tensor-type cache (0: unknown).
struct LearnedTypes {
  TensorTypes Types;
  unsigned Mask = 0;
  uint64_t Code = 0;
};

std::shared_ptr<const LearnedTypes> makeLearned(TensorTypes Types, uint64_t Code);

/// Learns from one launch's values (all type and pipe metrics collected).
TensorTypes learnTensorTypes(const std::map<std::string, double> &Values);

/// \p Metrics without the tensor type metrics that \p L found zero.
std::vector<std::string> metricsForTypes(const std::vector<std::string> &Metrics,
                                         const TensorTypes &L);

/// "" when a launch collected with metricsForTypes(.., L) is consistent with
/// \p L: no tensor pipe issues instructions that was idle when L was learned
/// (then the omitted types are taken as zero). Otherwise the reason; the
/// launch's omitted types are unknown and the kernel's types are relearned.
std::string checkTensorTypes(const TensorTypes &L, const std::map<std::string, double> &Values);

/// The HFMA2.MMA instructions of the hmma pipe
/// (sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum): CUDA-core half
/// math, and ptxas's way to move constants; they have no tensor type.
/// Application replay's plan adds it (a one-pass group has room for it);
/// the kernel-replay lists do not (with bf16 or tf32 it costs a pass, GH100).
const std::string &hfma2PipeMetric();

/// The tensor type metrics that \p Values shows to be zero without measuring
/// them: those whose every issuing pipe (tensorPipeMetrics()) issued no
/// tensor instruction (hmma: less its HFMA2.MMA, hfma2PipeMetric(), where
/// measured). Which pipe issues which type was measured on GH100
/// (test/gpu/counters/pipe-types.sh; docs/runtime.md "Application replay"):
/// mma.sync f16, bf16, tf32 and e4m3 (counted as fp16) on hmma, f64 on dmma,
/// s8 on imma; wgmma on gmma plus hmma or imma. A pipe not measured counts
/// as busy (the types it may issue are never inferred idle).
std::vector<std::string> typesIdleByPipes(const std::map<std::string, double> &Values);

/// One launch's values by metric name -> the profile's "counters" object:
/// {"flops": {f64,f32,f16}, "tensor_flops": {...}, "bytes": {"global":
/// {load,store,atomic}, "shared": {load,store}, "local": {load,store}},
/// "shared_wavefronts": {load,store}, "l1_bytes", "l2_bytes", "dram_bytes",
/// "dram_read_bytes", "dram_write_bytes", "time_ns", "sm_hz", "peak": {...}, "raw": {metric:
/// value}}. A key is present only when every metric it needs was collected. \p InferredZero: tensor
/// type metrics not collected but known to be zero (checkTensorTypes); their keys are 0 and listed
/// in "tensor_flops_inferred", not in "raw".
nlohmann::json countersToJson(const std::map<std::string, double> &Values,
                              const std::vector<std::string> &InferredZero = {});

/// Adds \p Add's summable fields (flops, tensor_flops, bytes,
/// shared_wavefronts, l1/l2/dram bytes, DRAM read/write bytes, time_ns) into \p Sum.
void addCounters(nlohmann::json &Sum, const nlohmann::json &Add);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_HWMETRICS_H
