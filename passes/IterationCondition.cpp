//===- IterationCondition.cpp - branches on a loop's iteration index ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "IterationCondition.h"
#include "ShiftLoop.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>

using namespace llvm;

namespace hroof {

namespace {

// Marker names: they start with '@', which no operator of the expression
// language does, so a marker that escaped would be rejected by every reader.
constexpr const char *BelowMarker = "@iter-below"; ///< k < H
constexpr const char *FromMarker = "@iter-from";   ///< k >= L
constexpr const char *LoopMarker = "@loop";        ///< ["@loop", id, lo, hi]

bool isLoopMarkerName(std::optional<StringRef> Op) { return Op && *Op == LoopMarker; }

/// The affine add-recurrence of \p L that \p V is, or null.
const SCEVAddRecExpr *affineIn(const Value *V, const Loop &L, ScalarEvolution &SE) {
  const SCEV *S = SE.getSCEVAtScope(SE.getSCEV(const_cast<Value *>(V)), &L);
  const auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  if (!AR || AR->getLoop() != &L || !AR->isAffine())
    return nullptr;
  return AR;
}

/// Whether \p V, in every iteration of \p L, is the exact integer its
/// recurrence gives (as a signed value, or with \p Unsigned as an unsigned
/// one): ScalarEvolution proves it, or V is an add or sub with the nsw (nuw)
/// flag, computed in every iteration, of such values and loop invariants. A wrap would make V poison and the branch on it (which runs
/// in every iteration too, see iterationAtom) undefined behaviour. This
/// recovers the copies of a loop body that unrolling made, whose
/// recurrences ScalarEvolution leaves without the flag.
bool exactEveryIteration(const Value *V, const Loop &L, ScalarEvolution &SE,
                         const DominatorTree &DT, bool Unsigned, unsigned Depth = 4) {
  if (L.isLoopInvariant(V))
    return true;
  const SCEVAddRecExpr *AR = affineIn(V, L, SE);
  if (!AR)
    return false;
  if (Unsigned ? AR->hasNoUnsignedWrap() : AR->hasNoSignedWrap())
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!Depth || !BO || !(Unsigned ? BO->hasNoUnsignedWrap() : BO->hasNoSignedWrap()) ||
      (BO->getOpcode() != Instruction::Add && BO->getOpcode() != Instruction::Sub) ||
      !L.getLoopLatch() || !DT.dominates(BO->getParent(), L.getLoopLatch()))
    return false;
  return exactEveryIteration(BO->getOperand(0), L, SE, DT, Unsigned, Depth - 1) &&
         exactEveryIteration(BO->getOperand(1), L, SE, DT, Unsigned, Depth - 1);
}

/// A compare of a halving loop variable v_k = S0 >> (c*k) (ShiftLoop.h), or
/// of its next value v_(k+1), with an invariant Y >= 0: v > Y holds while
/// k + j < N(Y), N the count of rightShiftCount; v <= Y from there on.
std::optional<JExpr> shiftAtom(const ICmpInst &Cmp, CmpInst::Predicate P, const Loop &L,
                               ScalarEvolution &SE, ExprBuilder &EB) {
  auto SL = matchShiftLoop(L);
  if (!SL || !SL->Right)
    return std::nullopt;
  const Value *X = Cmp.getOperand(0), *Y = Cmp.getOperand(1);
  if (X != SL->Phi && X != SL->Next) {
    std::swap(X, Y);
    P = CmpInst::getSwappedPredicate(P);
  }
  if ((X != SL->Phi && X != SL->Next) || !L.isLoopInvariant(Y))
    return std::nullopt;
  bool Below;
  switch (P) {
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_SGT:
    Below = true;
    break;
  case CmpInst::ICMP_ULE:
  case CmpInst::ICMP_SLE:
    Below = false;
    break;
  default:
    return std::nullopt;
  }
  bool Signed = SL->Signed || CmpInst::isSigned(P);
  if (Signed && !(SE.isKnownNonNegative(SE.getSCEV(SL->Start)) &&
                  SE.isKnownNonNegative(SE.getSCEV(const_cast<Value *>(Y)))))
    return std::nullopt;
  auto S = EB.build(SL->Start), B = EB.build(Y);
  if (!S || !B)
    return std::nullopt;
  unsigned W = SL->Width;
  JExpr N = rightShiftCount(jExt(Signed, W, std::move(*S)), jExt(Signed, W, std::move(*B)),
                            SL->Shift);
  if (X == SL->Next)
    N = jOp(ExprOp::Sub, std::move(N), 1);
  return json::Array{Below ? BelowMarker : FromMarker, std::move(N)};
}

} // namespace

