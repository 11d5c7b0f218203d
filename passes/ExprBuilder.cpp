//===- ExprBuilder.cpp - IR values and SCEVs as launch-time expressions ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ExprBuilder.h"

#include "Counting.h"
#include "InductionLoop.h"
#include "hroof/Expr.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <algorithm>

using namespace llvm;
using json::Array;

namespace hroof {

JExpr jOp(ExprOp Op, JExpr A, JExpr B) { return Array{exprOpName(Op), std::move(A), std::move(B)}; }
JExpr jWOp(ExprOp Op, unsigned W, JExpr A, JExpr B) {
  return Array{exprOpName(Op), W, std::move(A), std::move(B)};
}
JExpr jExt(bool Signed, unsigned W, JExpr A) {
  if (W >= 64)
    return A;
  return Array{exprOpName(Signed ? ExprOp::SExt : ExprOp::ZExt), W, std::move(A)};
}
JExpr jCmp(CmpPred Pred, unsigned W, JExpr A, JExpr B) {
  return Array{exprOpName(ExprOp::ICmp), predName(Pred), W, std::move(A), std::move(B)};
}

static std::optional<const char *> sregName(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return "tid.x";
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    return "tid.y";
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return "tid.z";
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    return "ntid.x";
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    return "ntid.y";
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    return "ntid.z";
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    return "ctaid.x";
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    return "ctaid.y";
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    return "ctaid.z";
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    return "nctaid.x";
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    return "nctaid.y";
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return "nctaid.z";
  default:
    return std::nullopt;
  }
}

/// The static model's predicate for an integer compare; nullopt for FP ones.
static std::optional<CmpPred> cmpPred(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_EQ:
    return CmpPred::EQ;
  case CmpInst::ICMP_NE:
    return CmpPred::NE;
  case CmpInst::ICMP_SLT:
    return CmpPred::SLT;
  case CmpInst::ICMP_SLE:
    return CmpPred::SLE;
  case CmpInst::ICMP_SGT:
    return CmpPred::SGT;
  case CmpInst::ICMP_SGE:
    return CmpPred::SGE;
  case CmpInst::ICMP_ULT:
    return CmpPred::ULT;
  case CmpInst::ICMP_ULE:
    return CmpPred::ULE;
  case CmpInst::ICMP_UGT:
    return CmpPred::UGT;
  case CmpInst::ICMP_UGE:
    return CmpPred::UGE;
  default:
    return std::nullopt;
  }
}

std::optional<JExpr> ExprBuilder::build(const Value *V) {
  auto It = Cache.find(V);
  if (It != Cache.end())
    return It->second;
  auto SIt = ScopedCache.find(V);
  if (SIt != ScopedCache.end() && SIt->second.first == Scope) {
    ReachedLoopPhi = true;
    return SIt->second.second;
  }
  if (!InProgress.insert(V).second) {
    ReachedLoopPhi = true; // a cycle through phis: a loop variable
    return std::nullopt;
  }
  bool Outer = ReachedLoopPhi;
  ReachedLoopPhi = false;
  std::optional<JExpr> R = buildUncached(V);
  InProgress.erase(V);
  if (!ReachedLoopPhi)
    Cache[V] = R;
  else
    ScopedCache[V] = {Scope, R};
  ReachedLoopPhi |= Outer;
  return R;
}

JExpr jIterVar(int Id) { return Array{exprOpName(ExprOp::IterVar), Id}; }

bool usesIterVar(const JExpr &E, int Id) {
  const json::Array *A = E.getAsArray();
  if (!A || A->empty())
    return false;
  auto Op = (*A)[0].getAsString();
  if (Op && *Op == exprOpName(ExprOp::IterVar))
    return Id < 0 || (*A)[1].getAsInteger() == Id;
  for (size_t K = 1; K < A->size(); ++K)
    if (usesIterVar((*A)[K], Id))
      return true;
  return false;
}

void collectIterVars(const JExpr &E, std::set<int64_t> &Out) {
  const json::Array *A = E.getAsArray();
  if (!A || A->empty())
    return;
  auto Op = (*A)[0].getAsString();
  if (Op && *Op == exprOpName(ExprOp::IterVar)) {
    if (auto Id = (*A)[1].getAsInteger())
      Out.insert(*Id);
    return;
  }
  for (size_t K = 1; K < A->size(); ++K)
    collectIterVars((*A)[K], Out);
}

