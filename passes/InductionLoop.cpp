//===- InductionLoop.cpp - rotated loops with a linear induction variable -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "InductionLoop.h"

#include "llvm/IR/Constants.h"

using namespace llvm;

namespace hroof {

std::optional<LatchTest> matchLatchTest(const Loop &L) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || !L.getLoopPredecessor() || L.getExitingBlock() != Latch)
    return std::nullopt;
  auto *BI = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!BI || !BI->isConditional())
    return std::nullopt;
  auto *Cmp = dyn_cast<ICmpInst>(BI->getCondition());
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return std::nullopt;
  LatchTest T;
  T.Pred = L.contains(BI->getSuccessor(0)) ? Cmp->getPredicate() : Cmp->getInversePredicate();
  T.X = Cmp->getOperand(0);
  T.Bound = Cmp->getOperand(1);
  if (!L.isLoopInvariant(T.Bound)) {
    std::swap(T.X, T.Bound);
    T.Pred = CmpInst::getSwappedPredicate(T.Pred);
  }
  if (!L.isLoopInvariant(T.Bound))
    return std::nullopt;
  return T;
}

std::optional<InductionLoop> matchInductionLoop(const Loop &L) {
  auto T = matchLatchTest(L);
  if (!T)
    return std::nullopt;
  BasicBlock *Latch = L.getLoopLatch(), *Pred = L.getLoopPredecessor();
  InductionLoop R;
  R.Pred = T->Pred;
  R.Bound = T->Bound;
  Value *X = T->X;
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
