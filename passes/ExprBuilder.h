//===- ExprBuilder.h - IR values and SCEVs as launch-time expressions ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Turns integer IR values (kernel arguments, PTX special registers and
// arithmetic on them) and ScalarEvolution expressions into the JSON
// expressions of the static model (format: common/include/hroof/Expr.h,
// docs/static-model.md). Integer fields of a kernel's by-value struct
// arguments that the kernel never writes are launch parameters too
// (["field", I, OFF, W]), and so are a kernel's pointer arguments where they
// are compared with null or with each other (`if (bias != nullptr)`).
// Anything else (other loads, data, the variables of
// loops that are not being summed) cannot be expressed: build() returns
// std::nullopt and the caller reports why.
//
// Loop variables: while KernelModel models the body of a loop with a trip
// count, it binds the loop to a sum id (bindIterVar). A header phi of that
// loop that moves by a loop-invariant step (or shifts by a constant) is then
// the expression of its value at iteration ["ivar", id], e.g. start + step*k,
// and KernelModel sums the factors that use it over the loop's iterations.
// Such values are never cached: outside the loop the same phi means its final
// value, which cannot be expressed.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_EXPRBUILDER_H
#define HROOF_PASSES_EXPRBUILDER_H

#include "hroof/ExprOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/JSON.h"

#include <functional>
#include <optional>
#include <set>

namespace hroof {

using JExpr = llvm::json::Value;
struct PhiIncrement; // InductionLoop.h

class ExprBuilder {
public:
  explicit ExprBuilder(const llvm::Function &F) : F(F) {}

  /// Expression of integer value \p V, or nullopt.
  std::optional<JExpr> build(const llvm::Value *V);
  /// Expression of SCEV \p S, or nullopt (add-recurrences, pointers...).
  std::optional<JExpr> build(const llvm::SCEV *S);

  /// The i1 condition \p C (or its negation) as a 0/1 factor.
  std::optional<JExpr> condition(const llvm::Value *C, bool Polarity);

  /// Loop variables: \p Loops tells header phis apart; while \p L is bound
  /// to sum \p Id its variables are expressions of ["ivar", Id]. With \p DT
  /// and \p SE, a phi that merges two sides of one branch is a select on the
  /// branch's condition, and a loop's value read after the loop is its exit
  /// value (ScalarEvolution's value at the reader's scope).
  void setAnalyses(const llvm::LoopInfo *Loops, const llvm::DominatorTree *Dom,
                   llvm::ScalarEvolution *Scev) {
    LI = Loops;
    DT = Dom;
    SE = Scev;
  }
  /// Header executions per entry of a loop (KernelModel's trip count):
  /// with it, a loop's variable read after a loop whose trip count
  /// ScalarEvolution cannot give (a grid-stride loop) is its exit value,
  /// start + step * trips.
  using TripCountFn = std::function<std::optional<JExpr>(const llvm::Loop *)>;
  void setTripCounts(TripCountFn Fn) { TripCounts = std::move(Fn); }
  void bindIterVar(const llvm::Loop *L, int Id) {
    IterVars[L] = Id;
    ++Scope;
  }
  void unbindIterVar(const llvm::Loop *L) {
    IterVars.erase(L);
    ++Scope;
  }
  /// The loop bound to sum \p Id, or null.
  const llvm::Loop *loopOfIterVar(int Id) const {
    for (const auto &[L, I] : IterVars)
      if (I == Id)
        return L;
    return nullptr;
  }

private:
  std::optional<JExpr> buildUncached(const llvm::Value *V);
  std::optional<JExpr> buildBinary(const llvm::BinaryOperator *BO, unsigned W);
  std::optional<JExpr> buildLoopVariable(const llvm::PHINode &Phi, const llvm::Loop &L);
  std::optional<JExpr> buildTwoWayPhi(const llvm::PHINode &Phi);
  std::optional<JExpr> buildIncoming(const llvm::PHINode &Phi, unsigned I);
  std::optional<JExpr> afterSteps(const llvm::PHINode &Phi, const PhiIncrement &Inc,
                                  const llvm::Loop &L, JExpr Moves);
  std::optional<JExpr> buildExitValue(const llvm::Value *In, const llvm::Loop &L,
                                      const llvm::BasicBlock *From);
  std::optional<JExpr> buildByValField(const llvm::LoadInst &L);
  std::optional<JExpr> buildPointer(const llvm::Value *V);
  const llvm::Function &F;
  const llvm::LoopInfo *LI = nullptr;
  const llvm::DominatorTree *DT = nullptr;
  llvm::ScalarEvolution *SE = nullptr;
  llvm::DenseMap<const llvm::Loop *, int> IterVars;
  TripCountFn TripCounts;
  llvm::DenseMap<const llvm::Value *, std::optional<JExpr>> Cache;
  llvm::SmallPtrSet<const llvm::Value *, 8> InProgress;
  /// Set when a build reached a loop header phi: its result depends on which
  /// loops are bound, and is cached for the current binding (Scope) only.
  bool ReachedLoopPhi = false;
  unsigned Scope = 0;
  llvm::DenseMap<const llvm::Value *, std::pair<unsigned, std::optional<JExpr>>> ScopedCache;
};

/// ["ivar", Id], and whether \p E uses iteration index \p Id (or, with
/// Id < 0, any) anywhere, or contains a sum.
JExpr jIterVar(int Id);
bool usesIterVar(const JExpr &E, int Id);
/// The iteration indices \p E uses (inside sums or not), in \p Out.
void collectIterVars(const JExpr &E, std::set<int64_t> &Out);
bool containsSum(const JExpr &E);
/// Whether \p E uses an iteration index outside a sum over it (a defect:
/// KernelModel checks every product it emits).
bool hasFreeIterVar(const JExpr &E);

// Small constructors of JSON expressions; operator names come from the one
// table in hroof/ExprOps.h.
JExpr jOp(ExprOp Op, JExpr A, JExpr B);
JExpr jWOp(ExprOp Op, unsigned W, JExpr A, JExpr B);
JExpr jExt(bool Signed, unsigned W, JExpr A);
JExpr jCmp(CmpPred Pred, unsigned W, JExpr A, JExpr B);
/// The lane index %laneid: the linear thread index in the block modulo 32.
JExpr laneIdExpr();
/// Replaces ["arg", I] by Args[I]; false if some Args[I] is missing.
bool substituteArgs(JExpr &E, const std::vector<std::optional<JExpr>> &Args);
/// Readable infix form, for print<hroof-kernels>: hroof::Expr::str, the
/// printer `hroof static` uses.
std::string exprToString(const JExpr &E, const llvm::Function *F = nullptr);

} // namespace hroof

#endif // HROOF_PASSES_EXPRBUILDER_H