std::optional<JExpr> iterationAtom(const Value *C, bool Polarity, const BasicBlock &Branch,
                                   const Loop &L, ScalarEvolution &SE, const DominatorTree &DT,
                                   ExprBuilder &EB) {
  const auto *Cmp = dyn_cast<ICmpInst>(C);
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return std::nullopt;
  // Up to 32 bits, a + s*k and b - a are exact in the evaluator's int64.
  unsigned W = Cmp->getOperand(0)->getType()->getIntegerBitWidth();
  if (W > 32)
    return std::nullopt;
  CmpInst::Predicate P = Polarity ? Cmp->getPredicate() : Cmp->getInversePredicate();
  const Value *X = Cmp->getOperand(0), *Y = Cmp->getOperand(1);
  const SCEVAddRecExpr *AR = affineIn(X, L, SE);
  if (!AR) {
    std::swap(X, Y);
    P = CmpInst::getSwappedPredicate(P);
    AR = affineIn(X, L, SE);
  }
  if (!AR)
    return shiftAtom(*Cmp, Polarity ? Cmp->getPredicate() : Cmp->getInversePredicate(), L, SE,
                     EB);
  // Compares of a recurrence that does not wrap: the compare is then one of
  // the exact integers a + s*k. Signed: no signed wrap. Unsigned: no
  // unsigned wrap (or no signed wrap and never negative), and both sides
  // read zero-extended (a bound that is negative as a signed value is large).
  bool Unsigned = CmpInst::isUnsigned(P);
  if (!CmpInst::isSigned(P) && !Unsigned)
    return std::nullopt;
  bool NoWrap = Unsigned ? AR->hasNoUnsignedWrap() ||
                               (AR->hasNoSignedWrap() && SE.isKnownNonNegative(AR))
                         : AR->hasNoSignedWrap();
  if (!NoWrap && !(L.getLoopLatch() && DT.dominates(&Branch, L.getLoopLatch()) &&
                   exactEveryIteration(X, L, SE, DT, Unsigned)))
    return std::nullopt;
  const auto *StepC = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  auto A = EB.build(AR->getStart());
  // Y must not move with L: a loop variable of L in it is an expression of
  // L's own iteration index now (ExprBuilder), not a fixed bound.
  if (!SE.isLoopInvariant(SE.getSCEV(const_cast<Value *>(Y)), &L))
    return std::nullopt;
  auto B = EB.build(Y); // data: nullopt
  if (!StepC || !A || !B)
    return std::nullopt;
  if (Unsigned)
    P = ICmpInst::getSignedPredicate(P); // on the zero-extended values
  int64_t S = StepC->getAPInt().getSExtValue();
  JExpr AX = jExt(!Unsigned, W, std::move(*A)), BX = jExt(!Unsigned, W, std::move(*B));
  // Every compare as c*k < D.
  int64_t Coef;
  JExpr D = 0;
  switch (P) {
  case CmpInst::ICMP_SLT: // a + s*k < b
    Coef = S, D = jOp(ExprOp::Sub, BX, AX);
    break;
  case CmpInst::ICMP_SLE: // a + s*k < b + 1
    Coef = S, D = jOp(ExprOp::Add, jOp(ExprOp::Sub, BX, AX), 1);
    break;
  case CmpInst::ICMP_SGT: // -s*k < a - b
    Coef = -S, D = jOp(ExprOp::Sub, AX, BX);
    break;
  case CmpInst::ICMP_SGE: // -s*k < a - b + 1
    Coef = -S, D = jOp(ExprOp::Add, jOp(ExprOp::Sub, AX, BX), 1);
    break;
  default:
    return std::nullopt;
  }
  if (Coef == 0)
    return std::nullopt;
  if (Coef > 0) // k < D/c  <=>  k < ceildiv(D, c)
    return json::Array{BelowMarker, jOp(ExprOp::CeilDiv, std::move(D), Coef)};
  // (-c)*k > -D  <=>  k > floor(-D / -c) = -ceildiv(D, -c)
  return json::Array{FromMarker, jOp(ExprOp::Sub, 1, jOp(ExprOp::CeilDiv, std::move(D), -Coef))};
}

