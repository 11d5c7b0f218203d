//===- WarpInstrument.h - dynamic warp-level traffic, per request ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Part of hroof-instrument (Instrument.h): the exact warp-level traffic of
// every global and shared load and store, counted at run time with the
// definitions of the static warp model (common/src/WarpModel.cpp,
// docs/counting-model.md "Warp-level traffic"):
//   warp_bytes.<space>.<dir>  distinct bytes of the request: the lowest lane
//                             of each group of equal addresses
//                             (match.any.sync) adds the access width;
//   sectors.global.<dir>      distinct 32-byte sectors: the same on address>>5
//                             (a naturally aligned access of <= 32 bytes
//                             lies in one sector);
//   wavefronts.shared.<dir>   lanes in groups of 32/n (n = max(width,4)/4
//                             words per lane); per group the most distinct
//                             words in one bank (leaders of distinct chunks,
//                             match.any on their bank, popc, redux.sync.umax),
//                             summed over groups by the lowest active lane.
// Each lane's share goes into the per-thread accumulators that the kernel's
// exit flush reduces (no extra atomics). Adjacent scalar accesses that the
// NVPTX backend merges into one vector access (float4 fields) are one
// request, instrumented once before the first of them. Generic accesses are
// classified at run time (isspacep); inline-asm loads and stores count
// where the asm's address operand is a pointer (asmWarpRequest); atomics,
// local and constant memory are not counted at warp level. -hroof-warp-counts=false turns it all off.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_WARPINSTRUMENT_H
#define HROOF_PASSES_WARPINSTRUMENT_H

#include "hroof/CounterLayout.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>
#include <set>
#include <vector>

namespace hroof {

/// True unless -hroof-warp-counts=false.
bool warpCountsEnabled();

/// One warp request: a load or store of \p Width bytes per lane at \p Ptr
/// (for a merged run, the first access's pointer and the run's width).
struct WarpRequest {
  llvm::Instruction *At; ///< the first access: the code goes before it
  llvm::Value *Ptr;
  MemSpace Space; ///< Global, Shared, or Generic (resolved at run time)
  MemDir Dir;     ///< Load or Store
  uint64_t Width;
};

/// The request of \p I alone, if it is one the warp counts cover (before
/// merging). Null for atomics, local and constant memory, kernel parameters,
/// and widths that are not a power of two up to 32 bytes.
std::optional<WarpRequest> warpRequestOf(llvm::Instruction &I);

/// The requests of \p I: warpRequestOf, or those of an inline-asm statement.
std::vector<WarpRequest> warpRequestsOf(llvm::Instruction &I);

struct AsmAccess;
/// The request of an inline-asm access (PtxCounting.h, asmAccesses) whose
/// address is a pointer operand of the asm, without displacement or
/// predicate, in the global or shared space; null for others.
std::optional<WarpRequest> asmWarpRequest(llvm::CallBase &CB, const AsmAccess &X);

/// The counters a request adds to (the run-time space of a generic one may be
/// either).
void warpCountersOf(const WarpRequest &R, std::set<int> &Out);

/// The requests of \p BB, with the runs the backend vectorizes merged as the
/// static model merges them (WarpAccess.cpp, mergeAdjacent).
std::vector<WarpRequest> warpRequests(llvm::BasicBlock &BB, llvm::ScalarEvolution &SE);

/// Adds \p PerLane (i64) to counter \p Counter of this thread; \p Max is the
/// most it adds.
using WarpAddFn =
    llvm::function_ref<void(llvm::IRBuilder<> &B, int Counter, llvm::Value *PerLane, uint64_t Max)>;

/// Emits the run-time count of request \p R before R.At. Splits R.At's
/// block (a warp-uniform branch between a shuffle-and-vote path and the
/// match.any path): \p DTU and \p LI are kept up to date, and the block's
/// terminator moves to the block that holds R.At.
void emitWarpCounts(llvm::Module &M, const WarpRequest &R, WarpAddFn Add,
                    llvm::DomTreeUpdater *DTU, llvm::LoopInfo *LI);

} // namespace hroof

#endif // HROOF_PASSES_WARPINSTRUMENT_H
