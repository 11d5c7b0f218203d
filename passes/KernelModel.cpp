//===- KernelModel.cpp - the static model of every kernel in a module -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "KernelModel.h"
#include "EarlyExitLoop.h"
#include "InductionLoop.h"
#include "IterationCondition.h"
#include "OpaqueCondition.h"
#include "ShflPredicate.h"
#include "ShiftLoop.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <set>
#include <stdexcept>

#define DEBUG_TYPE "hroof-kernels"

using namespace llvm;

static cl::opt<unsigned>
    MaxPaths("hroof-max-paths",
             cl::desc("hroof: most distinct path conditions kept per basic block"), cl::init(64));

static cl::opt<std::string>
    TestFailOn("hroof-test-fail-on", cl::Hidden,
               cl::desc("hroof (tests only): throw while modelling the function of this "
                        "name, to exercise the not-modelled path"),
               cl::init(""));

namespace hroof {

AnalysisKey KernelModelAnalysis::Key;

namespace {

using Product = std::vector<JExpr>;
using Alts = std::vector<Product>; // a sum of disjoint products

/// "function:block" of every block of \p F. An unnamed block prints as its
/// slot number, and printAsOperand without a slot tracker numbers the whole
/// function again on each call: one tracker for all blocks keeps this linear.
DenseMap<const BasicBlock *, std::string> blockWheres(const Function &F) {
  DenseMap<const BasicBlock *, std::string> R;
  ModuleSlotTracker MST(F.getParent(), /*ShouldInitializeAllMetadata=*/false);
  MST.incorporateFunction(F);
  for (const BasicBlock &BB : F) {
    std::string S = F.getName().str() + ":";
    raw_string_ostream OS(S);
    BB.printAsOperand(OS, false, MST);
    R[&BB] = std::move(S);
  }
  return R;
}

bool isKernel(const Function &F) { return F.getCallingConv() == CallingConv::PTX_Kernel; }

class ModuleModeler;

class FunctionModeler {
public:
  /// Whether a block's multiplicity lacks a condition the model could not
  /// express (it is then an upper bound) or a trip count (then no bound).
  enum class Opacity { None, Guard, Trips };
  /// A block's opacity, with the conditions its multiplicity lacks (indices
  /// into GuardReasons). They are reported only where a block that counts
  /// something runs under them: a branch on data around code that counts
  /// nothing (an integer update, a jump to the common exit) leaves every
  /// count exact.
  struct Opaqueness {
    Opacity Kind = Opacity::None;
    std::vector<unsigned> Why; ///< sorted, unique
    void merge(const Opaqueness &O) {
      Kind = std::max(Kind, O.Kind);
      std::vector<unsigned> U;
      std::set_union(Why.begin(), Why.end(), O.Why.begin(), O.Why.end(), std::back_inserter(U));
      Why = std::move(U);
    }
  };

  FunctionModeler(Function &F, FunctionAnalysisManager &FAM, ModuleModeler &MM)
      : F(F), LI(FAM.getResult<LoopAnalysis>(F)), DT(FAM.getResult<DominatorTreeAnalysis>(F)),
        PDT(FAM.getResult<PostDominatorTreeAnalysis>(F)),
        SE(FAM.getResult<ScalarEvolutionAnalysis>(F)), EB(F), MM(MM) {
    EB.setAnalyses(&LI, &DT, &SE);
    EB.setTripCounts([this](const Loop *L) { return tripCount(const_cast<Loop *>(L)); });
  }

  IRFunctionModel run() {
    if (!TestFailOn.empty() && F.getName() == TestFailOn)
      throw std::runtime_error("failure injected by -hroof-test-fail-on");
    Out.IsKernel = isKernel(F);
    ReversePostOrderTraversal<Function *> RPOT(&F);
    for (BasicBlock *BB : RPOT) {
      RPO.push_back(BB);
    }
    region(nullptr, &F.getEntryBlock(), Alts{Product{}}, Opaqueness{}, /*TripsKnown=*/false);
    return std::move(Out);
  }

private:
  /// Records why the model is not exact. \p BoundsHold: the construct is
  /// one the terms' flags account for (a condition or trip count left out of
  /// a multiplicity); any other reason leaves counts out, so the terms' sum
  /// is no upper bound.
  void unknown(std::string Why, bool BoundsHold = false) {
    auto Add = [](std::vector<std::string> &V, const std::string &S) {
      if (std::find(V.begin(), V.end(), S) == V.end())
        V.push_back(S);
    };
    if (!BoundsHold)
      Add(Out.NoUpperBound, Why);
    Add(Out.Unknown, Why);
  }
  const std::string &at(const BasicBlock &BB) {
    if (Wheres.empty())
      Wheres = blockWheres(F);
    return Wheres[&BB];
  }

