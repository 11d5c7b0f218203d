//===- Flush.cpp - dynamic counting: a kernel's exit flush -----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What the flush does and why: Flush.h and docs/instrumentation.md ("Flush").
#include "Flush.h"
#include "Instrument.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>

using namespace llvm;

static cl::opt<unsigned>
    CounterSlots("hroof-counter-slots",
                 cl::desc("hroof: copies of each kernel's counter array; a warp adds to "
                          "copy (8*smid + warpid%8) mod slots, which spreads the atomics "
                          "over addresses (power of two)"),
                 cl::init(1024));

namespace hroof {

namespace {
/// Every lane's value is provably below 2^27 (straight-line code): one u32
/// redux.sync each cannot overflow, and every warp that runs counts.
bool provablySmall(const std::vector<FinalValue> &Final) {
  return std::all_of(Final.begin(), Final.end(),
                     [](const FinalValue &FV) { return FV.Bound < (uint64_t(1) << 27); });
}
} // namespace

unsigned counterSlots() {
  unsigned S = std::max(1u, unsigned(CounterSlots));
  return (S & (S - 1)) ? 1u << (32 - __builtin_clz(S)) : S; // power of two
}

KernelFlush::KernelFlush(Function &Kernel, const CounterSet &Used)
    : M(*Kernel.getParent()), UsedList(Used.begin(), Used.end()) {
  Type *I64 = Type::getInt64Ty(M.getContext());
  std::string Name = counterArrayName(Kernel.getName());
  Counters = M.getNamedGlobal(Name);
  if (!Counters) {
    auto *Slot = ArrayType::get(I64, NumCounters);
    auto *Ty = ArrayType::get(Slot, counterSlots());
    Counters = new GlobalVariable(M, Ty, false, GlobalValue::ExternalLinkage,
                                  ConstantAggregateZero::get(Ty), Name, nullptr,
                                  GlobalValue::NotThreadLocal, 1);
    Counters->setAlignment(Align(8));
    appendToUsed(M, {Counters});
  }
}

Value *KernelFlush::intrinsic(IRBuilder<> &B, Intrinsic::ID ID, ArrayRef<Value *> Args) {
  return B.CreateCall(Intrinsic::getOrInsertDeclaration(&M, ID), Args);
}

/// Warp sums of the final values. Fast path: every lane's values are below
/// 2^27, so one redux.sync (u32) each cannot overflow (32 lanes); otherwise
/// each value is summed in chunks of 27, 27 and 10 bits. Values provably
/// below 2^27 (straight-line code) skip the check.
std::vector<Value *> KernelFlush::warpSums(IRBuilder<> &B, Instruction *At,
                                          const std::vector<FinalValue> &Final, Value *Mask) {
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  auto Redux = [&](IRBuilder<> &IB, Value *V32) {
    return intrinsic(IB, Intrinsic::nvvm_redux_sync_add, {V32, Mask});
  };
  std::vector<Value *> Sums;
  B.SetInsertPoint(At);
  if (provablySmall(Final)) {
    for (const FinalValue &FV : Final)
      Sums.push_back(B.CreateZExt(Redux(B, B.CreateTrunc(FV.Value, I32)), I64));
    return Sums;
  }
  Value *High = B.getInt64(0);
  for (const FinalValue &FV : Final)
    High = B.CreateOr(High, B.CreateLShr(FV.Value, 27));
  Value *AllSmall =
      intrinsic(B, Intrinsic::nvvm_vote_all_sync, {Mask, B.CreateICmpEQ(High, B.getInt64(0))});
  Instruction *FastT = nullptr, *SlowT = nullptr;
  SplitBlockAndInsertIfThenElse(AllSmall, At, &FastT, &SlowT);
  IRBuilder<> FB(FastT), SB(SlowT);
  B.SetInsertPoint(At);
  for (const FinalValue &FV : Final) {
    Value *V = FV.Value;
    Value *Fast = FB.CreateZExt(Redux(FB, FB.CreateTrunc(V, I32)), I64);
    Value *Slow = B.getInt64(0);
    for (unsigned Shift : {0u, 27u, 54u}) {
      Value *Chunk =
          SB.CreateTrunc(SB.CreateAnd(SB.CreateLShr(V, Shift), SB.getInt64((1ull << 27) - 1)), I32);
      Slow = SB.CreateAdd(Slow, SB.CreateShl(SB.CreateZExt(Redux(SB, Chunk), I64), Shift));
    }
    PHINode *Total = B.CreatePHI(I64, 2);
    Total->addIncoming(Fast, FastT->getParent());
    Total->addIncoming(Slow, SlowT->getParent());
    Sums.push_back(Total);
  }
  return Sums;
}

/// Counter \p K's warp total: the point sums times their count vectors.
Value *KernelFlush::counterTotal(IRBuilder<> &B, const std::vector<FinalValue> &Final,
                                 const std::vector<Value *> &Sums, int K) {
  Value *Total = B.getInt64(0);
  for (size_t I = 0; I < Final.size(); ++I)
    if (uint64_t C = Final[I].Vec[K])
      Total = B.CreateAdd(Total, C == 1 ? Sums[I] : B.CreateMul(Sums[I], B.getInt64(C)));
  return Total;
}

/// A slot of the global array by SM and warp slot, so that warps of
/// different SMs never share one.
Value *KernelFlush::slot(IRBuilder<> &B) {
  Value *Mask = B.getInt32(counterSlots() - 1);
  Value *SM = intrinsic(B, Intrinsic::nvvm_read_ptx_sreg_smid);
  Value *Warp = intrinsic(B, Intrinsic::nvvm_read_ptx_sreg_warpid);
  return B.CreateAnd(B.CreateAdd(B.CreateShl(SM, 3), B.CreateAnd(Warp, 7)), Mask);
}

/// Adds \p Total to counter \p K of \p Slot, only when nonzero (idle lanes of
/// a small problem add no atomic traffic).
void KernelFlush::globalAdd(IRBuilder<> &B, Instruction *Before, Value *Slot, int K,
                            Value *Total) {
  B.SetInsertPoint(Before);
  Instruction *Add =
      SplitBlockAndInsertIfThen(B.CreateICmpNE(Total, B.getInt64(0)), Before, false);
  IRBuilder<> AB(Add);
  Value *P = AB.CreateInBoundsGEP(Counters->getValueType(), Counters,
                                  {AB.getInt32(0), Slot, AB.getInt32(K)});
  AB.CreateAtomicRMW(AtomicRMWInst::Add, P, Total, MaybeAlign(8), AtomicOrdering::Monotonic);
}

void KernelFlush::emit(ReturnInst *R, std::vector<FinalValue> Final) {
  if (Final.empty())
    return;
  IRBuilder<> B(R);
  Type *I64 = B.getInt64Ty();
  // Warp-sum whichever is fewer: the points, or the per-counter totals.
  if (Final.size() > UsedList.size()) {
    std::vector<FinalValue> PerCounter;
    for (int K : UsedList) {
      Value *T = B.getInt64(0);
      unsigned __int128 Bd = 0;
      for (FinalValue &FV : Final)
        if (FV.Vec[K]) {
          T = B.CreateAdd(T, B.CreateMul(FV.Value, B.getInt64(FV.Vec[K])));
          Bd += (unsigned __int128)FV.Bound * FV.Vec[K];
        }
      CountVector U{};
      U[K] = 1;
      PerCounter.push_back({T, U, Bd > ~uint64_t(0) ? ~uint64_t(0) : uint64_t(Bd)});
    }
    Final = std::move(PerCounter);
  }
  Value *Mask = intrinsic(B, Intrinsic::nvvm_activemask);
  Value *Lane = intrinsic(B, Intrinsic::nvvm_read_ptx_sreg_laneid);
  Value *IsLeader = B.CreateICmpEQ(Lane, B.CreateIntrinsic(Intrinsic::cttz, {B.getInt32Ty()},
                                                           {Mask, B.getTrue()}));
  // A warp whose lanes all counted nothing skips the sums (warps left idle
  // by a loop over fewer items than the block has threads). Not in
  // straight-line code (every value provably small): there the check only
  // adds to warps that all count (measured: docs/validation/overhead.md).
  Instruction *Counted = R;
  if (!provablySmall(Final)) {
    Value *Any = B.getFalse();
    for (const FinalValue &FV : Final)
      Any = B.CreateOr(Any, B.CreateICmpNE(FV.Value, B.getInt64(0)));
    Value *WarpAny = intrinsic(B, Intrinsic::nvvm_vote_any_sync, {Mask, Any});
    Counted = SplitBlockAndInsertIfThen(WarpAny, R, false);
  }
  std::vector<Value *> Sums = warpSums(B, Counted, Final, Mask);
  B.SetInsertPoint(Counted);
  Instruction *LeadT = SplitBlockAndInsertIfThen(IsLeader, Counted, false);
  IRBuilder<> LB(LeadT);
  Value *Slot = slot(LB);
  for (int K : UsedList)
    globalAdd(LB, LeadT, Slot, K, counterTotal(LB, Final, Sums, K));
}

} // namespace hroof
