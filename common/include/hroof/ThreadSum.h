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
//  - per dimension and block, compares that are affine in tid become an
//    interval of tid (O(1) per block), after checking that neither side wraps
//    at its bit width; anything else is evaluated thread by thread.
//===----------------------------------------------------------------------===//
#ifndef HROOF_THREADSUM_H
#define HROOF_THREADSUM_H

#include "hroof/Expr.h"

namespace hroof {

using u128 = unsigned __int128;

struct LaunchShape {
  std::array<int64_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  int64_t threads() const { return Grid[0] * Grid[1] * Grid[2] * Block[0] * Block[1] * Block[2]; }
};

struct ThreadSumOptions {
  /// Upper bound on thread-by-thread evaluations before giving up with an
  /// ExprError (never a guess).
  uint64_t MaxEvaluations = uint64_t(1) << 31;
};

/// Sum over all threads of the launch of the product of \p Factors.
/// \p Env supplies the arguments; its sreg fields are overwritten.
u128 sumOverThreads(const std::vector<ExprPtr> &Factors, const LaunchShape &L, EvalEnv Env,
                    const ThreadSumOptions &Opts = {});

std::string u128ToString(u128 V);

} // namespace hroof

#endif // HROOF_THREADSUM_H