  /// The node representing \p BB in the region of loop \p L: BB itself, the
  /// header of the sub-loop of L that contains it, or null when outside L.
  BasicBlock *nodeOf(BasicBlock *BB, Loop *L) {
    Loop *X = LI.getLoopFor(BB);
    if (X == L)
      return BB;
    if (!X || (L && !L->contains(X)))
      return nullptr;
    while (X->getParentLoop() != L)
      X = X->getParentLoop();
    return X->getHeader();
  }

  Alts cross(const Alts &A, const Alts &B, const BasicBlock &Where) {
    Alts R;
    for (const Product &X : A)
      for (const Product &Y : B) {
        Product P = X;
        P.insert(P.end(), Y.begin(), Y.end());
        R.push_back(std::move(P));
      }
    if (R.size() > MaxPaths) {
      unknown("too many distinct paths to " + at(Where) + " (raise -hroof-max-paths)");
      R.resize(MaxPaths);
    }
    return R;
  }

  /// Appends the atoms of condition \p C (with \p Polarity) to \p P.
  void decompose(const Value *C, bool Polarity, Product &P, const BasicBlock &Where) {
    const Value *A, *B;
    using namespace PatternMatch;
    if (Polarity && match(C, m_LogicalAnd(m_Value(A), m_Value(B)))) {
      decompose(A, true, P, Where);
      decompose(B, true, P, Where);
      return;
    }
    if (!Polarity && match(C, m_LogicalOr(m_Value(A), m_Value(B)))) {
      decompose(A, false, P, Where);
      decompose(B, false, P, Where);
      return;
    }
    if (match(C, m_Not(m_Value(A)))) {
      decompose(A, !Polarity, P, Where);
      return;
    }
    // A compare of the loop's iteration index first: an interval of k
    // (closed form); any other expressible condition, also one on a loop
    // variable, is a factor (summed over the iterations where it uses one).
    if (IterLoop)
      if (auto K = iterationAtom(C, Polarity, Where, *IterLoop, SE, DT, EB)) {
        P.push_back(std::move(*K)); // folded into the trip count by multiplicity()
        return;
      }
    if (auto E = EB.condition(C, Polarity)) {
      P.push_back(std::move(*E));
      return;
    }
    failedAtom("branch on " + describeOpaqueCondition(C, Where, LI, IterLoop) + " in " +
               at(Where));
  }

  /// A condition left out of the multiplicity of the blocks it guards; the
  /// reason waits in GuardReasons until such a block counts something.
  void failedAtom(std::string Why) { FailedAtoms.push_back(reasonIndex(std::move(Why))); }
  unsigned reasonIndex(std::string Why) {
    auto It = std::find(GuardReasons.begin(), GuardReasons.end(), Why);
    unsigned I = It - GuardReasons.begin();
    if (It == GuardReasons.end())
      GuardReasons.push_back(std::move(Why));
    return I;
  }

  /// Reports the conditions (and trip counts) left out of a block that counts
  /// something.
  void reportGuards(const Opaqueness &O) {
    for (unsigned I : O.Why)
      unknown(GuardReasons[I], /*BoundsHold=*/true);
  }

  /// A block that only runs when an assertion fails (it calls
  /// __assertfail, which traps), or that traps and ends in unreachable. The
  /// model assumes assertions hold: such blocks never run.
  static bool isTrapBlock(const BasicBlock *BB) {
    bool Unreachable = isa<UnreachableInst>(BB->getTerminator());
    for (const Instruction &I : *BB)
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *F = CB->getCalledFunction()) {
          if (F->getName() == "__assertfail")
            return true;
          if (Unreachable && (F->getName() == "llvm.trap" || F->doesNotReturn()))
            return true;
        }
    return false;
  }

