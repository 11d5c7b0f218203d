//===- InductionLoop.cpp - rotated loops with a linear induction variable -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "InductionLoop.h"
#include "ExprBuilder.h"

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

/// The narrow form of matchPhiIncrement: ext(add nsw|nuw (trunc Phi, Step)).
static std::optional<PhiIncrement> matchWidenedIncrement(const Value *Next, const PHINode &Phi,
                                                         const Loop &L) {
  const auto *Ext = dyn_cast<CastInst>(Next);
  if (!Ext || (!isa<SExtInst>(Ext) && !isa<ZExtInst>(Ext)))
    return std::nullopt;
  bool Signed = isa<SExtInst>(Ext);
  const auto *Add = dyn_cast<BinaryOperator>(Ext->getOperand(0));
  if (!Add || Add->getOpcode() != Instruction::Add ||
      !(Signed ? Add->hasNoSignedWrap() : Add->hasNoUnsignedWrap()))
    return std::nullopt;
  unsigned Narrow = Add->getType()->getIntegerBitWidth();
  for (int I = 0; I < 2; ++I) {
    const auto *Tr = dyn_cast<TruncInst>(Add->getOperand(I));
    if (!Tr || Tr->getOperand(0) != &Phi || !L.isLoopInvariant(Add->getOperand(1 - I)))
      continue;
    // The phi's first value must be a narrow value extended the same way,
    // so that trunc(Phi) loses nothing on every iteration.
    const Value *Start = Phi.getIncomingValueForBlock(L.getLoopPredecessor());
    bool StartNarrow = false;
    if (const auto *C = dyn_cast<ConstantInt>(Start))
      StartNarrow = Signed ? C->getValue().isSignedIntN(Narrow) : C->getValue().isIntN(Narrow);
    else if (const auto *SX = dyn_cast<CastInst>(Start))
      StartNarrow = (Signed ? isa<SExtInst>(SX) : isa<ZExtInst>(SX)) &&
                    SX->getSrcTy()->getIntegerBitWidth() <= Narrow;
    if (!StartNarrow)
      return std::nullopt;
    return PhiIncrement{Add->getOperand(1 - I), Signed, false};
  }
  return std::nullopt;
}

std::optional<PhiIncrement> matchPhiIncrement(const Value *Next, const PHINode &Phi,
                                              const Loop &L) {
  if (!L.getLoopPredecessor() || Phi.getParent() != L.getHeader())
    return std::nullopt;
  const auto *Inc = dyn_cast<BinaryOperator>(Next);
  if (!Inc)
    return matchWidenedIncrement(Next, Phi, L);
  if (Inc->getOpcode() == Instruction::Sub && Inc->getOperand(0) == &Phi &&
      L.isLoopInvariant(Inc->getOperand(1)))
    return PhiIncrement{Inc->getOperand(1), true, true};
  if (Inc->getOpcode() != Instruction::Add)
    return std::nullopt;
  for (int I = 0; I < 2; ++I)
    if (Inc->getOperand(I) == &Phi && L.isLoopInvariant(Inc->getOperand(1 - I)))
      return PhiIncrement{Inc->getOperand(1 - I), true, false};
  return std::nullopt;
}

/// The header phi that \p Inc increments (Inc is its value from the latch).
static const PHINode *incrementedPhi(const Value *Inc, const Loop &L) {
  const Value *V = Inc;
  if (const auto *Ext = dyn_cast<CastInst>(V); Ext && (isa<SExtInst>(Ext) || isa<ZExtInst>(Ext)))
    V = Ext->getOperand(0);
  const auto *Add = dyn_cast<BinaryOperator>(V);
  if (!Add || Add->getOpcode() != Instruction::Add)
    return nullptr;
  for (const Value *Op : Add->operands()) {
    if (const auto *Tr = dyn_cast<TruncInst>(Op); Tr && V != Inc)
      Op = Tr->getOperand(0);
    const auto *Ph = dyn_cast<PHINode>(Op);
    if (Ph && Ph->getParent() == L.getHeader() &&
        Ph->getIncomingValueForBlock(L.getLoopLatch()) == Inc)
      return Ph;
  }
  return nullptr;
}