static bool hasFreeIterVar(const JExpr &E, std::vector<int64_t> &Bound) {
  const json::Array *A = E.getAsArray();
  if (!A || A->empty())
    return false;
  auto Op = (*A)[0].getAsString();
  if (Op && *Op == exprOpName(ExprOp::IterVar)) {
    auto Id = (*A)[1].getAsInteger();
    return !Id || std::find(Bound.begin(), Bound.end(), *Id) == Bound.end();
  }
  if (Op && *Op == exprOpName(ExprOp::Sum) && A->size() == 5) {
    if (hasFreeIterVar((*A)[2], Bound) || hasFreeIterVar((*A)[3], Bound))
      return true;
    Bound.push_back((*A)[1].getAsInteger().value_or(-1));
    bool R = hasFreeIterVar((*A)[4], Bound);
    Bound.pop_back();
    return R;
  }
  for (size_t K = 1; K < A->size(); ++K)
    if (hasFreeIterVar((*A)[K], Bound))
      return true;
  return false;
}

bool hasFreeIterVar(const JExpr &E) {
  std::vector<int64_t> Bound;
  return hasFreeIterVar(E, Bound);
}

bool containsSum(const JExpr &E) {
  const json::Array *A = E.getAsArray();
  if (!A || A->empty())
    return false;
  auto Op = (*A)[0].getAsString();
  if (Op && *Op == exprOpName(ExprOp::Sum))
    return true;
  for (size_t K = 1; K < A->size(); ++K)
    if (containsSum((*A)[K]))
      return true;
  return false;
}

/// The value of header phi \p Phi of bound loop \p L at iteration k: a
/// linear induction variable is Start + Step*k, a shifted one Start shifted
/// by C*k bits. Both are exact modulo 2^W, like the IR (the evaluator's
/// int64 holds the low bits).
/// start + step * \p Moves (start - ... for a subtracting phi): the value of
/// header phi \p Phi of \p L after that many increments, the step widened to
/// the phi's width as the increment widens it.
std::optional<JExpr> ExprBuilder::afterSteps(const PHINode &Phi, const PhiIncrement &Inc,
                                             const Loop &L, JExpr Moves) {
  auto Start = build(Phi.getIncomingValueForBlock(L.getLoopPredecessor())), Step = build(Inc.Step);
  if (!Start || !Step)
    return std::nullopt;
  unsigned W = Phi.getType()->getIntegerBitWidth(), StepW = Inc.Step->getType()->getIntegerBitWidth();
  JExpr StepX = StepW < W ? jExt(Inc.StepSigned, StepW, std::move(*Step)) : std::move(*Step);
  return jOp(Inc.Subtract ? ExprOp::Sub : ExprOp::Add, std::move(*Start),
             jOp(ExprOp::Mul, std::move(StepX), std::move(Moves)));
}

std::optional<JExpr> ExprBuilder::buildLoopVariable(const PHINode &Phi, const Loop &L) {
  auto Id = IterVars.find(&L);
  const BasicBlock *Pre = L.getLoopPredecessor(), *Latch = L.getLoopLatch();
  if (Id == IterVars.end() || !Pre || !Latch || Phi.getNumIncomingValues() != 2)
    return std::nullopt;
  JExpr K = jIterVar(Id->second);
  unsigned W = Phi.getType()->getIntegerBitWidth();
  if (auto Inc = matchPhiIncrement(Phi.getIncomingValueForBlock(Latch), Phi, L))
    return afterSteps(Phi, *Inc, L, std::move(K));
  // A shift by a constant each iteration.
  const auto *Next = dyn_cast<BinaryOperator>(Phi.getIncomingValueForBlock(Latch));
  if (!Next || Next->getOperand(0) != &Phi || !isa<ConstantInt>(Next->getOperand(1)))
    return std::nullopt;
  const Value *StepV = Next->getOperand(1);
  auto Start = build(Phi.getIncomingValueForBlock(Pre));
  if (!Start)
    return std::nullopt;
  switch (Next->getOpcode()) {
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::Shl: {
    // Shifting by c k times is one shift by c*k, for constant c < W (a
    // shift by W or more is poison in the IR): LShr/AShr saturate at width
    // W and Shl at 64 bits, which is 0 modulo 2^W as well.
    const auto *C = dyn_cast<ConstantInt>(StepV);
    if (!C || C->getZExtValue() == 0 || C->getZExtValue() >= W)
      return std::nullopt;
    // The amount is clamped: the evaluator reads a shift amount modulo 2^W
    // (an i8 shifted by 256 would read as a shift by 0).
    bool Left = Next->getOpcode() == Instruction::Shl;
    JExpr By = jOp(ExprOp::Min, jOp(ExprOp::Mul, int64_t(C->getZExtValue()), std::move(K)),
                   int64_t(Left ? 64 : W));
    if (Left)
      return jOp(ExprOp::Shl, std::move(*Start), std::move(By));
    return jWOp(Next->getOpcode() == Instruction::LShr ? ExprOp::LShr : ExprOp::AShr, W,
                std::move(*Start), std::move(By));
  }
  default:
    return std::nullopt;
  }
}