  /// Conditions under which control goes from \p P to \p N.
  Alts edge(BasicBlock *P, BasicBlock *N) {
    Instruction *T = P->getTerminator();
    if (isTrapBlock(N))
      return {}; // never, while assertions hold
    if (auto *BI = dyn_cast<BranchInst>(T)) {
      if (BI->isUnconditional() || BI->getSuccessor(0) == BI->getSuccessor(1))
        return {Product{}};
      if (isTrapBlock(BI->getSuccessor(0)) || isTrapBlock(BI->getSuccessor(1)))
        return {Product{}}; // the other way out is taken
      Product Atoms;
      decompose(BI->getCondition(), BI->getSuccessor(0) == N, Atoms, *P);
      return {Atoms};
    }
    if (auto *SI = dyn_cast<SwitchInst>(T)) {
      auto Cond = EB.build(SI->getCondition());
      if (!Cond) {
        failedAtom("switch on " + describeOpaqueCondition(SI->getCondition(), *P, LI, IterLoop) +
                   " in " + at(*P));
        return {Product{}};
      }
      unsigned W = SI->getCondition()->getType()->getIntegerBitWidth();
      Alts R;
      Product Default;
      for (auto &Case : SI->cases()) {
        JExpr V(Case.getCaseValue()->getSExtValue());
        if (Case.getCaseSuccessor() == N)
          R.push_back({jCmp(CmpPred::EQ, W, *Cond, V)});
        Default.push_back(jCmp(CmpPred::NE, W, *Cond, V));
      }
      if (SI->getDefaultDest() == N)
        R.push_back(std::move(Default));
      return R;
    }
    unknown("unsupported terminator '" + std::string(T->getOpcodeName()) + "' in " + at(*P));
    return {Product{}};
  }

  /// Header executions per entry into loop \p L.
  std::optional<JExpr> tripCount(Loop *L) {
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    if (!isa<SCEVCouldNotCompute>(BTC) && BTC->getType()->isIntegerTy())
      if (auto E = EB.build(BTC))
        return jOp(ExprOp::Add, jExt(false, BTC->getType()->getIntegerBitWidth(), std::move(*E)),
                   1);
    if (auto T = inductionTripCount(L))
      return T;
    return shiftTripCount(L);
  }

  /// Header executions of a loop that halves or doubles its variable
  /// (ShiftLoop.h): 1 + the tests that pass.
  std::optional<JExpr> shiftTripCount(Loop *L) {
    auto SL = matchShiftLoop(*L);
    if (!SL)
      return std::nullopt;
    const SCEV *Start = SE.getSCEV(SL->Start), *Bound = SE.getSCEV(SL->Bound);
    if (SL->Right && SL->Signed && !(SE.isKnownNonNegative(Start) && SE.isKnownNonNegative(Bound)))
      return std::nullopt; // a negative value would shift towards -1, never 0
    if (!SL->Right && !SE.isKnownPositive(Start))
      return std::nullopt; // 0 << c stays 0: no count
    // Unsigned 64-bit values past 2^63 would read negative in the int64
    // evaluator; a right shift of a value known below 2^63 stays below.
    if (SL->Width >= 64 && !SL->Signed &&
        !(SL->Right && SE.isKnownNonNegative(Start) && SE.isKnownNonNegative(Bound)))
      return std::nullopt;
    // A start of one set bit, or of two under a one-bit shift (1, 2, 3, 4,
    // 6, ...): once a shift carries the top bit out, at most one bit is
    // left, below every value that passed the test before, and it moves up
    // to 0 and stays there, so every later test passes and the loop never
    // ends. So on every launch that ends the values did not wrap, whatever
    // the bound. (Three bits fail: 11 << 28 = 0xB0000000 wraps to
    // 0x60000000, then 0xC0000000, which can end the loop one pass after
    // the formula; so do two bits under a wider shift: 18 << 26 =
    // 0x48000000, then 0x20000000 and 0x80000000, found in review.)
    const auto *StartC = dyn_cast<ConstantInt>(SL->Start);
    unsigned Bits = StartC ? StartC->getValue().popcount() : 0;
    bool FewBits = Bits == 1 || (Bits == 2 && SL->Shift == 1);
    if (!SL->Right && !FewBits && !leftShiftCannotWrap(*SL, Bound, SE))
      return std::nullopt;
    auto S = EB.build(SL->Start), B = EB.build(SL->Bound);
    if (!S || !B)
      return std::nullopt;
    JExpr SX = jExt(SL->Signed, SL->Width, std::move(*S));
    JExpr BX = jExt(SL->Signed, SL->Width, std::move(*B));
    if (SL->BoundPlusOne) // X >= B is X > B - 1; X <= B is X < B + 1
      BX = jOp(SL->Right ? ExprOp::Sub : ExprOp::Add, std::move(BX), 1);
    JExpr Passing = SL->Right ? rightShiftCount(std::move(SX), std::move(BX), SL->Shift)
                              : leftShiftCount(std::move(SX), std::move(BX), SL->Shift);
    if (SL->PostInc) // the test reads the next value: one fewer passes
      Passing = jOp(ExprOp::Max, 0, jOp(ExprOp::Sub, std::move(Passing), 1));
    return jOp(ExprOp::Add, 1, std::move(Passing));
  }

