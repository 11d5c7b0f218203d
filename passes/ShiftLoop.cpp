//===- ShiftLoop.cpp - loops that halve or double their variable -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ShiftLoop.h"
#include "InductionLoop.h"

#include "llvm/IR/Constants.h"

using namespace llvm;

namespace hroof {

namespace {

/// log2 of a power-of-two constant \p V greater than 1, else 0.
unsigned log2OfPower(const Value *V) {
  const auto *C = dyn_cast<ConstantInt>(V);
  if (!C || !C->getValue().isPowerOf2() || C->getValue().isOne())
    return 0;
  return C->getValue().logBase2();
}

} // namespace

bool isShiftOf(const Value *V, const PHINode *Phi, bool &Right, unsigned &Shift) {
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || BO->getOperand(0) != Phi)
    return false;
  const Value *Amount = BO->getOperand(1);
  const auto *C = dyn_cast<ConstantInt>(Amount);
  switch (BO->getOpcode()) {
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::Shl:
    if (!C || C->isZero() || C->getValue().uge(BO->getType()->getIntegerBitWidth()))
      return false;
    Shift = unsigned(C->getZExtValue());
    Right = BO->getOpcode() != Instruction::Shl;
    return true;
  case Instruction::UDiv:
  case Instruction::SDiv:
  case Instruction::Mul:
    Shift = log2OfPower(Amount);
    Right = BO->getOpcode() != Instruction::Mul;
    return Shift != 0;
  default:
    return false;
  }
}

std::optional<ShiftLoop> matchShiftLoop(const Loop &L) {
  auto T = matchLatchTest(L);
  if (!T)
    return std::nullopt;
  BasicBlock *Latch = L.getLoopLatch(), *Pre = L.getLoopPredecessor();
  CmpInst::Predicate P = T->Pred;
  Value *X = T->X, *B = T->Bound;
  ShiftLoop R;
  for (PHINode &Phi : L.getHeader()->phis()) {
    if (!Phi.getType()->isIntegerTy() || Phi.getNumIncomingValues() != 2)
      continue;
    Value *Next = Phi.getIncomingValueForBlock(Latch);
    bool Right = true;
    unsigned Shift = 0;
    if ((X == &Phi || X == Next) && isShiftOf(Next, &Phi, Right, Shift)) {
      R.Phi = &Phi, R.Next = Next, R.Right = Right, R.Shift = Shift;
      R.PostInc = X == Next;
      break;
    }
  }
  if (!R.Phi)
    return std::nullopt;
  R.Start = R.Phi->getIncomingValueForBlock(Pre);
  R.Bound = B;
  R.Width = R.Phi->getType()->getIntegerBitWidth();
  auto *BO = cast<BinaryOperator>(R.Next);
  R.Signed = BO->getOpcode() == Instruction::AShr || BO->getOpcode() == Instruction::SDiv;
  switch (P) {
  case CmpInst::ICMP_NE: // only "!= 0" of a halving variable: > 0
    if (!R.Right || !isa<ConstantInt>(B) || !cast<ConstantInt>(B)->isZero())
      return std::nullopt;
    return R;
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_UGE:
  case CmpInst::ICMP_SGE:
    if (!R.Right)
      return std::nullopt;
    break;
  case CmpInst::ICMP_ULT:
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULE:
  case CmpInst::ICMP_SLE:
    if (R.Right)
      return std::nullopt;
    break;
  default:
    return std::nullopt;
  }
  R.Signed = R.Signed || CmpInst::isSigned(P);
  R.BoundPlusOne = !CmpInst::isStrictPredicate(P);
  return R;
}

bool leftShiftCannotWrap(const ShiftLoop &SL, const SCEV *Bound, ScalarEvolution &SE) {
  unsigned W = SL.Width;
  APInt Max = SL.Signed ? SE.getSignedRangeMax(Bound) : SE.getUnsignedRangeMax(Bound);
  APInt Lim = (SL.Signed ? APInt::getSignedMaxValue(W) : APInt::getMaxValue(W)).lshr(SL.Shift);
  if (!SL.BoundPlusOne) // s < Max: s <= Max - 1
    Lim = Lim + 1;
  return SL.Signed ? Max.sle(Lim) : Max.ule(Lim);
}

JExpr rightShiftCount(JExpr S0, JExpr B, unsigned C) {
  JExpr Q = jWOp(ExprOp::UDiv, 64, std::move(S0), jOp(ExprOp::Add, std::move(B), 1));
  JExpr Bits = json::Array{exprOpName(ExprOp::BitLen), std::move(Q)};
  return C == 1 ? Bits : jOp(ExprOp::CeilDiv, std::move(Bits), int64_t(C));
}

JExpr leftShiftCount(JExpr S0, JExpr B, unsigned C) {
  JExpr Ratio = jOp(ExprOp::Sub, jOp(ExprOp::CeilDiv, std::move(B), std::move(S0)), 1);
  JExpr Bits = json::Array{exprOpName(ExprOp::BitLen), std::move(Ratio)};
  return C == 1 ? Bits : jOp(ExprOp::CeilDiv, std::move(Bits), int64_t(C));
}

} // namespace hroof
