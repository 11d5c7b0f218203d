//===- EarlyExitLoop.h - loops that may end on data before their bound ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `while (i < n && data[i] != 0) ++i;` has two exits: `i < n`, which
// ScalarEvolution counts, and a test on data, which no static model can. Its
// trip count is then not one expression, but it has bounds: the countable
// exit ends it after at most ScalarEvolution's symbolic maximum of
// backedge-taken counts + 1 header runs per entry, and the header runs at
// least once. KernelModel counts such a loop's blocks as guarded terms
// (upper bounds: docs/static-model.md) times that maximum, and the blocks
// that every iteration runs before it can leave the loop (the header's test)
// once more as exact terms: the loop's lower bound is its first iteration.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_EARLYEXITLOOP_H
#define HROOF_PASSES_EARLYEXITLOOP_H

#include "ExprBuilder.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"

#include <optional>
#include <string>

namespace hroof {

/// Bounds of the header runs per entry of a loop whose exact trip count
/// cannot be expressed, where ScalarEvolution bounds it from above.
struct EarlyExitBounds {
  JExpr MaxRuns;       ///< at most this many header runs per entry (>= 1)
  JExpr MaxRunsMinus1; ///< MaxRuns - 1: the runs after the first, at most
  std::string Why;     ///< what the other exits test ("data loaded from memory")
};

/// The bounds of loop \p L (called once its exact trip count has failed),
/// or nullopt when ScalarEvolution has no symbolic maximum for it.
std::optional<EarlyExitBounds> earlyExitBounds(const llvm::Loop &L, llvm::ScalarEvolution &SE,
                                               ExprBuilder &EB, const llvm::LoopInfo &LI);

/// Whether block \p BB of loop \p L (not of a loop nested in it) runs in
/// every iteration that starts, before the iteration can leave the loop or
/// loop back: it dominates every exiting block and the latch.
bool runsInEveryIteration(const llvm::BasicBlock &BB, const llvm::Loop &L,
                          const llvm::LoopInfo &LI, const llvm::DominatorTree &DT);

} // namespace hroof

#endif // HROOF_PASSES_EARLYEXITLOOP_H