  /// Header executions of a rotated loop with a linear induction variable.
  std::optional<JExpr> inductionTripCount(Loop *L) {
    auto IL = matchInductionLoop(*L);
    if (!IL)
      return std::nullopt;
    auto S = EB.build(IL->Start), St = EB.build(IL->Step), B = EB.build(IL->Bound);
    if (!S || !St || !B)
      return std::nullopt;
    unsigned W = IL->Width;
    auto Widen = [&](const Value *V, JExpr E) {
      unsigned VW = V->getType()->getIntegerBitWidth();
      return VW < W ? jExt(IL->ExtSigned, VW, std::move(E)) : std::move(E);
    };
    JExpr SX = jExt(IL->Signed, W, Widen(IL->Start, *S)), BX = jExt(IL->Signed, W, *B),
          StX = jExt(true, W, Widen(IL->Step, *St));
    bool Inclusive = IL->Pred == CmpInst::ICMP_SLE || IL->Pred == CmpInst::ICMP_ULE ||
                     IL->Pred == CmpInst::ICMP_SGE || IL->Pred == CmpInst::ICMP_UGE;
    if (IL->NarrowWrapWidth)
      return wrappingTripCount(*IL, std::move(SX), std::move(BX), std::move(StX), Inclusive);
    JExpr Trips =
        IL->Downward
            ? jOp(ExprOp::CeilDiv, jOp(ExprOp::Sub, Inclusive ? jOp(ExprOp::Add, SX, 1) : SX, BX),
                  jOp(ExprOp::Sub, 0, StX))
            : jOp(ExprOp::CeilDiv, jOp(ExprOp::Sub, Inclusive ? jOp(ExprOp::Add, BX, 1) : BX, SX),
                  StX);
    if (!IL->PostInc) // the compare sees the value before the increment
      Trips = jOp(ExprOp::Add, std::move(Trips), 1);
    JExpr Count = json::Array{exprOpName(ExprOp::Max), 1, std::move(Trips)};
    if (!IL->StopsAtNegative)
      return Count;
    // A negative first tested value ends the loop after one header run.
    JExpr First = IL->PostInc ? jOp(ExprOp::Add, SX, StX) : SX;
    return json::Array{exprOpName(ExprOp::Select), jCmp(CmpPred::SLT, 64, std::move(First), 0), 1,
                       std::move(Count)};
  }

  /// \p P as it leaves the modeler: loop markers folded into sums. An
  /// iteration index left outside its sum would be a defect here; the
  /// factor is dropped and the kernel reported inexact, never written.
  Product finished(Product P) {
    P = foldIterationSums(std::move(P));
    for (JExpr &E : P)
      if (hasFreeIterVar(E)) {
        unknown("a loop variable outside its sum over the loop's iterations (a defect in "
                "hroof; please report it) in " + F.getName().str());
        E = 1;
      }
    return P;
  }

  /// An access through `c ? p : q` with p and q in two spaces: its bytes in
  /// p's space times [c], and in q's times [!c]; under bytes.generic when
  /// c cannot be expressed.
  void emitSpaceSelect(const SpaceSelectBytes &S, BasicBlock &BB, const Alts &Mult,
                       Opacity Opaque) {
    auto T = EB.condition(S.Cond, true), F = EB.condition(S.Cond, false);
    std::vector<std::pair<MemSpace, std::optional<JExpr>>> Sides = {{S.IfTrue, T},
                                                                    {S.IfFalse, F}};
    if (!T || !F) {
      unknown("generic access whose address space is not provable statically (counted under "
              "bytes.generic; a select of pointers in two spaces on a condition hroof cannot "
              "express) in " + at(BB));
      Sides = {{MemSpace::Generic, std::nullopt}};
    }
    for (auto &[Space, Factor] : Sides) {
      CountVector Counts{};
      Counts[bytesIndex(Space, S.Dir)] = S.Bytes;
      for (const Product &P : Mult) {
        Product Q = P;
        if (Factor)
          Q.push_back(*Factor);
        Out.Terms.push_back({Counts, finished(std::move(Q)), at(BB), {}, Opaque == Opacity::Guard,
                             Opaque == Opacity::Trips});
      }
    }
  }

