//===- Flush.h - dynamic counting: a kernel's exit flush -------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// At every `ret` of an instrumented kernel, the per-thread counts (one value
// per counting point, times its count vector) are added to the kernel's
// counter array __hroof_counters_<kernel>: 1024 copies ("slots") of the
// NumCounters u64 of hroof/CounterLayout.h, which the runtime sums after the
// launch. How, cheapest first (docs/instrumentation.md, "Flush"):
//  - a warp whose lanes all counted nothing adds nothing (one vote.any; not
//    in straight-line code, where every warp that runs counts);
//  - the warp sums each value with redux.sync (in 27-bit chunks where a lane's
//    value may reach 2^27);
//  - the lowest lane adds each nonzero counter total to a slot of the global
//    array with one atomic: one atomic per counter per warp.
// The slot is (8*smid + warpid%8) mod slots: warps of different SMs never
// share one.
//
//   opt -load-pass-plugin=build/lib/hroof.so -passes=hroof-instrument -S k.ll
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_FLUSH_H
#define HROOF_PASSES_FLUSH_H

#include "Counting.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/ValueHandle.h"

#include <set>
#include <vector>

namespace hroof {

using CounterSet = std::set<int>;

/// A per-thread value at an exit and the count vector it multiplies.
struct FinalValue {
  llvm::WeakTrackingVH Value; ///< promotion replaces the loads by SSA values
  CountVector Vec;
  uint64_t Bound = ~uint64_t(0); ///< largest per-thread value, if known
};

/// Slots (copies) of each kernel's counter array: -hroof-counter-slots,
/// rounded up to a power of two.
unsigned counterSlots();

/// Emits the exit flush of one kernel. Construct it once per kernel after
/// its counting points are promoted, then call emit() at each return.
class KernelFlush {
public:
  /// Creates the kernel's counter array.
  KernelFlush(llvm::Function &Kernel, const CounterSet &Used);
  void emit(llvm::ReturnInst *R, std::vector<FinalValue> Final);

private:
  std::vector<llvm::Value *> warpSums(llvm::IRBuilder<> &B, llvm::Instruction *At,
                                      const std::vector<FinalValue> &Final, llvm::Value *Mask);
  llvm::Value *counterTotal(llvm::IRBuilder<> &B, const std::vector<FinalValue> &Final,
                            const std::vector<llvm::Value *> &Sums, int K);
  void globalAdd(llvm::IRBuilder<> &B, llvm::Instruction *Before, llvm::Value *Slot, int K,
                 llvm::Value *Total);
  llvm::Value *slot(llvm::IRBuilder<> &B);

  llvm::Value *intrinsic(llvm::IRBuilder<> &B, llvm::Intrinsic::ID ID,
                         llvm::ArrayRef<llvm::Value *> Args = {});

  llvm::Module &M;
  llvm::GlobalVariable *Counters = nullptr;
  std::vector<int> UsedList;
};

} // namespace hroof

#endif