std::optional<InductionLoop> matchInductionLoop(const Loop &L) {
  auto T = matchLatchTest(L);
  if (!T)
    return std::nullopt;
  BasicBlock *Latch = L.getLoopLatch(), *Pred = L.getLoopPredecessor();
  InductionLoop R;
  R.Pred = T->Pred;
  R.Bound = T->Bound;
  // X is the variable (a header phi) or its next value (the phi's increment).
  auto VariableOf = [&](const Value *X, bool &PostInc) -> const PHINode * {
    const auto *Phi = dyn_cast<PHINode>(X);
    PostInc = !Phi || Phi->getParent() != L.getHeader();
    return PostInc ? incrementedPhi(X, L) : Phi;
  };
  const PHINode *Phi = VariableOf(T->X, R.PostInc);
  // Else maybe a narrow variable compared after extension: `int i` against
  // a size_t bound.
  std::optional<bool> XExt;
  if (!Phi && (isa<SExtInst>(T->X) || isa<ZExtInst>(T->X))) {
    XExt = isa<SExtInst>(T->X);
    Phi = VariableOf(cast<CastInst>(T->X)->getOperand(0), R.PostInc);
  }
  if (!Phi)
    return std::nullopt;
  auto Inc = matchPhiIncrement(Phi->getIncomingValueForBlock(Latch), *Phi, L);
  if (!Inc || Inc->Subtract)
    return std::nullopt;
  R.ExtSigned = Inc->StepSigned;
  if (XExt) {
    // ext(a + b) = ext(a) + ext(b) only if the narrow add cannot wrap; a
    // sign-extended one that can is kept for the unsigned-compare case
    // (NarrowWrapWidth, checked below).
    const auto *Add = dyn_cast<BinaryOperator>(Phi->getIncomingValueForBlock(Latch));
    if (!Add || Add->getType() != Phi->getType() || Add->getOpcode() != Instruction::Add)
      return std::nullopt;
    if (!(*XExt ? Add->hasNoSignedWrap() : Add->hasNoUnsignedWrap())) {
      if (!*XExt)
        return std::nullopt;
      R.NarrowWrapWidth = Add->getType()->getIntegerBitWidth();
    }
    R.ExtSigned = *XExt;
  }
  R.Step = Inc->Step;
  R.Start = Phi->getIncomingValueForBlock(Pred);
  R.Width = T->X->getType()->getIntegerBitWidth();
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
    if (!C || C->isZero() || (!R.ExtSigned && C->getType()->getIntegerBitWidth() < R.Width))
      return std::nullopt;
    R.Downward = C->isNegative();
    break;
  }
  default:
    return std::nullopt;
  }
  R.Signed = CmpInst::isSigned(R.Pred) || R.Pred == CmpInst::ICMP_NE;
  bool Widened = Inc->Step->getType()->getIntegerBitWidth() < Phi->getType()->getIntegerBitWidth();
  if (((XExt && *XExt) || (Widened && Inc->StepSigned)) && CmpInst::isUnsigned(R.Pred)) {
    if (R.Downward) // values that cross zero going down read as huge ones
      return std::nullopt;
    R.StopsAtNegative = true;
  }
  if (R.NarrowWrapWidth && !(R.StopsAtNegative && R.PostInc))
    return std::nullopt;
  return R;
}

/// Header executions of an upward post-increment loop whose N-bit
/// variable may wrap, read sign-extended against an unsigned bound B
/// (InductionLoop::NarrowWrapWidth): it tests v_1, v_2, ... with v_k =
/// sext_N(S + k*St), and a negative value ends it. From the first tested
/// value F = v_1 >= 0: with a step positive at width N the values grow
/// by St until they pass min(B, 2^(N-1)), the first value that would
/// wrap reading negative: ceildiv(min(B, 2^(N-1)) - F, St) tests pass.
/// A step that reads negative (a grid of 2^(N-1) threads or more) makes
/// the values fall by -St: F / -St + 1 tests pass (all below F), if F
/// does. Unsigned compares, so a bound of 2^63 or more reads right, up to
/// 2^64 - 2^(N-1): above that a negative value passes the test, which
/// this count (like StopsAtNegative's) does not follow.
JExpr wrappingTripCount(const InductionLoop &IL, JExpr SX, JExpr BX, JExpr StX, bool Inclusive) {
  unsigned N = IL.NarrowWrapWidth;
  if (Inclusive) // v <= B is v < B + 1 (B + 1 = 2^64 only for a loop that never ends)
    BX = jOp(ExprOp::Add, std::move(BX), 1);
  JExpr First = jExt(true, N, jOp(ExprOp::Add, std::move(SX), StX));
  JExpr Limit = jWOp(ExprOp::UMin, 64, BX, int64_t(1) << (N - 1));
  JExpr Up = json::Array{exprOpName(ExprOp::Select), jCmp(CmpPred::ULT, 64, First, Limit),
                         jOp(ExprOp::CeilDiv, jOp(ExprOp::Sub, Limit, First), StX), 0};
  JExpr Fall = jOp(ExprOp::Max, 1, jOp(ExprOp::Sub, 0, StX));
  JExpr Down = json::Array{exprOpName(ExprOp::Select), jCmp(CmpPred::ULT, 64, First, BX),
                           jOp(ExprOp::Add, jWOp(ExprOp::SDiv, 64, First, Fall), 1), 0};
  JExpr Passing = json::Array{exprOpName(ExprOp::Select), jCmp(CmpPred::SGT, 64, StX, 0),
                              std::move(Up), std::move(Down)};
  return json::Array{exprOpName(ExprOp::Select), jCmp(CmpPred::SLT, 64, First, 0), 1,
                     jOp(ExprOp::Add, 1, std::move(Passing))};
}

} // namespace hroof