  /// The accesses run \p AccessMult times (default: \p Mult; none with
  /// \p WithAccesses false): an early-exit loop's blocks that run in every
  /// iteration count its first iteration and the rest apart, and list their
  /// accesses once, guarded, for all iterations.
  void emitBlock(BasicBlock *BB, const Alts &Mult, const Opaqueness &Here,
                 bool WithAccesses = true, const Alts *AccessMult = nullptr) {
    Opacity Opaque = Here.Kind;
    BlockCounts C = countBlock(*BB);
    for (const std::string &U : C.Unknown)
      unknown(U + " in " + at(*BB));
    for (const std::string &U : C.WarpUnknown)
      if (std::find(Out.WarpUnknown.begin(), Out.WarpUnknown.end(), U) == Out.WarpUnknown.end())
        Out.WarpUnknown.push_back(U);
    bool Any = std::any_of(C.Counts.begin(), C.Counts.end(), [](uint64_t V) { return V != 0; }) ||
               !C.ArgBytes.empty();
    std::vector<IRWarpAccess> Accesses;
    auto AccessTrips = [this](Loop *L) { // an early-exit loop's accesses run at most its maximum
      auto It = MaxRuns.find(L);
      return It != MaxRuns.end() ? std::optional<JExpr>(It->second) : tripCount(L);
    };
    if (WithAccesses)
      Accesses = describeBlockAccesses(*BB, at(*BB), SE, LI, EB, AccessTrips);
    if (Any || !C.Unknown.empty() || !C.ShflGuarded.empty() || !C.Calls.empty() ||
        !Accesses.empty() || !C.SpaceSelects.empty())
      reportGuards(Here);
    if (Any)
      for (const Product &P : Mult)
        Out.Terms.push_back({C.Counts, finished(P), at(*BB), C.ArgBytes,
                             Opaque == Opacity::Guard, Opaque == Opacity::Trips});
    for (const ShflGuardedCounts &G : C.ShflGuarded) {
      std::optional<JExpr> Valid = shflValidExpr(G, EB);
      if (!Valid)
        unknown("predicated inline asm '" + G.Line +
                    "' (a shuffle's predicate with operands that are data) counted as always "
                    "executed in " + at(*BB),
                /*BoundsHold=*/true);
      for (const Product &P : Mult) {
        Product Q = P;
        if (Valid)
          Q.push_back(*Valid);
        Out.Terms.push_back({G.Counts, finished(std::move(Q)), at(*BB), {},
                             Opaque == Opacity::Guard || !Valid, Opaque == Opacity::Trips});
      }
    }
    for (const SpaceSelectBytes &S : C.SpaceSelects)
      emitSpaceSelect(S, *BB, Mult, Opaque);
    for (const CallBase *CB : C.Calls)
      emitCall(*CB, Mult, Opaque);
    for (IRWarpAccess &W : Accesses) {
      for (const Product &P : AccessMult ? *AccessMult : Mult)
        W.Alternatives.push_back(finished(P));
      enumerateAddressLoop(W, LI.getLoopFor(BB), EB, AccessTrips);
      windowAccessLoops(W, AccessMult ? *AccessMult : Mult, EB);
      leaveSummedAccessOut(W);
      if (Opaque == Opacity::Guard)
        W.Guarded = "it runs under a condition on data or on a loop variable";
      else if (Opaque == Opacity::Trips)
        W.Unbounded = "it is in a loop whose trip count hroof cannot express";
      Out.Accesses.push_back(std::move(W));
    }
  }

  void emitCall(const CallBase &CB, const Alts &Mult, Opacity Opaque);
  int newIterVar();

  /// \p Base times the block's path conditions \p Cond. Inside a loop with a
  /// trip count (the last factor of every product of Base), conditions on
  /// the iteration index become the number of iterations that meet them.
  Alts multiplicity(const Alts &Base, const Alts &Cond, const BasicBlock &Where) {
    Alts R = cross(Base, Cond, Where);
    if (IterLoop)
      for (size_t I = 0; I < R.size(); ++I)
        resolveIterationAtoms(R[I], Base[I / Cond.size()].size() - 1);
    return R;
  }