bool isIterationAtom(const JExpr &E) {
  const json::Array *A = E.getAsArray();
  if (!A || A->empty())
    return false;
  auto Op = (*A)[0].getAsString();
  return Op && (*Op == BelowMarker || *Op == FromMarker);
}

void resolveIterationAtoms(std::vector<JExpr> &P, size_t TripIndex) {
  if (std::none_of(P.begin() + TripIndex + 1, P.end(), isIterationAtom))
    return;
  JExpr Hi = P[TripIndex], Lo = 0;
  std::vector<JExpr> Rest;
  for (size_t I = TripIndex + 1; I < P.size(); ++I) {
    if (!isIterationAtom(P[I])) {
      Rest.push_back(std::move(P[I]));
      continue;
    }
    const json::Array &M = *P[I].getAsArray();
    if (*M[0].getAsString() == BelowMarker)
      Hi = jOp(ExprOp::Min, std::move(Hi), M[1]);
    else
      Lo = jOp(ExprOp::Max, std::move(Lo), M[1]);
  }
  P.erase(P.begin() + TripIndex, P.end());
  // Iterations k in [max(0, L...), min(Trips, H...)), none if that is empty.
  if (TripIndex > 0)
    if (json::Array *M = P[TripIndex - 1].getAsArray();
        M && isLoopMarkerName((*M)[0].getAsString())) {
      (*M)[2] = Lo;
      (*M)[3] = Hi;
    }
  P.push_back(jOp(ExprOp::Max, 0, jOp(ExprOp::Sub, std::move(Hi), std::move(Lo))));
  for (JExpr &E : Rest)
    P.push_back(std::move(E));
}

JExpr loopMarker(int Id, JExpr Trips) { return json::Array{LoopMarker, Id, 0, std::move(Trips)}; }

std::vector<JExpr> foldIterationSums(std::vector<JExpr> P) {
  // Innermost loops come last: fold them first, so that an outer sum takes
  // the inner sums (which may use its variable) into its body.
  for (size_t I = P.size(); I-- > 0;) {
    const json::Array *M = P[I].getAsArray();
    if (!M || M->empty() || !isLoopMarkerName((*M)[0].getAsString()))
      continue;
    int64_t Id = *(*M)[1].getAsInteger();
    JExpr Lo = (*M)[2], Hi = (*M)[3];
    // P[I + 1] is the count of iterations in [Lo, Hi); the factors after it
    // that use k run inside the sum (in their order: conditions before the
    // counts they guard), the others multiply it.
    auto Uses = [Id](const JExpr &E) { return usesIterVar(E, int(Id)); };
    if (std::none_of(P.begin() + I + 2, P.end(), Uses)) {
      P.erase(P.begin() + I); // the count stays, with the factors after it
      continue;
    }
    std::optional<JExpr> Body;
    std::vector<JExpr> Outside;
    for (size_t J = I + 2; J < P.size(); ++J) {
      if (!Uses(P[J]))
        Outside.push_back(std::move(P[J]));
      else if (!Body)
        Body = std::move(P[J]);
      else
        Body = jOp(ExprOp::Mul, std::move(*Body), std::move(P[J]));
    }
    // The factors that do not use k go first: evaluators stop at the first
    // zero factor, and a guard that fails (a loop never entered) must keep
    // them from walking a sum over a range that only holds when it passes.
    P.erase(P.begin() + I, P.end());
    for (JExpr &E : Outside)
      P.push_back(std::move(E));
    P.push_back(json::Array{exprOpName(ExprOp::Sum), Id, std::move(Lo), std::move(Hi),
                            std::move(*Body)});
  }
  return P;
}

