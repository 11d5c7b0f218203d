//===- WarpAccess.cpp - the address of a memory access, lane by lane ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "WarpAccess.h"
#include "PtxCounting.h"
#include "hroof/StaticModelKeys.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Operator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace hroof {

bool isByValParamRead(const Value *Ptr) {
  const auto *A = dyn_cast<Argument>(getUnderlyingObject(Ptr, 0));
  return A && A->hasByValAttr();
}

/// The alignment the backend's vectorizer can rely on: the instruction's, or
/// more where the pointer is known to be (a variable's alignment plus a
/// constant offset, as in CUB's temporary storage).
uint64_t accessAlign(const Instruction &I, const Value *Ptr) {
  uint64_t A = 1;
  if (const auto *L = dyn_cast<LoadInst>(&I))
    A = L->getAlign().value();
  else if (const auto *S = dyn_cast<StoreInst>(&I))
    A = S->getAlign().value();
  else
    return 1;
  const DataLayout &DL = I.getModule()->getDataLayout();
  return std::max<uint64_t>(A, getKnownAlignment(const_cast<Value *>(Ptr), DL).value());
}

namespace {

/// Why the warp-level model cannot follow this access, or "" when it can
/// try: spaces and directions that it leaves to later work are named.
std::string unsupportedKind(MemSpace S, MemDir D) {
  if (S == MemSpace::Generic)
    return "the address space is not provable statically";
  if (S == MemSpace::Local)
    return "local memory (per-thread arrays) is not modelled at warp level";
  (void)D; // atomics too: their addresses place their bytes (WarpModel.cpp)
  return "";
}

/// Fills the base of \p W from the SCEV base pointer \p Base, or says why not.
bool setBase(IRWarpAccess &W, const SCEV *Base) {
  const auto *U = dyn_cast<SCEVUnknown>(Base);
  if (!U) {
    W.Unmodelled = "the base pointer is not a single value";
    return false;
  }
  const Value *V = U->getValue()->stripPointerCasts();
  if (const auto *A = dyn_cast<Argument>(V)) {
    if (A->getParent()->getCallingConv() != CallingConv::PTX_Kernel) {
      W.Unmodelled = "the base pointer is a device function's argument";
      return false;
    }
    W.BaseParam = int(A->getArgNo());
    return true;
  }
  if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
    W.BaseObject = GV->getName().str();
    const DataLayout &DL = GV->getParent()->getDataLayout();
    W.BaseAlign =
        GV->getAlign() ? GV->getAlign()->value() : DL.getPrefTypeAlign(GV->getValueType()).value();
    return true;
  }
  W.Unmodelled = "the base pointer is loaded from memory or computed";
  return false;
}

/// Moves sign and zero extensions of 32-bit loop indices inside the add-
/// recurrence, so that base + 4 * sext({i0,+,s}) becomes {base + 4*sext(i0),+,
/// 4*sext(s)}. This assumes that the index does not wrap at its width while
/// the loop runs (signed overflow is undefined in C++; an unsigned index that
/// wraps on purpose would be mis-modelled), and \p Assumed says it was used.
/// Extensions without a loop variable inside stay exact expressions.
class ExtensionDistributor {
public:
  ExtensionDistributor(ScalarEvolution &SE) : SE(SE) {}
  bool Assumed = false;

  const SCEV *visit(const SCEV *S) {
    if (!SE.containsAddRecurrence(S))
      return S;
    if (const auto *E = dyn_cast<SCEVIntegralCastExpr>(S))
      if (isa<SCEVSignExtendExpr>(E) || isa<SCEVZeroExtendExpr>(E))
        return extend(E->getOperand(0), E->getType(), isa<SCEVSignExtendExpr>(E));
    if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
      SmallVector<const SCEV *, 3> Ops;
      for (const SCEV *O : AR->operands())
        Ops.push_back(visit(O));
      return SE.getAddRecExpr(Ops, AR->getLoop(), SCEV::FlagAnyWrap);
    }
    if (const auto *N = dyn_cast<SCEVNAryExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops;
      for (const SCEV *O : N->operands())
        Ops.push_back(visit(O));
      if (isa<SCEVAddExpr>(S))
        return SE.getAddExpr(Ops);
      if (isa<SCEVMulExpr>(S))
        return SE.getMulExpr(Ops);
    }
    return S;
  }