  /// The blocks of loop \p L (the function when null) outside its sub-loops,
  /// from \p Entry, each running Base times its path condition in L.
  /// \p TripsKnown: Base ends with a marker of sum \p IterId and L's trip
  /// count, and L's variables are expressions of the iteration index.
  /// The first iteration of an early-exit loop (EarlyExitLoop.h): the
  /// blocks every iteration runs count Once exactly and Rest as guarded.
  struct FirstIteration {
    Alts Once, Rest;
    Opaqueness OnceOpaque;
  };

  void region(Loop *L, BasicBlock *Entry, const Alts &Base, const Opaqueness &BaseOpaque,
              bool TripsKnown, int IterId = -1, const FirstIteration *First = nullptr) {
    Loop *OuterIterLoop = IterLoop;
    IterLoop = TripsKnown ? L : nullptr;
    if (TripsKnown)
      EB.bindIterVar(L, IterId);
    DenseMap<BasicBlock *, Alts> Cond;
    DenseMap<BasicBlock *, Opaqueness> Opaque;
    for (BasicBlock *BB : RPO) {
      if (nodeOf(BB, L) != BB)
        continue; // outside this region, or inside a sub-loop but not its header
      if (BB == Entry) {
        Cond[BB] = Alts{Product{}};
      } else {
        // A block that post-dominates its immediate dominator runs exactly
        // when the dominator does (within one iteration of L).
        BasicBlock *IDom =
            DT.getNode(BB)->getIDom() ? DT.getNode(BB)->getIDom()->getBlock() : nullptr;
        BasicBlock *DN = IDom ? nodeOf(IDom, L) : nullptr;
        auto DomCond = DN ? Cond.find(DN) : Cond.end();
        if (DomCond != Cond.end() && PDT.dominates(BB, IDom)) {
          // Copy before inserting BB: the insertion may grow the map and
          // move the dominator's entry (a reference into it would dangle).
          Alts Inherited = DomCond->second;
          Cond[BB] = std::move(Inherited);
          Opaque[BB] = Opaque.lookup(DN);
        } else {
          Alts Sum;
          FailedAtoms.clear();
          Opaqueness Kind;
          for (BasicBlock *P : predecessors(BB)) {
            if (L && BB == L->getHeader())
              continue;
            BasicBlock *PN = nodeOf(P, L);
            if (!PN || PN == BB)
              continue; // from outside, or a sub-loop's own back edge
            auto It = Cond.find(PN);
            if (It == Cond.end()) {
              unknown("irreducible control flow at " + at(*BB));
              continue;
            }
            Alts E;
            if (PN != P) { // leaving a sub-loop
              Loop *Sub = LI.getLoopFor(PN);
              SmallVector<BasicBlock *, 4> Exits;
              Sub->getUniqueExitBlocks(Exits);
              if (Exits.size() != 1)
                unknown("loop at " + at(*PN) + " has several exits");
              E = Alts{Product{}};
            } else {
              E = edge(P, BB);
            }
            Kind.merge(Opaque.lookup(PN));
            Alts C = cross(It->second, E, *BB);
            Sum.insert(Sum.end(), C.begin(), C.end());
          }
          if (Sum.size() > MaxPaths) {
            unknown("too many distinct paths to " + at(*BB) + " (raise -hroof-max-paths)");
            Sum.resize(MaxPaths);
          }
          Cond[BB] = std::move(Sum);
          if (!FailedAtoms.empty()) {
            llvm::sort(FailedAtoms);
            FailedAtoms.erase(std::unique(FailedAtoms.begin(), FailedAtoms.end()),
                              FailedAtoms.end());
            Kind.merge(Opaqueness{Opacity::Guard, FailedAtoms});
          }
          Opaque[BB] = std::move(Kind);
        }
      }
      Opaqueness Here = BaseOpaque;
      Here.merge(Opaque.lookup(BB));
      Alts Mult = multiplicity(Base, Cond[BB], *BB);
      if (Loop *Sub = LI.getLoopFor(BB); Sub != L && Sub->getHeader() == BB) {
        std::optional<JExpr> Trips = tripCount(Sub);
        int Id = -1;
        if (!Trips && earlyExitLoop(Sub, BB, Mult, Here))
          continue;
        if (!Trips) {
          // Reported where a block of the loop counts something: a loop
          // that counts nothing (a wait on a flag) leaves the counts exact.
          Here.merge(Opaqueness{Opacity::Trips,
                                {reasonIndex("loop at " + at(*BB) +
                                             " has a trip count hroof cannot express (" +
                                             describeOpaqueLoop(*Sub, LI) +
                                             "); counted as one iteration per entry")}});
        } else {
          Id = newIterVar();
          for (Product &P : Mult) {
            P.push_back(loopMarker(Id, *Trips));
            P.push_back(*Trips);
          }
        }
        region(Sub, BB, Mult, Here, Trips.has_value(), Id);
      } else if (First && runsInEveryIteration(*BB, *L, LI, DT)) {
        Opaqueness Once = First->OnceOpaque;
        Once.merge(Opaque.lookup(BB));
        emitBlock(BB, multiplicity(First->Rest, Cond[BB], *BB), Here, true, &Mult);
        emitBlock(BB, multiplicity(First->Once, Cond[BB], *BB), Once, /*WithAccesses=*/false);
      } else {
        emitBlock(BB, Mult, Here);
      }
    }
    if (TripsKnown)
      EB.unbindIterVar(L);
    IterLoop = OuterIterLoop;
  }

