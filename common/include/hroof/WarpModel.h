//===- hroof/WarpModel.h - memory traffic at the hardware's granularity ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hardware serves a warp's load or store as one request. For each launch
// this evaluates, from the static model's accesses (docs/static-model.md,
// "accesses"), what the memory system sees (docs/counting-model.md,
// "Warp-level traffic"):
//   warp_bytes.<space>.<dir>  distinct bytes of each warp request, summed
//                             (Nsight Compute: sm__sass_data_bytes_mem_*)
//   sectors.global.<dir>      32-byte sectors each request touches
//                             (l1tex__t_sectors_pipe_lsu_mem_global_op_*)
//   wavefronts.shared.<dir>   bank-conflict passes of each shared request
//                             (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*)
//   footprint.global.<dir>    distinct global bytes the launch reads / writes:
//                             the compulsory DRAM traffic (dram__bytes_read /
//                             _write with caches flushed before the launch)
// Each warp of the launch is evaluated lane by lane: the lanes that the guards
// leave active, their addresses, and the residues that loop steps run through
// (sectors and banks repeat every 128 bytes, so a loop of any length costs at
// most 128 evaluations). Where the model cannot be exact it gives bounds
// [lo, hi] and says why; an exact quantity has lo == hi.
//===----------------------------------------------------------------------===//
#ifndef HROOF_WARPMODEL_H
#define HROOF_WARPMODEL_H

#include "hroof/CounterLayout.h"
#include "hroof/Expr.h"
#include "hroof/ThreadSum.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hroof {

struct WarpLoop {
  ExprPtr Step, Trips;
  /// >= 0: the offset reads this loop's iteration index ["ivar", IterVar]
  /// other than by a step (Step is 0): its iterations are enumerated, each
  /// a request of its own. Only the innermost loop, only with Loops of one.
  int IterVar = -1;
  /// The first iteration that runs the access (null: 0): a condition on the
  /// loop's variable leaves each lane the iterations [First, Trips). Only
  /// the innermost loop has one.
  ExprPtr First;
};

/// One global or shared load or store of a kernel (the pass's IRWarpAccess).
struct WarpAccess {
  MemSpace Space = MemSpace::Global;
  MemDir Dir = MemDir::Load;
  uint64_t Width = 0;
  std::string Where;
  int BaseParam = -1;     ///< pointer parameter, or
  std::string BaseObject; ///< a variable whose placement is not known
  uint64_t BaseAlign = 1;
  ExprPtr Offset;                                 ///< null: unmodelled
  std::vector<WarpLoop> Loops;                    ///< innermost first
  std::vector<std::vector<ExprPtr>> Alternatives; ///< multiplicity: sum of products
  std::string Unmodelled;
  std::string Assumes;
  /// The multiplicity lacks a condition: it is an upper bound (lower: 0).
  std::string Guarded;
  /// The multiplicity lacks a trip count: the launch has no warp-level numbers.
  std::string Unbounded;
  /// A side of an asynchronous copy (cp.async, SASS LDGSTS): its global load
  /// counts in sectors and the footprint, not in warp_bytes; its shared
  /// store in no warp-level counter (the H200's counters: docs/validation/warp.md).
  bool AsyncCopy = false;
};

/// The launch needs more lane evaluations than WarpModelOptions allows.
struct LaneBudgetExceeded : ExprError {
  using ExprError::ExprError;
};

struct Bounds {
  u128 Lo = 0, Hi = 0;
  bool exact() const { return Lo == Hi; }
};

struct WarpTraffic {
  /// "warp_bytes.global.load", "sectors.global.store", "wavefronts.shared.load"...
  std::map<std::string, Bounds> Counts;
  std::vector<std::string> Inexact;     ///< why some count has bounds
  std::vector<std::string> Assumptions; ///< what exact counts rely on
  /// Why footprint.global.* is not given (empty when it is).
  std::string FootprintNote;
  bool exact() const;
};

struct WarpModelOptions {
  /// Most lane evaluations before giving up with an ExprError.
  uint64_t MaxLaneEvaluations = uint64_t(1) << 28;
  /// Count full blocks by address shift instead of evaluating each (the
  /// result is the same; tests turn it off to compare).
  bool ByShift = true;
  /// Most intervals added to the footprint sets before it is given up.
  uint64_t MaxFootprintIntervals = uint64_t(1) << 24;
};

/// Pointer parameter values by parameter index (nullopt: not given; the
/// model then assumes cudaMalloc's 256-byte alignment and says so).
using PointerValues = std::vector<std::optional<uint64_t>>;

/// Warp-level traffic of one launch of a kernel with accesses \p Accesses.
/// \p ParamNames names pointers in messages. Throws ExprError when a
/// multiplicity or address cannot be evaluated.
WarpTraffic evaluateWarpTraffic(const std::vector<WarpAccess> &Accesses, const LaunchShape &L,
                                const EvalEnv &Env, const PointerValues &Pointers,
                                const std::vector<std::string> &ParamNames,
                                const WarpModelOptions &Opts = {});

/// Parses one entry of a kernel's "accesses" array; throws std::runtime_error.
WarpAccess parseWarpAccess(const nlohmann::json &J);

/// {"exact": ..., "counts": {"warp_bytes": {"global": {"load": N | {"lo","hi"}}}}, ...}
nlohmann::json warpTrafficToJson(const WarpTraffic &T);

} // namespace hroof

#endif // HROOF_WARPMODEL_H