/// An integer binary operator of width \p W.
std::optional<JExpr> ExprBuilder::buildBinary(const BinaryOperator *BO, unsigned W) {
  auto A = build(BO->getOperand(0)), B = build(BO->getOperand(1));
  if (!A || !B)
    return std::nullopt;
  switch (BO->getOpcode()) {
  case Instruction::Add:
    return jOp(ExprOp::Add, std::move(*A), std::move(*B));
  case Instruction::Sub:
    return jOp(ExprOp::Sub, std::move(*A), std::move(*B));
  case Instruction::Mul:
    return jOp(ExprOp::Mul, std::move(*A), std::move(*B));
  case Instruction::Shl:
    return jOp(ExprOp::Shl, std::move(*A), std::move(*B));
  case Instruction::And:
    return jOp(ExprOp::And, std::move(*A), std::move(*B));
  case Instruction::Or:
    return jOp(ExprOp::Or, std::move(*A), std::move(*B));
  case Instruction::Xor:
    if (W == 1) // i1 xor: keep it 0/1
      return jWOp(ExprOp::URem, 64, jOp(ExprOp::Add, std::move(*A), std::move(*B)), 2);
    return jOp(ExprOp::Xor, std::move(*A), std::move(*B));
  case Instruction::UDiv:
    return jWOp(ExprOp::UDiv, W, std::move(*A), std::move(*B));
  case Instruction::SDiv:
    return jWOp(ExprOp::SDiv, W, std::move(*A), std::move(*B));
  case Instruction::URem:
    return jWOp(ExprOp::URem, W, std::move(*A), std::move(*B));
  case Instruction::SRem:
    return jWOp(ExprOp::SRem, W, std::move(*A), std::move(*B));
  case Instruction::LShr:
    return jWOp(ExprOp::LShr, W, std::move(*A), std::move(*B));
  case Instruction::AShr:
    return jWOp(ExprOp::AShr, W, std::move(*A), std::move(*B));
  default:
    return std::nullopt;
  }
}

JExpr laneIdExpr() {
  // Lanes are assigned in order of the linear thread index in the block.
  auto S = [](const char *R) { return JExpr(Array{exprOpName(ExprOp::SReg), R}); };
  JExpr Linear =
      jOp(ExprOp::Add, S("tid.x"),
          jOp(ExprOp::Mul, S("ntid.x"),
              jOp(ExprOp::Add, S("tid.y"), jOp(ExprOp::Mul, S("ntid.y"), S("tid.z")))));
  return jWOp(ExprOp::URem, 32, std::move(Linear), 32);
}