  /// Loop \p Sub (header \p BB, entered \p Mult times) without a trip count
  /// but with a maximum (EarlyExitLoop.h): its blocks are guarded terms
  /// times the maximum, and those every iteration runs count the first
  /// iteration exactly. False when there is no maximum.
  bool earlyExitLoop(Loop *Sub, BasicBlock *BB, const Alts &Mult, const Opaqueness &Here) {
    auto B = earlyExitBounds(*Sub, SE, EB, LI);
    if (!B)
      return false;
    Opaqueness Rest = Here;
    Rest.merge(Opaqueness{Opacity::Guard,
                          {reasonIndex("loop at " + at(*BB) + " may end early on " + B->Why +
                                       ": counted from its first iteration up to the bound " +
                                       "of its countable exit")}});
    FirstIteration First{Mult, Mult, Here};
    Alts Upto = Mult;
    for (Product &P : First.Rest)
      P.push_back(B->MaxRunsMinus1);
    for (Product &P : Upto)
      P.push_back(B->MaxRuns);
    MaxRuns.insert_or_assign(Sub, B->MaxRuns);
    region(Sub, BB, Upto, Rest, /*TripsKnown=*/false, -1, &First);
    return true;
  }

  Function &F;
  LoopInfo &LI;
  DominatorTree &DT;
  PostDominatorTree &PDT;
  ScalarEvolution &SE;
  ExprBuilder EB;
  ModuleModeler &MM;
  IRFunctionModel Out;
  std::vector<BasicBlock *> RPO;
  DenseMap<const BasicBlock *, std::string> Wheres; ///< at(), filled on first use
  /// Conditions decompose() could not express on the edges into the block
  /// being built (indices into GuardReasons).
  std::vector<unsigned> FailedAtoms;
  std::vector<std::string> GuardReasons;
  /// The loop whose region is being built, while its trip count is known:
  /// branches on its iteration index can then be counted (IterationCondition.h).
  Loop *IterLoop = nullptr;
  /// Early-exit loops' most header runs per entry, for their accesses.
  std::map<const Loop *, JExpr> MaxRuns;
};

class ModuleModeler {
public:
  ModuleModeler(Module &M, ModuleAnalysisManager &MAM)
      : FAM(MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager()) {}

  /// Model of \p F, or null while it is being built (recursion).
  const IRFunctionModel *get(Function &F) {
    auto It = Models.find(&F);
    if (It != Models.end())
      return &It->second;
    if (!InProgress.insert(&F).second)
      return nullptr;
    IRFunctionModel FM = modelOrDegrade(F);
    InProgress.erase(&F);
    return &(Models[&F] = std::move(FM));
  }

  /// A failure inside the modeler (IR it does not understand) must never
  /// abort the user's compile: the function is "not modelled", with the
  /// reason in its model and one remark on stderr.
  IRFunctionModel modelOrDegrade(Function &F) {
    try {
      return FunctionModeler(F, FAM, *this).run();
    } catch (const std::exception &E) {
      IRFunctionModel FM;
      FM.IsKernel = isKernel(F);
      FM.Unknown.push_back(std::string("not modelled: hroof failed on this "
                                       "function (") +
                           E.what() + "); please report it");
      F.getContext().diagnose(
          DiagnosticInfoGeneric("hroof: " + F.getName() + ": " + FM.Unknown.back(), DS_Remark));
      return FM;
    }
  }

