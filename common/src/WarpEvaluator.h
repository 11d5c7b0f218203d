//===- WarpEvaluator.h - one access over one launch (internal) ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The evaluator behind evaluateWarpTraffic (hroof/WarpModel.h), shared by
// its two files: WarpModel.cpp (a warp's lanes and requests: exact, bounded,
// atomic, enumerated iterations) and WarpBlocks.cpp (which blocks are
// evaluated: by class, by address shift, or every one; the footprint of
// full blocks).
//===----------------------------------------------------------------------===//
#ifndef HROOF_COMMON_WARPEVALUATOR_H
#define HROOF_COMMON_WARPEVALUATOR_H

#include "hroof/WarpModel.h"
#include "AffineForm.h"
#include "Footprint.h"
#include "WarpClasses.h"
#include "WarpCost.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hroof::warp_eval {

/// Accumulates one access over the launch.
class AccessEvaluator {
public:
  AccessEvaluator(const WarpAccess &A, const LaunchShape &L, const EvalEnv &Env,
                  std::vector<int64_t> BaseResidues, uint64_t &Budget, bool ByShift)
      : Totals(BaseResidues.size()), A(A), L(L), Env(Env), BaseResidues(std::move(BaseResidues)),
        Budget(Budget), ByShift(ByShift) {
    this->Env.NTid = L.Block;
    this->Env.NCtaId = L.Grid;
  }
  /// Also collect the access's footprint into \p FP: its spans (at \p AbsBase
  /// plus the offset) into the sets of memory object \p Object, as certain
  /// unless \p OnlyPossible.
  void collectFootprint(FootprintSets &FP, const std::string &Object, int64_t AbsBase,
                        bool OnlyPossible);

  void run();
  /// Evaluations that run() needs: per class of blocks where the access has
  /// them (WarpClasses.h); none up front where full blocks are counted by
  /// shift (that costs a few blocks); else one per thread of the launch.
  u128 evaluationsNeeded() const;
  /// Per candidate base residue (one when the base is known).
  std::vector<std::array<u128, 3>> Totals; ///< bytes, sectors, wavefronts
  std::array<u128, 3> BoundLo{}, BoundHi{};
  std::string Inexact;

private:
  struct Lane {
    bool Active = false;
    u128 Mult = 0;
    int64_t Addr = 0;
    int64_t Thread = 0; ///< index in the block
    int64_t Start = 0;  ///< the innermost loop's first iteration (WarpLoop::First)
    std::vector<int64_t> Steps, Trips;
    /// Iterations [from, to) of the innermost loop: all of them.
    bool runs(int64_t From, int64_t To) const {
      return Active && Start <= From && (Trips.empty() ? 1 : Trips[0]) >= To;
    }
    /// Executions of the innermost loop.
    int64_t innermost() const {
      return Trips.empty() ? 1 : std::max<int64_t>(0, Trips[0] - Start);
    }
  };
  /// Env's thread index for thread \p T of the block.
  void enterThread(int64_t T) {
    Env.Tid = {T % L.Block[0], (T / L.Block[0]) % L.Block[1], T / (L.Block[0] * L.Block[1])};
  }
  static LaneBudgetExceeded overBudget() {
    return LaneBudgetExceeded(
        "the warp-level model needs more lane evaluations than allowed for this launch");
  }
  /// The enumerated loop's index (WarpLoop::IterVar), or -1.
  int enumeratedVar() const { return A.Loops.empty() ? -1 : A.Loops[0].IterVar; }
  template <typename Fn> void enumeratedWarp(const std::array<Lane, WarpSize> &Lanes, Fn Each);
  void warp(int64_t FirstThread, int64_t BlockThreads);
  /// runByShift()'s affine address and ctaid guards, where the access has them.
  struct ShiftPlan {
    AffineForm Off;
    std::vector<std::pair<const Expr *, AffineGuard>> Guards;
  };
  std::optional<ShiftPlan> planByShift() const;
  bool runByShift();
  /// runByClasses()'s address shifts, classes of blocks and their cost.
  struct ClassPlan : BlockClasses {
    uint64_t Work = 0; ///< interval evaluations spent finding the classes
    u128 Lanes = 0;    ///< lane evaluations of the classes, at most
  };
  std::optional<ClassPlan> planClasses() const;
  bool runByClasses();
  bool deadClass(const BlockClass &C) const;
  void lane(int64_t T, Lane &Out);
  /// \p E in the current lane: its value from Fixed, or evaluated.
  int64_t value(const Expr &E) const;
  void bound(const std::array<Lane, WarpSize> &Lanes, const std::string &Why,
             bool MayNotRun = false);
  void exactWarp(const std::array<Lane, WarpSize> &Lanes);
  void atomicWarp(const std::array<Lane, WarpSize> &Lanes);
  void addHistogram(const std::array<int64_t, WarpSize> &Rel, int64_t Res, const Histogram &H,
                    u128 Repeat);

  void addFootprint(const std::array<Lane, WarpSize> &Lanes, const Lane &First, int64_t From,
                    int64_t To);
  void footprintOfFullBlocks(SpanFamilies *ToCertain, SpanFamilies *ToPossible,
                             const std::vector<int64_t> &Shifts, int64_t BlockThreads);
  void footprintOverBudget();
  /// Where the footprint goes (null: not collected, or not in this pass).
  FootprintSets *FP = nullptr;
  SpanFamilies *Certain = nullptr, *Possible = nullptr;
  u128 *Unplaced = nullptr;
  int64_t AbsBase = 0;
  /// A pass that only collects the footprint (runByShift's block 0).
  bool FootprintOnly = false;
  /// atomicWarp(): placing an atomic's bytes (bound() adds to Unplaced
  /// only), or bounding its requests (a reason only where the bounds differ).
  bool Placing = false, AtomicCounts = false;

  const WarpAccess &A;
  const LaunchShape &L;
  EvalEnv Env;
  std::vector<int64_t> BaseResidues;
  uint64_t &Budget;
  bool ByShift;
  /// runByClasses(), runByShift(): the factors with one value in every
  /// thread of the blocks a pass stands for (guards that hold: 1), the shift
  /// added to every address, and how many blocks a pass stands for.
  std::vector<std::pair<const Expr *, int64_t>> Fixed;
  int64_t Shift = 0;
  u128 Scale = 1;
  /// Warps of a launch mostly repeat the same lane pattern.
  std::map<std::pair<std::array<int64_t, WarpSize>, int64_t>, RequestCost> Costs;
};

} // namespace hroof::warp_eval

#endif // HROOF_COMMON_WARPEVALUATOR_H
