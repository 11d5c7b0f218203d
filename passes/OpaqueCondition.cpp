//===- OpaqueCondition.cpp - why a branch condition is not expressible ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "OpaqueCondition.h"
#include "InductionLoop.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <optional>

using namespace llvm;

namespace hroof {

namespace {

/// What the walk found, most telling first (the smallest value wins).
enum class Leaf { Load, Atomic, Call, Float, LoopVar, PathPhi, Pointer, Other, None };

struct Walk {
  Leaf Kind = Leaf::None;
  std::string Callee;             ///< for Leaf::Call
  std::string Opcode;             ///< for Leaf::Other
  const PHINode *Phi = nullptr;   ///< for Leaf::LoopVar: a loop header's phi
  bool BitOrRemainder = false;    ///< urem/srem/and/shifts on the way to the phi
  bool Multiplied = false;        ///< the phi times a non-constant
  bool Wide = false;              ///< a compare wider than 32 bits

  void note(Leaf K) {
    if (K < Kind)
      Kind = K;
  }
};

bool isSpecialRegister(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  return F && F->getName().starts_with("llvm.nvvm.read.ptx.sreg.");
}

void visit(const Value *V, const LoopInfo &LI, Walk &W, SmallPtrSetImpl<const Value *> &Seen,
           unsigned Depth) {
  if (!Depth || !Seen.insert(V).second || isa<Constant>(V) || isa<Argument>(V))
    return;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I) {
    W.Opcode = "a non-instruction value";
    return W.note(Leaf::Other);
  }
  if (isa<LoadInst>(I))
    return W.note(Leaf::Load);
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return W.note(Leaf::Atomic);
  if (const auto *CB = dyn_cast<CallBase>(I)) {
    if (isSpecialRegister(*CB))
      return;
    const Function *F = CB->getCalledFunction();
    if (F && F->isIntrinsic() && CB->doesNotAccessMemory()) {
      // min, max, abs, fabs...: what matters is what they are applied to.
      if (I->getType()->isFloatingPointTy())
        W.note(Leaf::Float);
      for (const Value *Op : CB->args())
        visit(Op, LI, W, Seen, Depth - 1);
      return;
    }
    if (W.Kind > Leaf::Call)
      W.Callee = F ? F->getName().str() : "an indirect callee";
    return W.note(Leaf::Call);
  }
  if (I->getType()->isFloatingPointTy() || isa<FCmpInst>(I))
    W.note(Leaf::Float); // and on: a loaded float is data first
  if (const auto *Phi = dyn_cast<PHINode>(I)) {
    const Loop *L = LI.getLoopFor(Phi->getParent());
    if (L && L->getHeader() == Phi->getParent()) {
      if (W.Kind > Leaf::LoopVar)
        W.Phi = Phi;
      return W.note(Leaf::LoopVar);
    }
    W.note(Leaf::PathPhi); // a merge of values from different paths
  }
  if (const auto *Cmp = dyn_cast<ICmpInst>(I)) {
    if (Cmp->getOperand(0)->getType()->isPointerTy())
      W.note(Leaf::Pointer);
    else if (Cmp->getOperand(0)->getType()->getIntegerBitWidth() > 32)
      W.Wide = true;
  }
  if (!isa<BinaryOperator>(I) && !isa<CastInst>(I) && !isa<CmpInst>(I) && !isa<SelectInst>(I) &&
      !isa<PHINode>(I) && !isa<FreezeInst>(I) && !I->getType()->isFloatingPointTy()) {
    if (W.Kind > Leaf::Other)
      W.Opcode = I->getOpcodeName();
    W.note(Leaf::Other);
  }
  switch (I->getOpcode()) {
  case Instruction::URem:
  case Instruction::SRem:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::UDiv:
  case Instruction::SDiv:
    W.BitOrRemainder = true;
    break;
  case Instruction::Mul:
    if (!isa<Constant>(I->getOperand(0)) && !isa<Constant>(I->getOperand(1)))
      W.Multiplied = true;
    break;
  default:
    break;
  }
  for (const Value *Op : I->operands())
    visit(Op, LI, W, Seen, Depth - 1);
}

/// How a loop variable enters the branch, for the reason's parenthesis.
std::string loopVariableUse(const Walk &W, const Value *C, const BasicBlock &Where,
                            const LoopInfo &LI, const Loop *Counted) {
  const Loop *Owner = LI.getLoopFor(W.Phi->getParent());
  if (!Owner->contains(&Where))
    return "a loop's value after the loop (e.g. the remainder of an unrolled loop)";
  if (Owner != LI.getLoopFor(&Where))
    return "a loop variable (of an enclosing loop: a triangular or nested-tile bound)";
  if (Owner != Counted)
    return "a loop variable (in a loop without a trip count hroof can express)";
  if (W.BitOrRemainder)
    return "a loop variable (through a remainder, division, shift or bit operation)";
  if (W.Multiplied)
    return "a loop variable (multiplied by a non-constant)";
  if (W.Wide)
    return "a loop variable (a compare wider than 32 bits)";
  if (const auto *Cmp = dyn_cast<ICmpInst>(C); Cmp && Cmp->isUnsigned())
    return "a loop variable (an unsigned compare)";
  if (const auto *Cmp = dyn_cast<ICmpInst>(C); Cmp && Cmp->isEquality())
    return "a loop variable (an equality compare)";
  return "a loop variable (not affine, or it may wrap)";
}

} // namespace