std::optional<JExpr> ExprBuilder::buildUncached(const Value *V) {
  if (!V->getType()->isIntegerTy() || V->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  unsigned W = V->getType()->getIntegerBitWidth();
  if (const auto *C = dyn_cast<ConstantInt>(V))
    return W == 1 ? JExpr(int64_t(C->getZExtValue())) : JExpr(C->getSExtValue());
  if (const auto *A = dyn_cast<Argument>(V)) {
    if (A->getParent() != &F)
      return std::nullopt;
    return Array{exprOpName(ExprOp::Arg), int64_t(A->getArgNo())};
  }
  if (const auto *L = dyn_cast<LoadInst>(V))
    return buildByValField(*L);
  auto LaneId = laneIdExpr;
  if (const auto *CI = dyn_cast<CallInst>(V))
    if (const auto *IA = dyn_cast<InlineAsm>(CI->getCalledOperand())) {
      // CUB and friends read the lane index with inline asm.
      StringRef A = StringRef(IA->getAsmString()).trim();
      if (A == "mov.u32 $0, %laneid;" || A == "mov.u32 $0, %laneid")
        return LaneId();
      return std::nullopt;
    }
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    if (auto N = sregName(II->getIntrinsicID()))
      return Array{exprOpName(ExprOp::SReg), *N};
    if (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_warpsize)
      return JExpr(32);
    if (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_laneid)
      return LaneId();
    auto Bin = [&](ExprOp Op) -> std::optional<JExpr> {
      auto A = build(II->getArgOperand(0)), B = build(II->getArgOperand(1));
      if (!A || !B)
        return std::nullopt;
      return jWOp(Op, W, std::move(*A), std::move(*B));
    };
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin:
      return Bin(ExprOp::SMin);
    case Intrinsic::smax:
      return Bin(ExprOp::SMax);
    case Intrinsic::umin:
      return Bin(ExprOp::UMin);
    case Intrinsic::umax:
      return Bin(ExprOp::UMax);
    default:
      return std::nullopt;
    }
  }
  if (const auto *Fr = dyn_cast<FreezeInst>(V))
    return build(Fr->getOperand(0));
  if (const auto *BO = dyn_cast<BinaryOperator>(V))
    return buildBinary(BO, W);
  if (const auto *C = dyn_cast<CastInst>(V)) {
    if (!C->getSrcTy()->isIntegerTy())
      return std::nullopt;
    auto A = build(C->getOperand(0));
    if (!A)
      return std::nullopt;
    unsigned SW = C->getSrcTy()->getIntegerBitWidth();
    switch (C->getOpcode()) {
    case Instruction::SExt:
      // i1 true sign-extends to -1.
      return jExt(true, SW, std::move(*A));
    case Instruction::ZExt:
      return jExt(false, SW, std::move(*A));
    case Instruction::Trunc:
      return A; // later width-aware uses truncate
    default:
      return std::nullopt;
    }
  }
  if (const auto *Cmp = dyn_cast<ICmpInst>(V)) {
    std::optional<CmpPred> P = cmpPred(Cmp->getPredicate());
    if (!P || !Cmp->getOperand(0)->getType()->isIntegerTy())
      return std::nullopt;
    auto A = build(Cmp->getOperand(0)), B = build(Cmp->getOperand(1));
    if (!A || !B)
      return std::nullopt;
    return jCmp(*P, Cmp->getOperand(0)->getType()->getIntegerBitWidth(), std::move(*A),
                std::move(*B));
  }
  if (const auto *S = dyn_cast<SelectInst>(V)) {
    auto C = build(S->getCondition()), A = build(S->getTrueValue()), B = build(S->getFalseValue());
    if (!C || !A || !B)
      return std::nullopt;
    return Array{exprOpName(ExprOp::Select), std::move(*C), std::move(*A), std::move(*B)};
  }
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    if (const Loop *L = LI ? LI->getLoopFor(Phi->getParent()) : nullptr;
        L && L->getHeader() == Phi->getParent()) {
      ReachedLoopPhi = true;
      if (auto R = buildLoopVariable(*Phi, *L))
        return R;
    }
    // A phi whose incoming values are all the same expression...
    std::optional<JExpr> Same;
    for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
      auto E = buildIncoming(*Phi, I);
      if (!E || (Same && *Same != *E)) {
        Same.reset();
        break;
      }
      Same = std::move(E);
    }
    if (Same)
      return Same;
    // ...or that merges the two sides of one branch.
    return buildTwoWayPhi(*Phi);
  }
  return std::nullopt;
}

