//===- Instrument.cpp - dynamic counting: instrument device code ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Instrument.h"
#include "hroof/StaticModelKeys.h"
#include "Counting.h"
#include "Flush.h"
#include "InductionLoop.h"
#include "KernelModel.h"
#include "ShflPredicate.h"
#include "WarpInstrument.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <map>
#include <set>

#define DEBUG_TYPE "hroof-instrument"

using namespace llvm;

static cl::opt<std::string>
    Mode("hroof-mode",
         cl::desc("hroof: 'dynamic' (default) instruments kernels and embeds the "
                  "static model; 'static' embeds only the static model"),
         cl::init("dynamic"));
static cl::opt<bool>
    HoistLoops("hroof-hoist-loops",
               cl::desc("hroof: count once per loop entry (trip count x counts) where "
                        "the trip count can be computed at the preheader"),
               cl::init(true));
static cl::opt<bool> InstrumentExact(
    "hroof-instrument-exact",
    cl::desc("hroof: instrument also the kernels whose static model is exact (by default "
             "their counts come from the model, evaluated at each launch, at no kernel cost; "
             "on, the instrumentation cross-checks the model)"),
    cl::init(false));

namespace hroof {

bool dynamicModeEnabled() { return Mode != "static"; }

namespace {
/// Whether \p E reads blockIdx.
bool readsBlockIndex(const JExpr &E) {
  const json::Array *A = E.getAsArray();
  if (!A || A->empty())
    return false;
  if (auto Op = (*A)[0].getAsString(); Op && *Op == exprOpName(ExprOp::SReg) && A->size() == 2)
    if (auto R = (*A)[1].getAsString()) // "ctaid.x", not "nctaid.x" (the same in every block)
      return R->starts_with("ctaid");
  return std::any_of(A->begin() + 1, A->end(), readsBlockIndex);
}
} // namespace

bool warpModelComplete(const IRFunctionModel &FM) {
  // An access whose iterations are enumerated (IRWarpLoop::IterVar) at
  // addresses that move with the block is evaluated block by block, lane
  // by lane and iteration by iteration: large launches would go over the
  // runtime's budget and have no warp-level counts at all, so such kernels
  // keep their instrumentation.
  return FM.WarpUnknown.empty() &&
         std::all_of(FM.Accesses.begin(), FM.Accesses.end(), [](const IRWarpAccess &A) {
           bool Enumerated = !A.Loops.empty() && A.Loops[0].IterVar >= 0;
           return A.Unmodelled.empty() && A.Guarded.empty() && A.Unbounded.empty() &&
                  A.Offset.has_value() && !(Enumerated && readsBlockIndex(*A.Offset));
         });
}

std::string counterArrayName(StringRef Mangled) { return (CounterArrayPrefix + Mangled).str(); }

namespace {

bool isKernel(const Function &F) { return F.getCallingConv() == CallingConv::PTX_Kernel; }

/// Memory accesses whose space is only known at run time.
struct GenericAccess {
  Instruction *I;
  Value *Ptr;
  MemDir Dir;
  uint64_t Bytes;
};

std::vector<GenericAccess> genericAccesses(BasicBlock &BB) {
  std::vector<GenericAccess> R;
  for (Instruction &I : BB)
    if (auto A = memoryAccess(I); A && resolveMemSpace(A->Ptr) == MemSpace::Generic)
      R.push_back({&I, A->Ptr, A->Dir, A->Bytes});
  return R;
}

/// Static counts of a block without its generic accesses (counted at run time).
CountVector staticCounts(BasicBlock &BB) {
  BlockCounts C = countBlock(BB);
  for (int D = 0; D < NumMemDirs; ++D)
    C.Counts[bytesIndex(MemSpace::Generic, MemDir(D))] = 0;
  return C.Counts;
}

class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M, ModuleAnalysisManager &MAM)
      : M(M), Ctx(M.getContext()),
        FAM(MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager()),
        I64(Type::getInt64Ty(Ctx)), I32(Type::getInt32Ty(Ctx)),
        BufTy(ArrayType::get(I64, NumCounters)) {}

