//===- ExprBuilder.h - IR values and SCEVs as launch-time expressions ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Turns integer IR values (kernel arguments, PTX special registers and
// arithmetic on them) and ScalarEvolution expressions into the JSON
// expressions of the static model (format: common/include/hroof/Expr.h,
// docs/static-model.md). Anything else (loads, loop variables, data) cannot be
// expressed: build() returns std::nullopt and the caller reports why.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_EXPRBUILDER_H
#define HROOF_PASSES_EXPRBUILDER_H

#include "hroof/ExprOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/JSON.h"

#include <optional>

namespace hroof {

using JExpr = llvm::json::Value;

class ExprBuilder {
public:
  explicit ExprBuilder(const llvm::Function &F) : F(F) {}

  /// Expression of integer value \p V, or nullopt.
  std::optional<JExpr> build(const llvm::Value *V);
  /// Expression of SCEV \p S, or nullopt (add-recurrences, pointers...).
  std::optional<JExpr> build(const llvm::SCEV *S);

  /// The i1 condition \p C (or its negation) as a 0/1 factor.
  std::optional<JExpr> condition(const llvm::Value *C, bool Polarity);

private:
  std::optional<JExpr> buildUncached(const llvm::Value *V);
  std::optional<JExpr> buildBinary(const llvm::BinaryOperator *BO, unsigned W);
  const llvm::Function &F;
  llvm::DenseMap<const llvm::Value *, std::optional<JExpr>> Cache;
  llvm::SmallPtrSet<const llvm::Value *, 8> InProgress;
};

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