private:
  /// ext(S) to \p Ty, pushed through additions, products and recurrences.
  const SCEV *extend(const SCEV *S, Type *Ty, bool Signed) {
    if (const auto *C = dyn_cast<SCEVConstant>(S)) // offsets like i - 1
      return SE.getSignExtendExpr(C, Ty);
    if (!SE.containsAddRecurrence(S))
      return Signed ? SE.getSignExtendExpr(S, Ty) : SE.getZeroExtendExpr(S, Ty);
    Assumed = true;
    if (const auto *AR = dyn_cast<SCEVAddRecExpr>(S)) {
      // A step is a signed distance even in an unsigned index.
      SmallVector<const SCEV *, 3> Ops{extend(AR->getStart(), Ty, Signed)};
      for (const SCEV *O : drop_begin(AR->operands()))
        Ops.push_back(extend(O, Ty, /*Signed=*/true));
      return SE.getAddRecExpr(Ops, AR->getLoop(), SCEV::FlagAnyWrap);
    }
    if (const auto *N = dyn_cast<SCEVNAryExpr>(S)) {
      SmallVector<const SCEV *, 4> Ops;
      for (const SCEV *O : N->operands())
        Ops.push_back(extend(O, Ty, Signed));
      if (isa<SCEVAddExpr>(S))
        return SE.getAddExpr(Ops);
      if (isa<SCEVMulExpr>(S))
        return SE.getMulExpr(Ops);
    }
    return Signed ? SE.getSignExtendExpr(S, Ty) : SE.getZeroExtendExpr(S, Ty);
  }
  ScalarEvolution &SE;
};

} // namespace

namespace {

/// Follows what ScalarEvolution leaves as opaque values in an address:
/// addrspacecasts (`__ldg(&in[i])` reads through a global-space cast of a
/// GEP on the parameter) and inttoptr of an integer that is a pointer plus
/// an offset, so that the address ends at its parameter or variable. Casts
/// between pointers of different widths stay opaque.
class CastFollower : public SCEVRewriteVisitor<CastFollower> {
public:
  CastFollower(ScalarEvolution &SE, const DataLayout &DL) : SCEVRewriteVisitor(SE), DL(DL) {}

  const SCEV *visitUnknown(const SCEVUnknown *U) {
    const Value *V = U->getValue();
    if (++Depth > 32)
      return U;
    if (const auto *C = dyn_cast<AddrSpaceCastOperator>(V)) {
      const Value *Src = C->getPointerOperand();
      if (sameWidth(Src->getType(), V->getType()))
        return visit(SE.getSCEV(const_cast<Value *>(Src)));
    }
    if (const auto *C = dyn_cast<Operator>(V); C && C->getOpcode() == Instruction::IntToPtr) {
      const Value *Int = C->getOperand(0);
      if (DL.getTypeSizeInBits(Int->getType()) == DL.getPointerTypeSizeInBits(V->getType()))
        if (const SCEV *P = pointerFromInteger(SE.getSCEV(const_cast<Value *>(Int)), false))
          if (sameWidth(P->getType(), V->getType()))
            return visit(P);
    }
    return U;
  }