  /// \p ByModel: kernels left uninstrumented (their exact model counts them).
  void run(const std::set<std::string> &ByModel) {
    // Functions to instrument: kernels and what they call directly.
    SetVector<Function *> Work;
    for (Function &F : M)
      if (isKernel(F) && !F.isDeclaration() && !ByModel.count(F.getName().str()))
        Work.insert(&F);
    for (size_t I = 0; I < Work.size(); ++I)
      for (BasicBlock &BB : *Work[I])
        for (Instruction &Inst : BB)
          if (auto *CB = dyn_cast<CallBase>(&Inst))
            if (Function *G = CB->getCalledFunction())
              if (!G->isDeclaration() && !isKernel(*G))
                Work.insert(G);
    // Device functions whose counts are the same on every call are counted
    // by their callers' blocks, with no code in them; the others get a
    // result-buffer parameter, where possible.
    for (Function *F : Work)
      if (!isKernel(*F))
        if (auto C = constantCounts(*F))
          ConstCallee[F] = *C;
    std::vector<Function *> Funcs;
    for (Function *F : Work) {
      if (isKernel(*F)) {
        capRegisters(*F);
        Funcs.push_back(F);
        continue;
      }
      if (ConstCallee.count(F))
        continue;
      if (Function *NF = addBufferParam(*F))
        Funcs.push_back(NF);
    }
    for (Function *F : Funcs)
      FAM.invalidate(*F, PreservedAnalyses::none());
    for (Function *F : Funcs)
      usedCounters(*F);
    for (Function *F : Funcs)
      instrument(*F);
  }

private:
  /// Per-call counts of \p F if they are the same on every call: every block
  /// with counts runs exactly once (outside loops, dominating every return),
  /// with no generic access and no call to another function with a body.
  std::optional<CountVector> constantCounts(Function &F) {
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    std::vector<BasicBlock *> Returns;
    for (BasicBlock &BB : F)
      if (isa<ReturnInst>(BB.getTerminator()))
        Returns.push_back(&BB);
    if (Returns.empty())
      return std::nullopt;
    CountVector Sum{};
    for (BasicBlock &BB : F) {
      if (!genericAccesses(BB).empty())
        return std::nullopt;
      for (Instruction &I : BB) {
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *G = CB->getCalledFunction(); !G || !G->isDeclaration())
            return std::nullopt;
        // Warp-level counts depend on the addresses: counted where they run.
        if (warpCountsEnabled() && !warpRequestsOf(I).empty())
          return std::nullopt;
      }
      BlockCounts BC = countBlock(BB);
      if (!BC.ShflGuarded.empty())
        return std::nullopt; // counted where the shuffle's predicate is known
      CountVector C = BC.Counts;
      if (std::all_of(C.begin(), C.end(), [](uint64_t X) { return X == 0; }))
        continue;
      if (LI.getLoopFor(&BB))
        return std::nullopt;
      for (BasicBlock *R : Returns)
        if (!DT.dominates(&BB, R))
          return std::nullopt;
      for (int K = 0; K < NumCounters; ++K)
        Sum[K] += C[K];
    }
    return Sum;
  }

  /// A block's counts: its own (generic accesses apart) plus the counts of
  /// the constant-count functions it calls.
  CountVector blockCounts(BasicBlock &BB) {
    CountVector C = staticCounts(BB);
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallInst>(&I))
        if (auto It = ConstCallee.find(CB->getCalledFunction()); It != ConstCallee.end())
          for (int K = 0; K < NumCounters; ++K)
            C[K] += It->second[K];
    return C;
  }

  /// Replaces F by a copy with a trailing `ptr` parameter (the caller's
  /// result buffer) if every use of F is a direct call. Returns the new
  /// function or null.
  Function *addBufferParam(Function &F) {
    for (const Use &U : F.uses()) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U) || !isa<CallInst>(CB))
        return nullptr;
    }
    unsigned AS = M.getDataLayout().getAllocaAddrSpace();
    SmallVector<Type *, 8> Params(F.getFunctionType()->params());
    Params.push_back(PointerType::get(Ctx, AS));
    auto *FTy = FunctionType::get(F.getReturnType(), Params, F.isVarArg());
    Function *NF =
        Function::Create(FTy, F.getLinkage(), F.getAddressSpace(), F.getName() + ".hroof", &M);
    NF->copyAttributesFrom(&F);
    NF->setCallingConv(F.getCallingConv());
    NF->splice(NF->begin(), &F);
    for (auto [Old, New] : zip(F.args(), NF->args())) {
      Old.replaceAllUsesWith(&New);
      New.takeName(&Old);
    }
    NF->getArg(NF->arg_size() - 1)->setName("hroof.counts");
    std::vector<CallInst *> Calls;
    for (User *U : F.users())
      Calls.push_back(cast<CallInst>(U));
    for (CallInst *CI : Calls) {
      SmallVector<Value *, 8> Args(CI->args());
      Args.push_back(PoisonValue::get(Params.back()));
      auto *NC = CallInst::Create(NF, Args, "", CI->getIterator());
      NC->setCallingConv(CI->getCallingConv());
      NC->setAttributes(CI->getAttributes());
      NC->setTailCallKind(CallInst::TCK_None);
      NC->setDebugLoc(CI->getDebugLoc());
      CI->replaceAllUsesWith(NC);
      NC->takeName(CI);
      CI->eraseFromParent();
    }
    std::string Name = F.getName().str();
    F.eraseFromParent();
    NF->setName(Name);
    Rewritten.insert(NF);
    return NF;
  }

  /// Counters that F may change, its callees included.
  const CounterSet &usedCounters(Function &F) {
    auto It = Used.find(&F);
    if (It != Used.end())
      return It->second;
    CounterSet &S = Used[&F]; // empty while in progress: recursion adds nothing
    CounterSet Acc;
    for (BasicBlock &BB : F) {
      CountVector C = blockCounts(BB);
      for (const ShflGuardedCounts &G : countBlock(BB).ShflGuarded)
        for (int K = 0; K < NumCounters; ++K)
          C[K] += G.Counts[K];
      for (int K = 0; K < NumCounters; ++K)
        if (C[K])
          Acc.insert(K);
      for (const GenericAccess &G : genericAccesses(BB))
        for (MemSpace Sp :
             {MemSpace::Global, MemSpace::Shared, MemSpace::Local, MemSpace::Constant})
          Acc.insert(bytesIndex(Sp, G.Dir));
      for (Instruction &I : BB)
        for (const WarpRequest &R :
             warpCountsEnabled() ? warpRequestsOf(I) : std::vector<WarpRequest>{})
          warpCountersOf(R, Acc);
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallInst>(&I))
          if (Function *G = CB->getCalledFunction(); G && Rewritten.count(G)) {
            const CounterSet &GS = usedCounters(*G);
            Acc.insert(GS.begin(), GS.end());
          }
    }
    Used[&F] = Acc;
    return Used[&F];
  }

  /// Header executions per entry of \p L as an i64 computed at \p Pre, or
  /// null. Code is only emitted when it will be used.
  Value *tripsAtPreheader(Loop *L, BasicBlock *Pre, ScalarEvolution &SE) {
    IRBuilder<> B(Pre->getTerminator());
    const SCEV *BTC = SE.getBackedgeTakenCount(L);
    // A trip count that divides by a run-time value (a grid-stride loop's
    // blockDim.x * gridDim.x) costs a 64-bit division per thread, more than
    // one add per iteration of the few iterations such loops usually make:
    // measured on the H100 as the main cost of small grid-stride kernels
    // (docs/validation/overhead.md). Those loops count in place.
    auto DividesByVariable = [](const SCEV *S) {
      return SCEVExprContains(S, [](const SCEV *X) {
        auto *D = dyn_cast<SCEVUDivExpr>(X);
        return D && !isa<SCEVConstant>(D->getRHS());
      });
    };
    if (!isa<SCEVCouldNotCompute>(BTC) && DividesByVariable(BTC))
      return nullptr;
    if (!isa<SCEVCouldNotCompute>(BTC) && BTC->getType()->isIntegerTy()) {
      SCEVExpander Exp(SE, "hroof.trip");
      if (Exp.isSafeToExpandAt(BTC, Pre->getTerminator())) {
        Value *V = Exp.expandCodeFor(BTC, BTC->getType(), Pre->getTerminator());
        return B.CreateAdd(B.CreateZExtOrTrunc(V, I64), ConstantInt::get(I64, 1), "hroof.trips");
      }
    }
    auto IL = matchInductionLoop(*L);
    if (!IL || !isa<ConstantInt>(IL->Step) || IL->NarrowWrapWidth)
      return nullptr; // a variable step divides at run time (above)
    auto Ext = [&](Value *V, bool Signed) {
      Type *WideTy = B.getIntNTy(IL->Width); // a narrower variable widens first
      if (V->getType()->getIntegerBitWidth() < IL->Width)
        V = IL->ExtSigned ? B.CreateSExt(V, WideTy) : B.CreateZExt(V, WideTy);
      return Signed ? B.CreateSExtOrTrunc(V, I64) : B.CreateZExtOrTrunc(V, I64);
    };
    Value *S = Ext(IL->Start, IL->Signed), *Bd = Ext(IL->Bound, IL->Signed),
          *St = Ext(IL->Step, true);
    bool Inclusive = IL->Pred == CmpInst::ICMP_SLE || IL->Pred == CmpInst::ICMP_ULE ||
                     IL->Pred == CmpInst::ICMP_SGE || IL->Pred == CmpInst::ICMP_UGE;
    Value *One = ConstantInt::get(I64, 1);
    Value *Diff, *Den;
    if (IL->Downward) {
      Diff = B.CreateSub(Inclusive ? B.CreateAdd(S, One) : S, Bd);
      Den = B.CreateNeg(St);
    } else {
      Diff = B.CreateSub(Inclusive ? B.CreateAdd(Bd, One) : Bd, S);
      Den = St;
    }
    // ceildiv for a positive divisor; a non-positive one never runs long.
    Den = B.CreateBinaryIntrinsic(Intrinsic::smax, Den, One);
    Value *Q = B.CreateSDiv(B.CreateAdd(Diff, B.CreateSub(Den, One)), Den);
    if (!IL->PostInc)
      Q = B.CreateAdd(Q, One);
    Q = B.CreateBinaryIntrinsic(Intrinsic::smax, Q, One);
    if (IL->StopsAtNegative) { // a negative first tested value: one header run
      Value *First = IL->PostInc ? B.CreateAdd(S, St) : S;
      Q = B.CreateSelect(B.CreateICmpSLT(First, ConstantInt::get(I64, 0)), One, Q);
    }
    if (auto *I = dyn_cast<Instruction>(Q))
      I->setName("hroof.trips");
    return Q;
  }

  /// Per-thread accumulators, one per "counting point": a count vector (a
  /// block's counts, a loop's per-iteration sum, or one counter) and how many
  /// times this thread added it. Blocks with equal counts share a point, so a
  /// straight-line guarded kernel carries one accumulator, not one per
  /// counter. Bound: the largest value each can reach in one thread, known
  /// when every addition is a bounded amount in a block outside loops (it
  /// runs at most once), else unbounded; lets the flush skip its overflow
  /// check.
  struct CountingPoints {
    static constexpr uint64_t Unbounded = ~uint64_t(0);
    Function &F;
    LoopInfo &LI;
    Type *I64;
    unsigned AllocaAS;
    std::map<CountVector, AllocaInst *> Acc;
    std::vector<AllocaInst *> Promote;
    std::map<CountVector, uint64_t> Bound;

    AllocaInst *accOf(const CountVector &V) {
      auto [It, New] = Acc.try_emplace(V, nullptr);
      if (New) {
        IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
        It->second =
            B.CreateAlloca(I64, AllocaAS, nullptr, "hroof.acc." + std::to_string(Acc.size() - 1));
        B.CreateStore(ConstantInt::get(I64, 0), It->second);
        Promote.push_back(It->second);
      }
      return It->second;
    }
    void add(IRBuilder<> &B, const CountVector &V, Value *Times, uint64_t MaxTimes = Unbounded) {
      AllocaInst *A = accOf(V);
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, A), Times), A);
      uint64_t &Bd = Bound[V];
      bool InLoop = LI.getLoopFor(B.GetInsertBlock()) != nullptr;
      Bd = (InLoop || MaxTimes == Unbounded || Bd == Unbounded || Bd + MaxTimes < Bd)
               ? Unbounded
               : Bd + MaxTimes;
    }
    void addOne(IRBuilder<> &B, int K, Value *V, uint64_t Max = Unbounded) {
      CountVector U{};
      U[K] = 1;
      add(B, U, V, Max);
    }
  };

  /// Loops counted once at their preheader (trip count x the counts of the
  /// blocks that run every iteration); returns block -> loop that counts it.
  std::map<BasicBlock *, Loop *> hoistLoops(CountingPoints &P, DominatorTree &DT, LoopInfo &LI,
                                            ScalarEvolution &SE,
                                            std::map<BasicBlock *, CountVector> &Counts) {
    std::map<BasicBlock *, Loop *> HoistedTo;
    if (!HoistLoops)
      return HoistedTo;
    for (Loop *L : LI.getLoopsInPreorder()) {
      BasicBlock *Latch = L->getLoopLatch();
      if (!Latch || L->getExitingBlock() != Latch)
        continue;
      BasicBlock *Pre = L->getLoopPreheader();
      if (!Pre)
        Pre = InsertPreheaderForLoop(L, &DT, &LI, nullptr, false);
      if (!Pre)
        continue;
      // Trip count at the preheader: from ScalarEvolution, else from the
      // induction-variable pattern (grid-stride loops).
      Value *Trips = tripsAtPreheader(L, Pre, SE);
      if (!Trips)
        continue;
      CountVector Sum{};
      bool Any = false;
      for (BasicBlock *BB : L->blocks())
        if (LI.getLoopFor(BB) == L && DT.dominates(BB, Latch)) {
          HoistedTo[BB] = L;
          const CountVector &C = Counts[BB];
          for (int K = 0; K < NumCounters; ++K) {
            Sum[K] += C[K];
            Any |= C[K] != 0;
          }
        }
      if (!Any)
        continue;
      IRBuilder<> B(Pre->getTerminator());
      P.add(B, Sum, Trips);
    }
    return HoistedTo;
  }

  /// Run-time classification of generic accesses: isspacep per space.
  void countGenericAccesses(CountingPoints &P, const std::vector<GenericAccess> &Accesses) {
    for (const GenericAccess &G : Accesses) {
      IRBuilder<> B(G.I);
      std::pair<Intrinsic::ID, MemSpace> Spaces[] = {
          {Intrinsic::nvvm_isspacep_global, MemSpace::Global},
          {Intrinsic::nvvm_isspacep_shared, MemSpace::Shared},
          {Intrinsic::nvvm_isspacep_local, MemSpace::Local},
          {Intrinsic::nvvm_isspacep_const, MemSpace::Constant}};
      for (auto [ID, Sp] : Spaces) {
        Value *Is = B.CreateCall(Intrinsic::getOrInsertDeclaration(&M, ID), {G.Ptr});
        P.addOne(B, bytesIndex(Sp, G.Dir),
                 B.CreateSelect(Is, ConstantInt::get(I64, G.Bytes), ConstantInt::get(I64, 0)),
                 G.Bytes);
      }
    }
  }

  /// Counts returned by instrumented callees through the call's buffer.
  void countCallees(CountingPoints &P, const std::vector<CallInst *> &Calls, AllocaInst *&CallBuf) {
    for (CallInst *CI : Calls) {
      Function *G = CI->getCalledFunction();
      if (!CallBuf) {
        IRBuilder<> B(&*P.F.getEntryBlock().getFirstInsertionPt());
        CallBuf = B.CreateAlloca(BufTy, P.AllocaAS, nullptr, "hroof.callee");
      }
      CI->setArgOperand(CI->arg_size() - 1, CallBuf);
      IRBuilder<> B(CI->getNextNode());
      for (int K : Used[G]) {
        Value *Ptr = B.CreateConstInBoundsGEP2_32(BufTy, CallBuf, 0, K);
        P.addOne(B, K, B.CreateLoad(I64, Ptr));
      }
    }
  }

  void instrument(Function &F) {
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    const CounterSet &Mine = Used[&F];
    if (Mine.empty() && !isKernel(F)) {
      // Nothing to count: the callers read nothing from the buffer.
      return;
    }
    // Everything is measured before the first change: instrumentation code
    // must not count itself.
    std::vector<BasicBlock *> Blocks;
    std::map<BasicBlock *, CountVector> Counts;
    std::map<BasicBlock *, std::vector<GenericAccess>> Generic;
    std::map<BasicBlock *, std::vector<CallInst *>> Calls;
    std::map<BasicBlock *, std::vector<WarpRequest>> Warp;
    std::map<BasicBlock *, std::vector<ShflGuardedCounts>> Shfl;
    for (BasicBlock &BB : F) {
      Blocks.push_back(&BB);
      Counts[&BB] = blockCounts(BB);
      Shfl[&BB] = countBlock(BB).ShflGuarded;
      Generic[&BB] = genericAccesses(BB);
      if (warpCountsEnabled())
        Warp[&BB] = warpRequests(BB, SE);
      for (Instruction &I : BB)
        if (auto *CI = dyn_cast<CallInst>(&I))
          if (Function *G = CI->getCalledFunction(); G && Rewritten.count(G))
            Calls[&BB].push_back(CI);
    }
    CountingPoints P{F, LI, I64, M.getDataLayout().getAllocaAddrSpace()};
    std::map<BasicBlock *, Loop *> HoistedTo = hoistLoops(P, DT, LI, SE, Counts);

    AllocaInst *CallBuf = nullptr;
    Argument *MyBuf = Rewritten.count(&F) ? F.getArg(F.arg_size() - 1) : nullptr;
    std::vector<std::pair<ReturnInst *, std::vector<FinalValue>>> Exits;
    // The warp-level counts split blocks (a branch per request): the
    // dominator tree is updated in one batch before promotion.
    DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Lazy);
    for (BasicBlock *BB : Blocks) {
      // Taken first: a split moves it to the block's last part.
      Instruction *Term = BB->getTerminator();
      countGenericAccesses(P, Generic[BB]);
      for (const WarpRequest &R : Warp[BB])
        emitWarpCounts(
            M, R, [&](IRBuilder<> &B, int K, Value *V, uint64_t Max) { P.addOne(B, K, V, Max); },
            &DTU, &LI);
      countCallees(P, Calls[BB], CallBuf);
      // Asm instructions a shuffle's lane predicate guards: where it holds.
      for (const ShflGuardedCounts &G : Shfl[BB]) {
        IRBuilder<> B(const_cast<CallBase *>(G.Asm)->getNextNode());
        P.add(B, G.Counts, B.CreateZExt(shflValidIR(B, G), I64), 1);
      }
      // This block's own counts.
      if (!HoistedTo.count(BB)) {
        const CountVector &C = Counts[BB];
        if (std::any_of(C.begin(), C.end(), [](uint64_t X) { return X != 0; })) {
          IRBuilder<> B(Term);
          P.add(B, C, ConstantInt::get(I64, 1), 1);
        }
      }
      // Exits: hand the totals to the caller, or flush (after promotion).
      if (auto *R = dyn_cast<ReturnInst>(Term))
        Exits.push_back({R, {}});
    }
    // Final values at each exit, once every point exists.
    for (auto &[R, Final] : Exits) {
      IRBuilder<> B(R);
      for (auto &[V, A] : P.Acc)
        Final.push_back({B.CreateLoad(I64, A, "hroof.final"), V, P.Bound[V]});
      if (MyBuf) {
        // A device function returns per-counter totals to its caller.
        for (int K : Mine) {
          Value *T = ConstantInt::get(I64, 0);
          for (FinalValue &FV : Final)
            if (FV.Vec[K])
              T = B.CreateAdd(T, B.CreateMul(FV.Value, ConstantInt::get(I64, FV.Vec[K])));
          B.CreateStore(T, B.CreateConstInBoundsGEP2_32(BufTy, MyBuf, 0, K));
        }
      }
    }
    DTU.flush();
    PromoteMemToReg(P.Promote, DT);
    if (!isKernel(F))
      return;
    KernelFlush Flush(F, Mine);
    for (auto &[R, Final] : Exits)
      Flush.emit(R, Final);
  }

  /// The warp-level counts need registers: without launch bounds, ptxas may
  /// give a kernel more than 64, and a launch of 1024-thread blocks (65536
  /// registers per SM) then fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
  /// where the plain kernel ran (cuda-samples matrixMul<32> on the H100).
  /// With warp counts on, such kernels are capped at 64 registers (spills
  /// rather than a failed launch; the warp-count build is for counting, not
  /// for timing). Kernels with launch bounds or a register limit keep them.
  void capRegisters(Function &F) {
    if (!warpCountsEnabled() || F.hasFnAttribute("nvvm.maxntid") ||
        F.hasFnAttribute("nvvm.maxnreg"))
      return;
    F.addFnAttr("nvvm.maxnreg", "64");
  }


  Module &M;
  LLVMContext &Ctx;
  FunctionAnalysisManager &FAM;
  Type *I64, *I32;
  ArrayType *BufTy;
  SmallPtrSet<Function *, 8> Rewritten;
  std::map<const Function *, CountVector> ConstCallee;
  std::map<Function *, CounterSet> Used;
};

} // namespace

