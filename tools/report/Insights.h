//===- Insights.h - deep-learning insight lines of kernels and ranges -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Two findings beside the roofline placement (docs/report.md, "Insight
// lines"), for a kernel or an NVTX range:
// - a Tensor Core opportunity: FLOPs all on CUDA cores (f32, f16, bf16; no
//   Tensor Core and no f64 FLOPs) at an arithmetic intensity above the
//   CUDA-core ridge point at HBM: its HBM traffic allows more FLOP/s than
//   the CUDA cores deliver, and Tensor Cores would raise the compute roof;
// - cache locality: the share of the bytes at L1 that L1 served and of the
//   bytes at L2 that L2 served, from the bytes at each level; a high L2 share
//   beside a poor L1 share is data reused from L2 that L1 does not keep.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_INSIGHTS_H
#define HROOF_TOOLS_REPORT_INSIGHTS_H

#include "ReportData.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// Below this share of its bytes served by L1, with at least HighL2Share
/// served by L2, a kernel's L1 locality is poor.
constexpr double PoorL1Share = 0.5, HighL2Share = 0.8;

/// The insights of FLOPs by precision (f32, tensor_f16, ...) and bytes by
/// level ("L1", "L2", "HBM", "global (requested)"), any common scale; no
/// Tensor Core opportunity without the machine \p M.
Insight insightOf(const std::map<std::string, double> &FlopsByPrecision,
                  const std::map<std::string, double> &BytesByLevel, const Machine *M);

/// A kernel's levels as bytes by level name.
std::map<std::string, double> levelBytes(const std::vector<LevelPoint> &Levels);

/// The short form for table cells: "TC opportunity", "poor L1 locality",
/// both joined by ", "; "" when neither.
std::string insightLabel(const Insight &I);

/// The sentence of a note: what was found and the numbers; "" when nothing.
/// \p Time is the kernel's or range's time ("2.000 ms, 52.6% of the time").
std::string insightNote(const Insight &I, const std::string &Time);

nlohmann::json insightJson(const Insight &I);

} // namespace report
} // namespace hroof

#endif