  /// The pointer that integer address \p S is: ptrtoint(P) plus integers.
  /// With \p TruncIsExact a truncation of such a sum is the sum itself (a
  /// shared-memory address, below 2^32, in a 32-bit register). Null when \p S
  /// has another form.
  const SCEV *pointerFromInteger(const SCEV *S, bool TruncIsExact) {
    if (const auto *P = dyn_cast<SCEVPtrToIntExpr>(S))
      return P->getOperand();
    if (const auto *T = dyn_cast<SCEVTruncateExpr>(S))
      return TruncIsExact ? pointerFromInteger(T->getOperand(), TruncIsExact) : nullptr;
    const auto *Add = dyn_cast<SCEVAddExpr>(S);
    if (!Add)
      return nullptr;
    const SCEV *Ptr = nullptr;
    SmallVector<const SCEV *, 4> Rest;
    for (const SCEV *O : Add->operands())
      if (const SCEV *P = Ptr ? nullptr : pointerFromInteger(O, TruncIsExact))
        Ptr = P;
      else
        Rest.push_back(O);
    if (!Ptr)
      return nullptr;
    Type *Index = DL.getIndexType(Ptr->getType());
    SmallVector<const SCEV *, 4> Ops{Ptr};
    for (const SCEV *O : Rest)
      Ops.push_back(SE.getTruncateOrSignExtend(O, Index));
    return SE.getAddExpr(Ops);
  }

private:
  bool sameWidth(Type *A, Type *B) const {
    return A->isPointerTy() && B->isPointerTy() &&
           DL.getPointerTypeSizeInBits(A) == DL.getPointerTypeSizeInBits(B) &&
           DL.getIndexTypeSizeInBits(A) == DL.getIndexTypeSizeInBits(B);
  }
  const DataLayout &DL;
  unsigned Depth = 0;
};

/// Fills the loops, base and offset of \p W from its address \p Address
/// (a pointer SCEV) at instruction \p I, or says in W.Unmodelled why not.
void describeAddress(IRWarpAccess &W, const SCEV *Address, const Instruction &I,
                     ScalarEvolution &SE, LoopInfo &LI, ExprBuilder &EB,
                     function_ref<std::optional<JExpr>(Loop *)> TripCount) {
  Loop *Here = LI.getLoopFor(I.getParent());
  ExtensionDistributor Ext(SE);
  const SCEV *P = Ext.visit(SE.getSCEVAtScope(Address, Here));
  W.AssumesNoIndexWrap = Ext.Assumed;
  // Peel the add-recurrences of the enclosing loops, innermost first: what
  // is left is the address at the first iteration of each.
  while (const auto *AR = dyn_cast<SCEVAddRecExpr>(P)) {
    Loop *L = const_cast<Loop *>(AR->getLoop());
    if (!AR->isAffine() || !L->contains(I.getParent())) {
      W.Unmodelled = "the address is not affine in a loop variable";
      return;
    }
    auto Step = EB.build(AR->getStepRecurrence(SE));
    auto Trips = TripCount(L);
    if (!Step || !Trips) {
      W.Unmodelled = !Step ? "the address's step per loop iteration is not expressible"
                           : "a loop around the access has an inexpressible trip count";
      return;
    }
    W.Loops.push_back({std::move(*Step), std::move(*Trips), -1, std::nullopt, L});
    P = AR->getStart();
  }
  if (!setBase(W, SE.getPointerBase(P)))
    return;
  const SCEV *Off = SE.removePointerBase(P);
  if (!Off->getType()->isIntegerTy()) {
    W.Unmodelled = "the address is not analysable";
    return;
  }
  W.Offset = EB.build(Off);
  if (!W.Offset)
    W.Unmodelled = "the address depends on data or on a loop variable in a "
                   "way that is not affine";
}

} // namespace

std::optional<IRWarpAccess>
describeWarpAccess(const Instruction &I, const MemoryAccess &A, const std::string &Where,
                   ScalarEvolution &SE, LoopInfo &LI, ExprBuilder &EB,
                   function_ref<std::optional<JExpr>(Loop *)> TripCount) {
  MemSpace Space = resolveMemSpace(A.Ptr);
  if (Space == MemSpace::Constant || isByValParamRead(A.Ptr))
    return std::nullopt;
  IRWarpAccess W;
  W.Space = Space;
  W.Dir = A.Dir;
  W.Width = A.Bytes;
  W.Where = Where;
  W.Unmodelled = unsupportedKind(Space, A.Dir);
  if (!W.Unmodelled.empty())
    return W;
  if (!SE.isSCEVable(A.Ptr->getType())) {
    W.Unmodelled = "the address is not analysable";
    return W;
  }
  CastFollower Casts(SE, I.getModule()->getDataLayout());
  describeAddress(W, Casts.visit(SE.getSCEV(A.Ptr)), I, SE, LI, EB, TripCount);
  return W;
}