/// A load of an integer field of one of this kernel's by-value struct
/// arguments, at a constant offset, where the kernel never writes that
/// argument: the bytes are the ones the host passed at launch, the same in
/// every thread, so the value is a launch parameter like a scalar argument
/// (["field", I, OFF, W]). Any other load is data.
std::optional<JExpr> ExprBuilder::buildByValField(const LoadInst &L) {
  if (!L.getType()->isIntegerTy()) // a float or pointer field is no launch parameter here
    return std::nullopt;
  unsigned W = L.getType()->getIntegerBitWidth();
  if (F.getCallingConv() != CallingConv::PTX_Kernel || !L.isSimple() || W % 8 != 0 || W > 64)
    return std::nullopt;
  const DataLayout &DL = F.getParent()->getDataLayout();
  APInt Off(DL.getIndexTypeSizeInBits(L.getPointerOperand()->getType()), 0);
  const auto *A = dyn_cast<Argument>(L.getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Off, /*AllowNonInbounds=*/true));
  if (!A || A->getParent() != &F || !A->hasByValAttr() || Off.isNegative() ||
      !isReadOnlyKernelParam(*A))
    return std::nullopt;
  uint64_t Size = DL.getTypeAllocSize(A->getParamByValType()).getFixedValue();
  if (Off.getZExtValue() + W / 8 > Size)
    return std::nullopt;
  return Array{exprOpName(ExprOp::Field), int64_t(A->getArgNo()), int64_t(Off.getZExtValue()),
               int64_t(W)};
}

/// Incoming value \p I of \p Phi, as read at the phi. A value of a loop
/// that does not contain the phi is read after that loop: its exit value.
std::optional<JExpr> ExprBuilder::buildIncoming(const PHINode &Phi, unsigned I) {
  const Value *In = Phi.getIncomingValue(I);
  const auto *Def = dyn_cast<Instruction>(In);
  const Loop *DefLoop = Def && LI ? LI->getLoopFor(Def->getParent()) : nullptr;
  if (!DefLoop || DefLoop->contains(Phi.getParent()) || !SE || !In->getType()->isIntegerTy())
    return build(In);
  ReachedLoopPhi = true; // the exit value's form depends on the loops bound
  const SCEV *Exit = SE->getSCEVAtScope(SE->getSCEV(const_cast<Value *>(In)),
                                        LI->getLoopFor(Phi.getParent()));
  // An add-recurrence of the loop left means its trip count is unknown.
  if (isa<SCEVCouldNotCompute>(Exit) || SCEVExprContains(Exit, [&](const SCEV *X) {
        const auto *AR = dyn_cast<SCEVAddRecExpr>(X);
        return AR && !AR->getLoop()->contains(Phi.getParent());
      }))
    return buildExitValue(In, *DefLoop, Phi.getIncomingBlock(I));
  return build(Exit);
}

/// The value \p In of loop \p L (a header phi or its increment) as it
/// leaves L from its latch \p From, the loop's only exit: start + step *
/// (trips - 1) for the phi, start + step * trips for the increment, with
/// trips the header executions per entry (TripCounts). The same width
/// convention as the loop variable's (buildLoopVariable): a value whose
/// low bits are the IR value's.
std::optional<JExpr> ExprBuilder::buildExitValue(const Value *In, const Loop &L,
                                                 const BasicBlock *From) {
  const BasicBlock *Pre = L.getLoopPredecessor(), *Latch = L.getLoopLatch();
  if (!TripCounts || !Pre || !Latch || From != Latch || L.getExitingBlock() != Latch ||
      LI->getLoopFor(Latch) != &L)
    return std::nullopt;
  const PHINode *Phi = dyn_cast<PHINode>(In);
  bool Incremented = !Phi || Phi->getParent() != L.getHeader();
  if (Incremented) {
    Phi = nullptr;
    for (const PHINode &P : L.getHeader()->phis())
      if (P.getIncomingValueForBlock(Latch) == In)
        Phi = &P;
  }
  if (!Phi || !Phi->getType()->isIntegerTy())
    return std::nullopt;
  auto Inc = matchPhiIncrement(Phi->getIncomingValueForBlock(Latch), *Phi, L);
  if (!Inc)
    return std::nullopt;
  auto Trips = TripCounts(&L);
  if (!Trips)
    return std::nullopt;
  return afterSteps(*Phi, *Inc, L,
                    Incremented ? std::move(*Trips) : jOp(ExprOp::Sub, std::move(*Trips), 1));
}

