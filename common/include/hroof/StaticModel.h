//===- hroof/StaticModel.h - read and evaluate the pass's static model ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hroof pass writes, per device compile, a JSON static model
// (docs/static-model.md): per kernel, a list of terms, each a constant count
// vector times a per-thread multiplicity (a product of expressions). This
// reader turns it into plain structs and evaluates a kernel's totals for one
// launch (grid, block, argument values).
//===----------------------------------------------------------------------===//
#ifndef HROOF_STATICMODEL_H
#define HROOF_STATICMODEL_H

#include "hroof/CounterLayout.h"
#include "hroof/Expr.h"
#include "hroof/ThreadSum.h"
#include "hroof/WarpModel.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hroof {

using CountVector = std::array<uint64_t, NumCounters>;
using TotalVector = std::array<u128, NumCounters>;

struct ModelParam {
  std::string Name; ///< source name where known, else "argN"
  std::string Type; ///< IR type, e.g. "i32", "ptr", "float"
  bool IsInteger = false;
  unsigned Bits = 0; ///< width of an integer parameter ("i32" -> 32), else 0
};

struct ModelTerm {
  CountVector Counts{};
  std::vector<ExprPtr> Factors; ///< empty product = 1 per thread
  std::string Where;            ///< function and block, for humans
  /// Runs under a condition the model could not express: between 0 and
  /// what the factors give.
  bool Guarded = false;
  /// In a loop without a trip count (counted once per entry): no bound.
  bool Unbounded = false;
};

struct KernelModel {
  std::string Name, Mangled;
  std::vector<ModelParam> Params;
  bool Exact = true;
  /// Not instrumented: the model is exact, so the runtime takes the
  /// launch's counts from it (the plugin's "counted_by_model").
  bool CountedByModel = false;
  /// In a build with warp-level counts (-hroof-warp-counts): also its
  /// warp-level counts are the warp model's at each launch (every access
  /// has an address and a multiplicity the model reads).
  bool WarpCountedByModel = false;
  std::vector<std::string> Unknown;
  /// The reasons among Unknown that leave counts out (calls, inline asm...):
  /// with any, the terms' sum is no upper bound.
  std::vector<std::string> NoUpperBound;
  std::vector<ModelTerm> Terms;
  std::vector<std::string> Functions; ///< device functions counted in
  std::vector<WarpAccess> Accesses;   ///< for the warp-level model (WarpModel.h)
  /// Why the warp-level model is incomplete (empty: every access is listed).
  std::vector<std::string> WarpUnknown;
  /// The fields of by-value arguments that its expressions read (sorted):
  /// the runtime reads them from each launch's argument bytes.
  std::vector<FieldRef> Fields;
};

struct StaticModule {
  std::string Source, Arch;
  std::vector<KernelModel> Kernels;
};

/// Parses the JSON written by the pass; throws std::runtime_error with a
/// message naming what is wrong.
StaticModule parseStaticModel(const nlohmann::json &J);

/// Index of the parameter called \p Name (or "argN"), -1 if none.
int findParam(const KernelModel &K, const std::string &Name);

/// Totals of one launch. \p Args holds values by parameter index.
TotalVector evaluateKernel(const KernelModel &K, const LaunchShape &L, const EvalEnv &Args,
                           const ThreadSumOptions &Opts = {});

/// Bounds of an inexact kernel's totals for one launch: Lo counts only the
/// terms whose multiplicity is fully known; Hi every term (an upper bound
/// because a condition left out of a multiplicity only adds executions).
/// A counter has no upper bound (HasHi false) when a term that lacks a trip
/// count counts it, or, for every counter, when counts were left out.
struct TotalBounds {
  TotalVector Lo{}, Hi{};
  std::array<bool, NumCounters> HasHi{};
  std::string NoHiBecause; ///< why some counter has no upper bound
  bool allBounded() const;
};
/// {"lo": counts, "hi": counts with null where a counter has no upper
/// bound, "no_upper_bound": why (only when some counter has none)}.
nlohmann::json totalBoundsToJson(const TotalBounds &B);
TotalBounds evaluateKernelBounds(const KernelModel &K, const LaunchShape &L, const EvalEnv &Args,
                                 const ThreadSumOptions &Opts = {});

/// The totals of one launch as `hroof static --json` gives them
/// (docs/static-model.md): {"total", "flops_total", "ai": {"global"}}. For an
/// exact kernel (\p Bounds null) the counts; otherwise never a number that
/// is neither bound: "total" is the upper bounds (null for a counter
/// without one, as in "bounds"), "flops_total" and "ai.global" are
/// {"lo", "hi"} (hi null without an upper bound; AI's lo is lo FLOPs over
/// hi bytes, its hi is hi FLOPs over lo bytes).
nlohmann::json launchTotalsToJson(const TotalVector &Total, const TotalBounds *Bounds);

/// Parameters that the model needs values for (indices).
std::vector<int> neededArgs(const KernelModel &K);
/// Fields of by-value arguments that the terms need values for.
std::vector<FieldRef> neededFields(const KernelModel &K);
/// The fields of \p K's model named \p Name ("p+4": byte 4 of parameter p,
/// hroof/Expr.h's fieldName), one per width read there; empty if none.
std::vector<FieldRef> findFields(const KernelModel &K, const std::string &Name);
/// The fields of by-value arguments that \p K's terms and accesses read
/// (sorted, each once).
std::vector<FieldRef> modelFields(const KernelModel &K);
/// Calls \p F on each expression of warp-level access \p A (its offset, its
/// loops' steps and trip counts, its alternatives' conditions; null ones too).
void forEachAccessExpr(const WarpAccess &A, const std::function<void(const ExprPtr &)> &F);

/// Counts as the nested JSON object every hroof output uses
/// ({"flops": {"f32": ...}, "bytes": {"global": {"load": ...}}, ...}); values
/// above 2^64 become doubles. The first \p N counters: all of them for
/// dynamic counts (the warp-level ones included), NumThreadCounters for the
/// static model's thread-level totals (its warp-level numbers come from the
/// warp model, hroof/WarpModel.h).
nlohmann::json countsToJson(const CountVector &C, int N = NumCounters);
nlohmann::json countsToJson(const TotalVector &T, int N = NumCounters);

/// Dotted key of counter I ("flops.f32").
std::string counterName(int I);
/// Counter index of a dotted key, -1 if unknown.
int counterIndex(const std::string &Key);

} // namespace hroof

#endif // HROOF_STATICMODEL_H