std::vector<IRWarpAccess>
describeAsmAccesses(const CallBase &CB, const std::string &Where, ScalarEvolution &SE,
                    LoopInfo &LI, ExprBuilder &EB,
                    function_ref<std::optional<JExpr>(Loop *)> TripCount) {
  std::vector<IRWarpAccess> Out;
  for (AsmAccess &X : asmAccesses(CB)) {
    IRWarpAccess W;
    W.Space = X.Space;
    W.Dir = X.Dir;
    W.Width = X.Bytes;
    W.Where = Where;
    W.Unmodelled = X.Unmodelled;
    W.AsyncCopy = X.AsyncCopy;
    if (X.Predicated)
      W.Guarded = "predicated inline asm '" + X.Line + "' may not run";
    if (W.Unmodelled.empty())
      if (std::string Why = unsupportedKind(X.Space, X.Dir); !Why.empty())
        W.Unmodelled = Why + " (inline asm '" + X.Line + "')";
    const Value *Addr = X.Address;
    if (W.Unmodelled.empty() && !SE.isSCEVable(Addr->getType()))
      W.Unmodelled = "the address of inline asm '" + X.Line + "' is not analysable";
    if (!W.Unmodelled.empty()) {
      Out.push_back(std::move(W));
      continue;
    }
    CastFollower Casts(SE, CB.getModule()->getDataLayout());
    const SCEV *P = SE.getSCEV(const_cast<Value *>(Addr));
    if (!Addr->getType()->isPointerTy())
      P = Casts.pointerFromInteger(P, /*TruncIsExact=*/X.Space == MemSpace::Shared);
    if (P)
      P = Casts.visit(P);
    if (P && X.Displacement)
      P = SE.getAddExpr(P, SE.getConstant(SE.getEffectiveSCEVType(P->getType()),
                                          uint64_t(X.Displacement), /*isSigned=*/true));
    if (!P) {
      W.Unmodelled = "the address of inline asm '" + X.Line +
                     "' is an integer that is not a pointer plus an offset";
      Out.push_back(std::move(W));
      continue;
    }
    describeAddress(W, P, CB, SE, LI, EB, TripCount);
    if (!W.Unmodelled.empty())
      W.Unmodelled += " (inline asm '" + X.Line + "')";
    Out.push_back(std::move(W));
  }
  return Out;
}

namespace {

/// An access of the block with what the merge needs to know.
struct Candidate {
  IRWarpAccess W;
  const SCEV *Ptr = nullptr;
  uint64_t Align = 1;
};

/// The NVPTX backend's load/store vectorizer turns adjacent scalar accesses
/// (float4 fields, unrolled copies) into one 8- or 16-byte access, which the
/// hardware serves as one request. Merges runs of accesses in one block with
/// the same direction and base, constant distances that make them contiguous,
/// no access of the other direction in between, and a first access aligned
/// to the merged width.
void mergeAdjacent(std::vector<Candidate> &C, ScalarEvolution &SE) {
  for (size_t I = 0; I < C.size(); ++I) {
    Candidate &Head = C[I];
    if (!Head.Ptr || !Head.W.Unmodelled.empty())
      continue;
    for (uint64_t Want : {16u, 8u}) {
      if (Head.Align < Want || Head.W.Width >= Want || Want % Head.W.Width)
        continue;
      std::vector<size_t> Run{I};
      uint64_t Covered = Head.W.Width;
      for (size_t J = I + 1; J < C.size() && Covered < Want; ++J) {
        if (C[J].W.Dir != Head.W.Dir) // an access of the other direction ends the run
          break;
        if (!C[J].Ptr || C[J].W.Width != Head.W.Width)
          continue;
        const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(C[J].Ptr, Head.Ptr));
        if (D && D->getAPInt().getSExtValue() == int64_t(Covered)) {
          Run.push_back(J);
          Covered += C[J].W.Width;
        }
      }
      if (Covered != Want)
        continue;
      Head.W.Width = Want;
      for (size_t K = Run.size(); K-- > 1;)
        C.erase(C.begin() + Run[K]);
      break;
    }
  }
}

/// How a reason names instruction \p I: an asm string, a callee, an opcode.
std::string instructionText(const Instruction &I) {
  if (const auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->isInlineAsm()) {
      std::string Asm = cast<InlineAsm>(CB->getCalledOperand())->getAsmString().str();
      return "inline asm '" + (Asm.size() > 80 ? Asm.substr(0, 77) + "..." : Asm) + "'";
    }
    if (const Function *F = CB->getCalledFunction())
      return "call to " + F->getName().str();
  }
  return std::string(I.getOpcodeName());
}