/// A phi in block B whose two incoming edges are each reached through one
/// side of the conditional branch that ends B's immediate dominator D (in
/// the same loop as B): the value is select(D's condition, one, other).
std::optional<JExpr> ExprBuilder::buildTwoWayPhi(const PHINode &Phi) {
  if (!DT || !LI || Phi.getNumIncomingValues() != 2)
    return std::nullopt;
  const BasicBlock *B = Phi.getParent();
  const DomTreeNode *N = DT->getNode(B);
  const BasicBlock *D = N && N->getIDom() ? N->getIDom()->getBlock() : nullptr;
  const auto *BI = D ? dyn_cast<BranchInst>(D->getTerminator()) : nullptr;
  if (!BI || !BI->isConditional() || BI->getSuccessor(0) == BI->getSuccessor(1) ||
      LI->getLoopFor(D) != LI->getLoopFor(B))
    return std::nullopt;
  // Side S of the branch for incoming block P: the edge D -> succ(S)
  // dominates P, or P is D itself and the edge is D -> B.
  auto SideOf = [&](const BasicBlock *P) -> int {
    for (int S = 0; S < 2; ++S) {
      const BasicBlock *Succ = BI->getSuccessor(S);
      if (P == D ? Succ == B : DT->dominates(BasicBlockEdge(D, Succ), P))
        return S;
    }
    return -1;
  };
  int S0 = SideOf(Phi.getIncomingBlock(0)), S1 = SideOf(Phi.getIncomingBlock(1));
  if (S0 < 0 || S1 < 0 || S0 == S1)
    return std::nullopt;
  auto C = build(BI->getCondition());
  auto V0 = buildIncoming(Phi, 0), V1 = buildIncoming(Phi, 1);
  if (!C || !V0 || !V1)
    return std::nullopt;
  // Successor 0 is taken when the condition holds.
  JExpr Taken = S0 == 0 ? std::move(*V0) : std::move(*V1);
  JExpr NotTaken = S0 == 0 ? std::move(*V1) : std::move(*V0);
  return Array{exprOpName(ExprOp::Select), jExt(false, 1, std::move(*C)), std::move(Taken),
               std::move(NotTaken)};
}

std::optional<JExpr> ExprBuilder::build(const SCEV *S) {
  unsigned W = S->getType()->isIntegerTy() ? S->getType()->getIntegerBitWidth() : 0;
  if (!W || W > 64)
    return std::nullopt;
  if (const auto *C = dyn_cast<SCEVConstant>(S))
    return JExpr(C->getAPInt().getSExtValue());
  if (const auto *U = dyn_cast<SCEVUnknown>(S))
    return build(U->getValue());
  if (const auto *C = dyn_cast<SCEVCastExpr>(S)) {
    auto A = build(C->getOperand(0));
    if (!A)
      return std::nullopt;
    unsigned SW = C->getOperand(0)->getType()->getIntegerBitWidth();
    switch (S->getSCEVType()) {
    case scTruncate:
      return A;
    case scZeroExtend:
      return jExt(false, SW, std::move(*A));
    case scSignExtend:
      return jExt(true, SW, std::move(*A));
    default:
      return std::nullopt;
    }
  }
  if (const auto *D = dyn_cast<SCEVUDivExpr>(S)) {
    auto A = build(D->getLHS()), B = build(D->getRHS());
    if (!A || !B)
      return std::nullopt;
    return jWOp(ExprOp::UDiv, W, std::move(*A), std::move(*B));
  }
  if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
    // {Start,+,Step} of a loop bound to a sum: Start + Step*k, modulo 2^W.
    auto Id = IterVars.find(AR->getLoop());
    if (Id == IterVars.end() || !AR->isAffine())
      return std::nullopt;
    ReachedLoopPhi = true;
    auto Start = build(AR->getStart()), Step = build(AR->getOperand(1));
    if (!Start || !Step)
      return std::nullopt;
    return jOp(ExprOp::Add, std::move(*Start),
               jOp(ExprOp::Mul, std::move(*Step), jIterVar(Id->second)));
  }
  if (const auto *N = dyn_cast<SCEVNAryExpr>(S)) {
    ExprOp Op;
    bool Width = true;
    switch (S->getSCEVType()) {
    case scAddExpr:
      Op = ExprOp::Add;
      Width = false;
      break;
    case scMulExpr:
      Op = ExprOp::Mul;
      Width = false;
      break;
    case scSMaxExpr:
      Op = ExprOp::SMax;
      break;
    case scUMaxExpr:
      Op = ExprOp::UMax;
      break;
    case scSMinExpr:
      Op = ExprOp::SMin;
      break;
    case scUMinExpr:
    case scSequentialUMinExpr:
      Op = ExprOp::UMin;
      break;
    default:
      return std::nullopt;
    }
    std::optional<JExpr> Acc;
    for (const SCEV *O : N->operands()) {
      auto E = build(O);
      if (!E)
        return std::nullopt;
      if (!Acc)
        Acc = std::move(E);
      else
        Acc = Width ? jWOp(Op, W, std::move(*Acc), std::move(*E))
                    : jOp(Op, std::move(*Acc), std::move(*E));
    }
    return Acc;
  }
  return std::nullopt;
}

