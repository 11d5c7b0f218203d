//===- ShflPredicate.h - inline asm guarded by a shuffle's lane predicate -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CUB's warp reductions and scans (and code modelled on them) write a
// shuffle and the operation on its result as one inline asm statement:
//
//   shfl.sync.down.b32 r0|p, $1, $2, $3, $5;   // p: the source lane is valid
//   @p add.f32 r0, r0, $4;
//
// The predicate p is not data: the PTX ISA (shfl.sync) defines it from the
// lane index and the shuffle's b (lane or offset) and c (clamp and segment
// mask) operands:
//   maxLane = (lane & segmask) | (c[4:0] & ~segmask),  segmask = c[12:8]
//   up:   p = lane - b >= maxLane        down: p = lane + b <= maxLane
//   bfly: p = (lane ^ b) <= maxLane      idx:  p = ((lane & segmask) | (b & ~segmask)) <= maxLane
// (b taken as b[4:0]). Counting (PtxCounting.cpp) sets the counts of such a
// predicated instruction apart; the static model multiplies them by p as an
// expression of the lane (shflValidExpr) and the instrumentation adds them
// where p holds at run time (shflValidIR), so both stay exact.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_SHFLPREDICATE_H
#define HROOF_PASSES_SHFLPREDICATE_H

#include "Counting.h"
#include "ExprBuilder.h"

#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace hroof {

/// The mode of a "shfl.sync.MODE..." opcode, or nullopt.
std::optional<ShflMode> shflMode(llvm::StringRef Op);

/// p as a 0/1 expression of the lane (a factor of the static model), or
/// nullopt when b or c is not expressible (data).
std::optional<JExpr> shflValidExpr(const ShflGuardedCounts &G, ExprBuilder &EB);

/// p as an i1 computed at \p B's insertion point (the instrumentation).
llvm::Value *shflValidIR(llvm::IRBuilder<> &B, const ShflGuardedCounts &G);

} // namespace hroof

#endif // HROOF_PASSES_SHFLPREDICATE_H
