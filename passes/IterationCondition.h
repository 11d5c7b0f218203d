//===- IterationCondition.h - branches on a loop's iteration index --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A branch inside a loop whose condition is a compare of an affine function
// of the loop's iteration index k with a loop-invariant value
//   a + s*k  <, <=, >, >=  b        (s a constant; signed with no signed
//                                    wrap, or unsigned with no unsigned wrap)
// holds on an interval of k: a tile-edge test `if (t*TILE + tx < n)` inside
// `for (t ...)` holds for k < ceildiv(n - tx, TILE). The block under it then
// runs, per entry into the loop, on the number of iterations k in [0, Trips)
// that lie in the intersection of such intervals, an expression of the
// kernel's arguments and registers like any other factor.
//
// KernelModel records each such atom in a path condition as an internal
// marker factor, and resolveIterationAtoms() folds the markers of a product
// together with the loop's trip count factor into that number, so that no
// marker reaches a term.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_ITERATIONCONDITION_H
#define HROOF_PASSES_ITERATIONCONDITION_H

#include "ExprBuilder.h"
#include "WarpAccess.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"

#include <optional>
#include <vector>

namespace hroof {

/// Condition \p C (or its negation) of the branch that ends \p Branch, as a
/// marker factor: k < H or k >= L for the iteration index k of \p L;
/// nullopt when it has another shape.
std::optional<JExpr> iterationAtom(const llvm::Value *C, bool Polarity,
                                   const llvm::BasicBlock &Branch, const llvm::Loop &L,
                                   llvm::ScalarEvolution &SE, const llvm::DominatorTree &DT,
                                   ExprBuilder &EB);

/// Whether \p E is a marker made by iterationAtom.
bool isIterationAtom(const JExpr &E);

/// Removes the markers among P[TripIndex + 1 ...] and replaces the trip
/// count P[TripIndex] by the number of iterations k in [0, trip count) that
/// satisfy all of them; the loop marker before it (loopMarker) gets that
/// range of k. Does nothing when there are none.
void resolveIterationAtoms(std::vector<JExpr> &P, size_t TripIndex);

/// The marker KernelModel puts before a loop's trip count in a product:
/// the loop's sum id and the range of iteration indices the product covers,
/// [0, Trips) until resolveIterationAtoms narrows it.
JExpr loopMarker(int Id, JExpr Trips);

/// \p P without loop markers: where a marker's loop variable is used by a
/// later factor (a trip count or condition that depends on it), the marker,
/// its count and those factors become one ["sum", id, lo, hi, product].
/// Every product must go through this before it leaves KernelModel.
std::vector<JExpr> foldIterationSums(std::vector<JExpr> P);

/// Leaves to the warp-level bounds an access whose multiplicity is a sum
/// over a loop's iterations, or whose loops or address use a loop variable
/// that way (its multiplicity is no longer one rectangular nest).
void leaveSummedAccessOut(IRWarpAccess &W);

/// A condition on a loop's variable (`if (t < off)` in a halving loop,
/// `if (k >= m)`) cuts the iterations that run access \p W, per lane, to
/// [lo, hi) (the loop marker's window in \p Products, the access's
/// multiplicity before its sums are folded): the warp-level model must know
/// which iterations, not only how many. The innermost loop that moves the
/// address gets the window (IRWarpLoop::First); a loop inside it that does
/// not move the address joins the loops with step 0; any other cut leaves
/// the access to the bounds, with the reason.
void windowAccessLoops(IRWarpAccess &W, const std::vector<std::vector<JExpr>> &Products,
                       const ExprBuilder &EB);

/// An access in loop \p Innermost whose offset reads that loop's iteration
/// index other than by a step (`s[i % G * K + i / G]`, i = tid + k * ntid):
/// gives it the loop as its one enumerated loop (IRWarpLoop::IterVar, trip
/// count from \p TripCount), where no other loop moves its address.
void enumerateAddressLoop(IRWarpAccess &W, const llvm::Loop *Innermost, const ExprBuilder &EB,
                          llvm::function_ref<std::optional<JExpr>(llvm::Loop *)> TripCount);

} // namespace hroof

#endif // HROOF_PASSES_ITERATIONCONDITION_H