/// A kernel's pointer argument (its value at launch, as a 64-bit integer) or
/// null: what `if (bias != nullptr)` compares. Other pointers are addresses
/// the model does not know.
std::optional<JExpr> ExprBuilder::buildPointer(const Value *V) {
  if (isa<ConstantPointerNull>(V))
    return JExpr(0);
  const auto *A = dyn_cast<Argument>(V);
  if (!A || A->getParent() != &F || F.getCallingConv() != CallingConv::PTX_Kernel ||
      A->hasByValAttr() || F.getParent()->getDataLayout().getPointerSizeInBits(
                               V->getType()->getPointerAddressSpace()) != 64)
    return std::nullopt;
  return Array{exprOpName(ExprOp::Arg), int64_t(A->getArgNo())};
}

std::optional<JExpr> ExprBuilder::condition(const Value *C, bool Polarity) {
  if (const auto *Cmp = dyn_cast<ICmpInst>(C)) {
    CmpInst::Predicate P = Polarity ? Cmp->getPredicate() : Cmp->getInversePredicate();
    std::optional<CmpPred> Pred = cmpPred(P);
    if (!Pred)
      return std::nullopt;
    if (Cmp->getOperand(0)->getType()->isPointerTy()) {
      auto A = buildPointer(Cmp->getOperand(0)), B = buildPointer(Cmp->getOperand(1));
      if (!A || !B)
        return std::nullopt;
      return jCmp(*Pred, 64, std::move(*A), std::move(*B));
    }
    if (!Cmp->getOperand(0)->getType()->isIntegerTy())
      return std::nullopt;
    auto A = build(Cmp->getOperand(0)), B = build(Cmp->getOperand(1));
    if (!A || !B)
      return std::nullopt;
    return jCmp(*Pred, Cmp->getOperand(0)->getType()->getIntegerBitWidth(), std::move(*A),
                std::move(*B));
  }
  auto E = build(C);
  if (!E)
    return std::nullopt;
  if (Polarity)
    return jExt(false, 1, std::move(*E));
  return Array{exprOpName(ExprOp::Not), jExt(false, 1, std::move(*E))};
}

bool substituteArgs(JExpr &E, const std::vector<std::optional<JExpr>> &Args) {
  json::Array *A = E.getAsArray();
  if (!A || A->empty())
    return true;
  auto Op = (*A)[0].getAsString();
  if (Op && *Op == exprOpName(ExprOp::Arg)) {
    auto I = (*A)[1].getAsInteger();
    if (!I || *I < 0 || size_t(*I) >= Args.size() || !Args[*I])
      return false;
    E = *Args[*I];
    return true;
  }
  if (Op && *Op == exprOpName(ExprOp::SReg))
    return true;
  bool OK = true;
  for (size_t K = 1; K < A->size(); ++K)
    OK &= substituteArgs((*A)[K], Args);
  return OK;
}

std::string exprToString(const JExpr &E, const Function *F) {
  // One printer for the plugin and the CLI: the expression goes through the
  // reader of common/ (hroof::Expr), as `hroof static` would read it.
  std::string Text;
  raw_string_ostream OS(Text);
  OS << E;
  std::vector<std::string> ArgNames;
  if (F)
    for (const Argument &A : F->args())
      ArgNames.push_back(A.hasName() ? A.getName().str() : std::string());
  try {
    return Expr::parse(nlohmann::json::parse(Text))->str(&ArgNames);
  } catch (const std::exception &) {
    return "?";
  }
}

} // namespace hroof