void windowAccessLoops(IRWarpAccess &W, const std::vector<std::vector<JExpr>> &Products,
                       const ExprBuilder &EB) {
  if (!W.Unmodelled.empty() || !W.Offset)
    return;
  struct Cut {
    const Loop *L;
    JExpr Lo, Hi;
  };
  std::vector<Cut> Cuts;
  for (const std::vector<JExpr> &P : Products)
    for (size_t I = 0; I + 1 < P.size(); ++I) {
      const json::Array *M = P[I].getAsArray();
      if (!M || M->size() != 4 || !isLoopMarkerName((*M)[0].getAsString()))
        continue;
      if ((*M)[2] == JExpr(0) && P[I + 1] == (*M)[3])
        continue; // every iteration runs the access
      Cuts.push_back({EB.loopOfIterVar(int((*M)[1].getAsInteger().value_or(-1))), (*M)[2], (*M)[3]});
    }
  if (Cuts.empty())
    return;
  auto Leave = [&](const char *Why) {
    W.Unmodelled = Why;
    W.Offset.reset();
    W.Loops.clear();
  };
  const Cut &C = Cuts[0];
  if (Cuts.size() > 1 || Products.size() > 1 || !C.L)
    return Leave("conditions on loop variables cut its iterations in more than one way");
  if (usesIterVar(C.Lo, -1) || usesIterVar(C.Hi, -1))
    return Leave("a condition on a loop variable cuts its iterations at bounds that move "
                 "with another loop");
  if (!W.Loops.empty() && W.Loops[0].L == C.L) {
    W.Loops[0].First = C.Lo;
    W.Loops[0].Trips = C.Hi;
    return;
  }
  bool Inner = W.Loops.empty() ||
               (W.Loops[0].IterVar < 0 && W.Loops[0].L && W.Loops[0].L != C.L &&
                W.Loops[0].L->contains(C.L));
  if (!Inner)
    return Leave("a condition on a loop variable cuts the iterations of a loop other than the "
                 "innermost one that moves its address");
  W.Loops.insert(W.Loops.begin(), IRWarpLoop{JExpr(0), C.Hi, -1, C.Lo, C.L});
}

void enumerateAddressLoop(IRWarpAccess &W, const Loop *Innermost, const ExprBuilder &EB,
                          function_ref<std::optional<JExpr>(Loop *)> TripCount) {
  if (!W.Unmodelled.empty() || !W.Offset || !W.Loops.empty() || !Innermost)
    return;
  std::set<int64_t> Read;
  collectIterVars(*W.Offset, Read);
  if (Read.size() != 1 || EB.loopOfIterVar(int(*Read.begin())) != Innermost)
    return;
  std::optional<JExpr> Trips = TripCount(const_cast<Loop *>(Innermost));
  if (!Trips || usesIterVar(*Trips, -1))
    return;
  W.Loops.push_back({JExpr(0), std::move(*Trips), int(*Read.begin()), std::nullopt, Innermost});
}

/// The warp-level model describes an access by its address's steps over
/// a rectangular nest of loops and one multiplicity per lane; an access
/// whose multiplicity is summed over a loop's iterations, or whose loops or
/// address use a loop variable that way, is left to the bounds. The one
/// exception: an offset that reads the index of its enumerated loop
/// (IRWarpLoop::IterVar).
void leaveSummedAccessOut(IRWarpAccess &W) {
  if (!W.Unmodelled.empty())
    return;
  bool Summed = std::any_of(W.Alternatives.begin(), W.Alternatives.end(), [](const auto &P) {
    return std::any_of(P.begin(), P.end(), [](const JExpr &E) { return containsSum(E); });
  });
  std::set<int64_t> Read;
  if (W.Offset)
    collectIterVars(*W.Offset, Read);
  if (W.Loops.size() == 1 && W.Loops[0].IterVar >= 0)
    Read.erase(W.Loops[0].IterVar);
  bool Uses = !Read.empty();
  for (const IRWarpLoop &L : W.Loops)
    Uses |= usesIterVar(L.Step, -1) || usesIterVar(L.Trips, -1) ||
            (L.First && usesIterVar(*L.First, -1));
  if (!Summed && !Uses)
    return;
  W.Unmodelled = Summed ? "it runs a number of times summed over a loop's iterations "
                          "(a triangular loop or a branch on a loop variable)"
                        : "its loops or address depend on an enclosing loop's variable";
  W.Offset.reset();
}

} // namespace hroof
