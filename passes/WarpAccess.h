//===- WarpAccess.h - the address of a memory access, lane by lane --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The hardware serves a warp's memory instruction as one request: it counts
// each distinct address once, moves 32-byte sectors and serves shared memory
// in bank-conflict passes (wavefronts). To predict those, the static model
// records for every global and shared load and store its address as
//   base + offset(tid, ctaid, arguments) + sum_j step_j * k_j
// where base is a kernel pointer parameter or a shared variable, offset is a
// launch-time expression (common/include/hroof/Expr.h) evaluated per lane,
// and k_j counts the iterations of the enclosing loops whose induction
// variables the address follows (ScalarEvolution add-recurrences), with the
// loop's step in bytes and its trip count. common/src/WarpModel.cpp evaluates
// this per warp of a launch (docs/counting-model.md, "Warp-level traffic").
// Addresses are followed through addrspacecasts and pointer-integer round
// trips; inline-asm loads and stores are read from the asm's [operand]. An
// access whose address has another shape is recorded with the reason, and
// bytes that the thread-level count has and no access covers are recorded
// as an access without a bound, so the warp level never drops them.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_WARPACCESS_H
#define HROOF_PASSES_WARPACCESS_H

#include "Counting.h"
#include "ExprBuilder.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"

#include <optional>
#include <string>
#include <vector>

namespace hroof {

struct IRWarpLoop {
  JExpr Step;  ///< bytes the address advances per iteration
  JExpr Trips; ///< iterations per entry into the loop
  /// >= 0: the offset reads the loop's iteration index ["ivar", IterVar]
  /// other than by a step (Step 0); the model enumerates its iterations.
  int IterVar = -1;
  /// The first iteration that runs the access where a condition on the
  /// loop's variable cuts its iterations to [First, Trips) (innermost only).
  std::optional<JExpr> First;
  const llvm::Loop *L = nullptr; ///< the loop (not written)
};

struct IRWarpAccess {
  MemSpace Space = MemSpace::Global;
  MemDir Dir = MemDir::Load;
  uint64_t Width = 0;              ///< bytes per lane
  std::string Where;               ///< "function:block"
  int BaseParam = -1;              ///< kernel pointer parameter the address is based on
  std::string BaseObject;          ///< or a shared variable
  uint64_t BaseAlign = 0;          ///< the variable's alignment in bytes
  std::optional<JExpr> Offset;     ///< bytes from the base, at k_j = 0
  std::vector<IRWarpLoop> Loops;   ///< innermost first
  std::string Unmodelled;          ///< why the address has no such form
  bool AssumesNoIndexWrap = false; ///< see ExtensionDistributor
  bool AsyncCopy = false;          ///< a side of cp.async (WarpModel.h)
  /// Set when the multiplicity lacks a condition (an upper bound only)...
  std::string Guarded;
  /// ...or a trip count (no bound at all).
  std::string Unbounded;
  /// Per-thread multiplicity: a sum of disjoint products (the block's path
  /// conditions and the trip counts of every enclosing loop).
  std::vector<std::vector<JExpr>> Alternatives;
};

/// Describes the access \p A of instruction \p I, or nullopt for accesses the
/// warp-level model leaves out (constant memory, kernel parameters).
/// \p Where names its block ("function:block"); \p TripCount gives the trip
/// count expression of a loop.
std::optional<IRWarpAccess>
describeWarpAccess(const llvm::Instruction &I, const MemoryAccess &A, const std::string &Where,
                   llvm::ScalarEvolution &SE, llvm::LoopInfo &LI, ExprBuilder &EB,
                   llvm::function_ref<std::optional<JExpr>(llvm::Loop *)> TripCount);

/// The accesses of inline-asm statement \p CB (PtxCounting.h, asmAccesses):
/// the address is the asm's [operand], modelled like a load or store of
/// the instruction's width; where it cannot be read, the reason quotes the
/// instruction.
std::vector<IRWarpAccess>
describeAsmAccesses(const llvm::CallBase &CB, const std::string &Where,
                    llvm::ScalarEvolution &SE, llvm::LoopInfo &LI, ExprBuilder &EB,
                    llvm::function_ref<std::optional<JExpr>(llvm::Loop *)> TripCount);

/// The accesses of block \p BB, with adjacent scalar accesses that the
/// backend vectorizes merged into one (see mergeAdjacent).
std::vector<IRWarpAccess>
describeBlockAccesses(const llvm::BasicBlock &BB, const std::string &Where,
                      llvm::ScalarEvolution &SE, llvm::LoopInfo &LI, ExprBuilder &EB,
                      llvm::function_ref<std::optional<JExpr>(llvm::Loop *)> TripCount);

/// True for a read of a by-value kernel parameter (param space, not memory).
bool isByValParamRead(const llvm::Value *Ptr);

/// The alignment the backend's load/store vectorizer can rely on for access
/// \p I through \p Ptr: the instruction's, or what is known of the pointer.
uint64_t accessAlign(const llvm::Instruction &I, const llvm::Value *Ptr);

/// The access as JSON (docs/static-model.md, "accesses").
llvm::json::Value warpAccessToJson(const IRWarpAccess &W);

} // namespace hroof

#endif // HROOF_PASSES_WARPACCESS_H
