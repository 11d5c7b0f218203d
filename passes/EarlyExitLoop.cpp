//===- EarlyExitLoop.cpp - loops that may end on data before their bound --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "EarlyExitLoop.h"
#include "OpaqueCondition.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace hroof {

std::optional<EarlyExitBounds> earlyExitBounds(const Loop &L, ScalarEvolution &SE,
                                               ExprBuilder &EB, const LoopInfo &LI) {
  Loop &ML = const_cast<Loop &>(L);
  const SCEV *Max = SE.getSymbolicMaxBackedgeTakenCount(&ML);
  if (isa<SCEVCouldNotCompute>(Max) || !Max->getType()->isIntegerTy())
    return std::nullopt;
  auto E = EB.build(Max);
  if (!E)
    return std::nullopt;
  // What the exits that ScalarEvolution cannot count test, for the reason.
  std::string Why;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  for (BasicBlock *X : Exiting) {
    if (!isa<SCEVCouldNotCompute>(SE.getExitCount(&ML, X)))
      continue;
    const auto *BI = dyn_cast<BranchInst>(X->getTerminator());
    std::string W = BI && BI->isConditional()
                        ? describeOpaqueCondition(BI->getCondition(), *X, LI, nullptr)
                        : std::string("a terminator that is not a branch");
    if (Why.find(W) == std::string::npos)
      Why += (Why.empty() ? "" : ", ") + W;
  }
  if (Why.empty())
    Why = "a value hroof cannot express";
  unsigned W = Max->getType()->getIntegerBitWidth();
  JExpr Rest = jExt(false, W, std::move(*E));
  return EarlyExitBounds{jOp(ExprOp::Add, Rest, 1), Rest, std::move(Why)};
}

bool runsInEveryIteration(const BasicBlock &BB, const Loop &L, const LoopInfo &LI,
                          const DominatorTree &DT) {
  if (LI.getLoopFor(&BB) != &L || !L.getLoopLatch())
    return false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  if (!DT.dominates(&BB, L.getLoopLatch()))
    return false;
  for (BasicBlock *X : Exiting)
    if (!DT.dominates(&BB, X))
      return false;
  return true;
}

} // namespace hroof
