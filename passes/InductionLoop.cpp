//===- InductionLoop.cpp - rotated loops with a linear induction variable -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "InductionLoop.h"

#include "llvm/IR/Constants.h"

using namespace llvm;

namespace hroof {

std::optional<InductionLoop> matchInductionLoop(const Loop &L) {
  BasicBlock *Latch = L.getLoopLatch(), *Pred = L.getLoopPredecessor();
  if (!Latch || !Pred || L.getExitingBlock() != Latch)
    return std::nullopt;
  auto *BI = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!BI || !BI->isConditional())
    return std::nullopt;
  auto *Cmp = dyn_cast<ICmpInst>(BI->getCondition());
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return std::nullopt;
  InductionLoop R;
  R.Pred = L.contains(BI->getSuccessor(0)) ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Value *X = Cmp->getOperand(0);
  R.Bound = Cmp->getOperand(1);
  if (!L.isLoopInvariant(R.Bound)) {
    std::swap(X, R.Bound);
    R.Pred = CmpInst::getSwappedPredicate(R.Pred);
  }
  if (!L.isLoopInvariant(R.Bound))
    return std::nullopt;
  PHINode *Phi = dyn_cast<PHINode>(X);
  if (!Phi || Phi->getParent() != L.getHeader()) {
    Phi = nullptr;
    auto *Inc = dyn_cast<BinaryOperator>(X);
    if (!Inc || Inc->getOpcode() != Instruction::Add)
      return std::nullopt;
    for (int I = 0; I < 2; ++I) {
      auto *Ph = dyn_cast<PHINode>(Inc->getOperand(I));
      if (Ph && Ph->getParent() == L.getHeader() && L.isLoopInvariant(Inc->getOperand(1 - I)) &&
          Ph->getIncomingValueForBlock(Latch) == Inc) {
        Phi = Ph;
        R.Step = Inc->getOperand(1 - I);
      }
    }
    R.PostInc = true;
  } else {
    auto *Inc = dyn_cast<BinaryOperator>(Phi->getIncomingValueForBlock(Latch));
    if (!Inc || Inc->getOpcode() != Instruction::Add)
      return std::nullopt;
    for (int I = 0; I < 2; ++I)
      if (Inc->getOperand(I) == Phi && L.isLoopInvariant(Inc->getOperand(1 - I)))
        R.Step = Inc->getOperand(1 - I);
  }
  if (!Phi || !R.Step)
    return std::nullopt;
  R.Start = Phi->getIncomingValueForBlock(Pred);
  R.Width = Phi->getType()->getIntegerBitWidth();
  switch (R.Pred) {
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULT:
  case CmpInst::ICMP_ULE:
    break;
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_SGE:
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_UGE:
    R.Downward = true;
    break;
  case CmpInst::ICMP_NE: {
    // Only with a constant step, whose sign gives the direction.
    auto *C = dyn_cast<ConstantInt>(R.Step);
    if (!C || C->isZero())
      return std::nullopt;
    R.Downward = C->isNegative();
    break;
  }
  default:
    return std::nullopt;
  }
  R.Signed = CmpInst::isSigned(R.Pred) || R.Pred == CmpInst::ICMP_NE;
  return R;
}

} // namespace hroof
