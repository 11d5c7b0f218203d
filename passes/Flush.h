//===- Flush.h - dynamic counting: a kernel's exit flush -------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// At every `ret` of an instrumented kernel, the per-thread counts (one value
// per counting point, times its count vector) are added to the kernel's
// counter array __hroof_counters_<kernel>: 1024 copies ("slots") of the
// NumCounters u64 (and the packed words, below) of hroof/CounterLayout.h,
// which the runtime sums after the launch. How, cheapest first (docs/instrumentation.md, "Flush"):
//  - a warp whose lanes all counted nothing adds nothing (one vote.any);
//  - the warp sums each value with redux.sync (in 27-bit chunks where a lane's
//    value may reach 2^27);
//  - the lowest lane adds the counter totals to a slot of the global array,
//    two counters with one atomic where it can: the kernel's used counters
//    are paired (in index order), and a pair whose two warp totals are below
//    popc(mask) << (31 - bitlen(threads of the launch)) goes as one u64
//    (second << 32 | first) into the pair's packed word after the slot's
//    counters (hroof/CounterLayout.h, "Packed pairs"): summed over every flush
//    of the launch, each 32-bit field stays below 2^31 (each thread flushes
//    once), so the runtime's u64 sum keeps them apart. Otherwise, and for an
//    unpaired counter, one atomic per nonzero counter.
// The slot is (8*smid + warpid%8) mod slots: warps of different SMs never
// share one (-hroof-flush-slot=clock, the SM clock's low bits, measured
// slower: docs/validation/flush-2026-11-26.md).
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
  /// Creates the kernel's counter array (and pair table, if it has pairs).
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
  llvm::Value *packLimit(llvm::IRBuilder<> &B, llvm::Value *Mask);
  void addPair(llvm::IRBuilder<> &B, llvm::Instruction *Before, llvm::Value *Slot,
               llvm::Value *Limit, size_t J, llvm::Value *TA, llvm::Value *TB);
  llvm::Value *intrinsic(llvm::IRBuilder<> &B, unsigned ID, llvm::ArrayRef<llvm::Value *> Args = {});

  llvm::Module &M;
  llvm::GlobalVariable *Counters = nullptr;
  std::vector<int> UsedList;
  std::vector<std::pair<int, int>> Pairs; ///< packed word j: counters (first, second)
};

} // namespace hroof

#endif