namespace {

Walk walk(const Value *V, const LoopInfo &LI) {
  Walk W;
  SmallPtrSet<const Value *, 32> Seen;
  visit(V, LI, W, Seen, /*Depth=*/24);
  return W;
}

/// The words for what the walk found, where they do not depend on the use.
std::optional<std::string> dataWords(const Walk &W) {
  switch (W.Kind) {
  case Leaf::Load:
    return "data loaded from memory";
  case Leaf::Atomic:
    return "an atomic's result";
  case Leaf::Call:
    return "the result of a call to " + W.Callee;
  case Leaf::PathPhi:
    return "a value that depends on the path taken to it (a phi)";
  default:
    return std::nullopt;
  }
}

/// What a loop's start, step or bound \p V depends on, for a loop \p L.
std::string loopOperandSource(const Value *V, const Loop &L, const LoopInfo &LI) {
  Walk W = walk(V, LI);
  if (auto S = dataWords(W))
    return *S;
  if (W.Kind == Leaf::LoopVar) {
    if (LI.getLoopFor(W.Phi->getParent())->contains(&L))
      return "an enclosing loop's variable (a triangular or nested-stride loop)";
    return "a loop's value after the loop";
  }
  return "a value hroof cannot express";
}

} // namespace

std::string describeOpaqueCondition(const Value *C, const BasicBlock &Where, const LoopInfo &LI,
                                    const Loop *Counted) {
  Walk W = walk(C, LI);
  if (auto S = dataWords(W))
    return *S;
  switch (W.Kind) {
  case Leaf::Float:
    return "a floating-point value";
  case Leaf::LoopVar:
    return loopVariableUse(W, C, Where, LI, Counted);
  case Leaf::Pointer:
    return "a pointer compare";
  case Leaf::Other:
    return "a value hroof cannot express ('" + W.Opcode + "')";
  default:
    break;
  }
  return "a value hroof cannot express";
}

std::string describeOpaqueLoop(const Loop &L, const LoopInfo &LI) {
  if (!L.getLoopLatch())
    return "it has several back edges (a continue)";
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  if (Exiting.size() > 1)
    return "it has several exits (a break, a return or a test inside the body)";
  if (Exiting.empty())
    return "it has no exit";
  if (Exiting[0] != L.getLoopLatch())
    return "its exit test is not at its end (the loop is not rotated)";
  const auto *BI = dyn_cast<BranchInst>(L.getLoopLatch()->getTerminator());
  if (!BI || !BI->isConditional())
    return "its exit is not a conditional branch (a switch)";
  const auto *Cmp = dyn_cast<ICmpInst>(BI->getCondition());
  if (!Cmp)
    return "its exit test is on " + describeOpaqueCondition(BI->getCondition(),
                                                            *L.getLoopLatch(), LI, nullptr);
  if (!L.isLoopInvariant(Cmp->getOperand(0)) && !L.isLoopInvariant(Cmp->getOperand(1))) {
    std::string A = loopOperandSource(Cmp->getOperand(0), L, LI),
                B = loopOperandSource(Cmp->getOperand(1), L, LI);
    if (A.rfind("data", 0) == 0 || B.rfind("data", 0) == 0)
      return "its exit test compares data loaded from memory";
    return "its exit test compares two values that change in the loop";
  }
  auto IL = matchInductionLoop(L);
  if (!IL)
    return "its variable does not move by a loop-invariant step (or its exit compare is not "
           "<, <=, >, >= or != with a constant step)";
  auto Source = [&](const Value *V, const char *What) -> std::string {
    if (L.isLoopInvariant(V) && isa<Instruction>(V) &&
        !L.contains(cast<Instruction>(V)->getParent())) {
      std::string S = loopOperandSource(V, L, LI);
      if (S != "a value hroof cannot express")
        return std::string("its ") + What + " is " + S;
    }
    return "";
  };
  for (auto [V, What] : {std::pair<const Value *, const char *>{IL->Bound, "bound"},
                         {IL->Start, "start"},
                         {IL->Step, "step"}})
    if (std::string S = Source(V, What); !S.empty())
      return S;
  return "its start, step or bound is a value hroof cannot express";
}

} // namespace hroof