/// The invariant between the two levels of the model: every byte that the
/// thread-level count gives instruction \p I is in one of the accesses
/// C[First...] that the warp level describes for it. Bytes it lacks (an
/// intrinsic or an asm instruction it does not read) become an access
/// without a bound that names the instruction, so that the kernel's
/// warp-level traffic is absent with that reason, never exact without them
/// (local bytes: an access with bounds, as every local access has).
void checkThreadBytesCovered(const Instruction &I, std::vector<Candidate> &C, size_t First,
                             const std::string &Where) {
  BlockCounts One;
  countInstruction(I, One);
  for (const ShflGuardedCounts &G : One.ShflGuarded)
    for (int K = 0; K < NumCounters; ++K)
      One.Counts[K] += G.Counts[K];
  for (MemSpace S : {MemSpace::Global, MemSpace::Shared, MemSpace::Local, MemSpace::Generic})
    for (MemDir D : {MemDir::Load, MemDir::Store, MemDir::Atomic}) {
      uint64_t Thread = One.Counts[bytesIndex(S, D)], Warp = 0;
      for (size_t K = First; K < C.size(); ++K)
        if (C[K].W.Space == S && C[K].W.Dir == D)
          Warp += C[K].W.Width;
      if (Thread <= Warp)
        continue;
      IRWarpAccess W;
      W.Space = S;
      W.Dir = D;
      W.Width = Thread - Warp;
      W.Where = Where;
      W.Unmodelled = "the thread-level count has " + std::to_string(Thread - Warp) +
                     " bytes of " + MemSpaceNames[int(S)] + " " + MemDirNames[int(D)] +
                     " per lane in " + instructionText(I) +
                     " that the warp-level model has no address for";
      // Local bytes (a memcpy into a per-thread array) get the bounds of any
      // local access; the others leave the launch's warp traffic unevaluated.
      if (S != MemSpace::Local)
        W.Unbounded = W.Unmodelled;
      C.push_back({std::move(W), nullptr, 1});
    }
}

} // namespace

std::vector<IRWarpAccess>
describeBlockAccesses(const BasicBlock &BB, const std::string &Where, ScalarEvolution &SE,
                      LoopInfo &LI, ExprBuilder &EB,
                      function_ref<std::optional<JExpr>(Loop *)> TripCount) {
  std::vector<Candidate> C;
  for (const Instruction &I : BB) {
    size_t First = C.size();
    if (const auto *CB = dyn_cast<CallBase>(&I); CB && CB->isInlineAsm()) {
      for (IRWarpAccess &W : describeAsmAccesses(*CB, Where, SE, LI, EB, TripCount))
        C.push_back({std::move(W), nullptr, 1});
    } else if (auto A = memoryAccess(I)) {
      if (auto W = describeWarpAccess(I, *A, Where, SE, LI, EB, TripCount)) {
        Candidate X{std::move(*W), nullptr, accessAlign(I, A->Ptr)};
        if (X.W.Unmodelled.empty() && SE.isSCEVable(A->Ptr->getType()))
          X.Ptr = SE.getSCEV(A->Ptr);
        C.push_back(std::move(X));
      }
    }
    checkThreadBytesCovered(I, C, First, Where);
  }
  mergeAdjacent(C, SE);
  std::vector<IRWarpAccess> Out;
  for (Candidate &X : C)
    Out.push_back(std::move(X.W));
  return Out;
}

json::Value warpAccessToJson(const IRWarpAccess &W) {
  json::Object O{{model_keys::Where, W.Where},
                 {model_keys::Space, MemSpaceNames[int(W.Space)]},
                 {model_keys::Dir, MemDirNames[int(W.Dir)]},
                 {model_keys::Width, int64_t(W.Width)}};
  json::Array Mult;
  for (const auto &P : W.Alternatives) {
    json::Array Factors;
    for (const JExpr &E : P)
      Factors.push_back(E);
    Mult.push_back(std::move(Factors));
  }
  O[model_keys::Multiplicity] = std::move(Mult);
  if (!W.Guarded.empty())
    O[model_keys::Guarded] = W.Guarded;
  if (!W.Unbounded.empty())
    O[model_keys::Unbounded] = W.Unbounded;
  if (W.AsyncCopy)
    O[model_keys::AsyncCopy] = true;
  if (!W.Unmodelled.empty()) {
    O[model_keys::Unmodelled] = W.Unmodelled;
    return O;
  }
  if (W.BaseParam >= 0)
    O[model_keys::Base] = json::Object{{model_keys::BaseParam, W.BaseParam}};
  else
    O[model_keys::Base] = json::Object{{model_keys::BaseObject, W.BaseObject}, {model_keys::BaseAlign, int64_t(W.BaseAlign)}};
  O[model_keys::Offset] = *W.Offset;
  if (W.AssumesNoIndexWrap)
    O[model_keys::Assumes] = "loop indices do not wrap at their width";
  json::Array Loops;
  for (const IRWarpLoop &L : W.Loops) {
    json::Object Lp{{model_keys::LoopStep, L.Step}, {model_keys::LoopTrips, L.Trips}};
    if (L.IterVar >= 0)
      Lp[model_keys::LoopIterVar] = L.IterVar;
    if (L.First)
      Lp[model_keys::LoopFirst] = *L.First;
    Loops.push_back(std::move(Lp));
  }
  O[model_keys::Loops] = std::move(Loops);
  return O;
}

} // namespace hroof