  IRModuleModel take(Module &M) {
    IRModuleModel R;
    for (Function &F : M)
      if (isKernel(F) && !F.isDeclaration())
        R[&F] = Models.count(&F) ? Models[&F] : IRFunctionModel{};
    return R;
  }

  /// A sum id unique in the module: a callee's sums, inlined into a
  /// caller's products, never capture the caller's iteration indices.
  int newIterVar() {
    if (NextIterVar >= MaxIterVarId)
      throw std::runtime_error("more loops than sum ids");
    return NextIterVar++;
  }

  FunctionAnalysisManager &FAM;
  int NextIterVar = 0;
  std::map<const Function *, IRFunctionModel> Models;
  SmallPtrSet<const Function *, 8> InProgress;
};

int FunctionModeler::newIterVar() { return MM.newIterVar(); }

void FunctionModeler::emitCall(const CallBase &CB, const Alts &Mult, Opacity Opaque) {
  Function *G = CB.getCalledFunction();
  const IRFunctionModel *GM = MM.get(*G);
  if (!GM) {
    unknown("recursive call to " + G->getName().str() + " in " + at(*CB.getParent()));
    return;
  }
  auto Add = [](std::vector<std::string> &V, const std::string &S) {
    if (std::find(V.begin(), V.end(), S) == V.end())
      V.push_back(S);
  };
  Add(Out.Callees, G->getName().str());
  for (const std::string &C : GM->Callees)
    Add(Out.Callees, C);
  for (const std::string &U : GM->Unknown)
    unknown(U, /*BoundsHold=*/true); // the callee's terms carry its flags
  for (const std::string &U : GM->NoUpperBound)
    unknown(U);
  // The callee's addresses are relative to its own arguments; substituting
  // them is left for later: its accesses make the warp-level model partial.
  if (!GM->Accesses.empty())
    Add(Out.WarpUnknown, "memory accesses in called device function " + G->getName().str());
  for (const std::string &U : GM->WarpUnknown)
    Add(Out.WarpUnknown, U);
  std::vector<std::optional<JExpr>> Args;
  for (const Use &A : CB.args())
    Args.push_back(EB.build(A.get()));
  for (const IRModelTerm &Term : GM->Terms) {
    IRModelTerm T = Term;
    // Bytes through the callee's pointer arguments: the space of this call's
    // actual argument, or (through our own argument) our caller's.
    std::map<std::pair<unsigned, MemDir>, uint64_t> Mine;
    for (auto [Key, N] : Term.ArgBytes) {
      const Value *Actual = CB.getArgOperand(Key.first);
      MemSpace S = resolveMemSpace(Actual);
      if (S == MemSpace::Generic) {
        const Argument *A = deviceFunctionArgument(Actual);
        if (A && A->getParent() == &F) {
          Mine[{A->getArgNo(), Key.second}] += N;
          continue;
        }
        unknown("generic access whose address space is not provable "
                "statically (counted under bytes.generic) in " +
                T.Where);
      }
      T.Counts[bytesIndex(S, Key.second)] += N;
    }
    T.ArgBytes = std::move(Mine);
    Product Callee;
    for (const JExpr &F : T.Factors) {
      JExpr S = F;
      if (substituteArgs(S, Args)) {
        Callee.push_back(std::move(S));
      } else {
        // A factor left out may be a count (more) or a condition (less).
        T.Unbounded = true;
        unknown("counts of " + G->getName().str() + " depend on an argument " +
                    "that is data or a loop variable at " + at(*CB.getParent()),
                /*BoundsHold=*/true);
      }
    }
    T.Guarded |= Opaque == Opacity::Guard;
    T.Unbounded |= Opaque == Opacity::Trips;
    for (const Product &P : Mult) {
      Product All = P;
      All.insert(All.end(), Callee.begin(), Callee.end());
      Out.Terms.push_back(
          {T.Counts, finished(std::move(All)), T.Where, T.ArgBytes, T.Guarded, T.Unbounded});
    }
  }
}

} // namespace

IRModuleModel KernelModelAnalysis::run(Module &M, ModuleAnalysisManager &MAM) {
  warnIfUnoptimized(M);
  ModuleModeler MM(M, MAM);
  for (Function &F : M)
    if (isKernel(F) && !F.isDeclaration())
      MM.get(F);
  return MM.take(M);
}

} // namespace hroof
