//===- hroof/ThreadSum.h - sum a per-thread product over a launch ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The static model gives each group of counts a multiplicity per thread: a
// product of factors (guards as 0/1 compares, loop trip counts) that may depend
// on tid/ctaid. sumOverThreads() adds that product up over every thread of a
// launch, exactly:
//  - factors that depend on no thread register are evaluated once;
//  - dimensions are independent where no factor mixes them, so the sum is a
//    product of per-dimension sums;
//  - per dimension, guards affine in (tid, ctaid) times at most one trip
//    count are summed over the blocks in closed form where nothing wraps
//    anywhere in the launch (BlockSum.h);
//  - otherwise per block, compares that are affine in tid become an
//    interval of tid (O(1) per block), after checking that neither side wraps
//    at its bit width (or, read modulo 2^W, after reducing the block's
//    part); anything else is evaluated thread by thread. Blocks that repeat
//    (an index that wraps) are walked for one period and scaled. Walks over
//    too many blocks or threads are refused at once (ExprError).
//===----------------------------------------------------------------------===//
#ifndef HROOF_THREADSUM_H
#define HROOF_THREADSUM_H

#include "hroof/Expr.h"

namespace hroof {

using u128 = unsigned __int128;

struct LaunchShape {
  std::array<int64_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  /// Up to 2^73 threads in the largest legal launch: u128, never int64.
  u128 threads() const {
    return u128(Grid[0]) * u128(Grid[1]) * u128(Grid[2]) * u128(Block[0]) * u128(Block[1]) *
           u128(Block[2]);
  }
};

struct ThreadSumOptions {
  /// Upper bound on thread-by-thread evaluations before giving up with an
  /// ExprError (never a guess).
  uint64_t MaxEvaluations = uint64_t(1) << 31;
  /// Sum over a dimension's blocks in closed form where the factors allow
  /// it (BlockSum.h); tests turn it off to compare with the walk.
  bool ClosedForm = true;
  /// Most blocks of one dimension walked one by one before giving up with
  /// an ExprError (2^24 blocks: about a second).
  uint64_t MaxBlockWalk = uint64_t(1) << 24;
};

/// Sum over all threads of the launch of the product of \p Factors.
/// \p Env supplies the arguments; its sreg fields are overwritten.
u128 sumOverThreads(const std::vector<ExprPtr> &Factors, const LaunchShape &L, EvalEnv Env,
                    const ThreadSumOptions &Opts = {});

std::string u128ToString(u128 V);

} // namespace hroof

#endif // HROOF_THREADSUM_H