PreservedAnalyses InstrumentPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!Triple(M.getTargetTriple()).isNVPTX() || M.getNamedGlobal(ModelSymbol))
    return PreservedAnalyses::all();
  // Embed the static model of the code as the optimizer left it. A kernel
  // whose model is exact needs no counting code: the runtime evaluates the
  // model at each launch ("counted_by_model"). With the warp-level counts,
  // only where the warp model also reads every access (warpModelComplete):
  // the runtime then takes the warp-level counts from the warp model at each
  // launch ("warp_counted_by_model"), exact or, at a launch it cannot
  // evaluate exactly, said to be missing.
  const IRModuleModel &Model = MAM.getResult<KernelModelAnalysis>(M);
  std::set<std::string> ByModel;
  if (dynamicModeEnabled() && !InstrumentExact)
    for (auto &[F, FM] : Model)
      if (FM.IsKernel && FM.exact() && (!warpCountsEnabled() || warpModelComplete(FM)))
        ByModel.insert(F->getName().str());
  json::Value J = modelToJson(M, Model);
  if (json::Array *Ks = J.getAsObject()->getArray("kernels"))
    for (json::Value &K : *Ks)
      if (auto Name = K.getAsObject()->getString("mangled"); Name && ByModel.count(Name->str())) {
        (*K.getAsObject())[model_keys::CountedByModel] = true;
        if (warpCountsEnabled())
          (*K.getAsObject())[model_keys::WarpCountedByModel] = true;
      }
  std::string Text = formatv("{0}", J).str();
  Constant *Str = ConstantDataArray::getString(M.getContext(), Text, true);
  auto *G = new GlobalVariable(M, Str->getType(), true, GlobalValue::ExternalLinkage, Str,
                               ModelSymbol, nullptr, GlobalValue::NotThreadLocal, 1);
  G->setAlignment(Align(8));
  appendToUsed(M, {G});
  if (dynamicModeEnabled()) {
    // The model is computed; dropping it keeps it from going stale.
    MAM.invalidate(M, PreservedAnalyses::none());
    ModuleInstrumenter(M, MAM).run(ByModel);
  }
  return PreservedAnalyses::none();
}

} // namespace hroof
