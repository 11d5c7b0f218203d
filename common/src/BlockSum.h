//===- BlockSum.h - per-dimension sums in closed form over the blocks -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// sumOverThreads() sums a per-thread product dimension by dimension. When a
// factor depends on ctaid.d it used to walk the blocks one by one, which
// takes minutes for the largest legal grid (2^31 - 1 blocks in x). Most
// multiplicities are guards affine in (tid.d, ctaid.d) times at most one
// trip count such as max(1, ceildiv(n - g, stride)); with no value wrapping
// anywhere in the launch, the threads a set of such guards lets through
// form the lattice points of a convex polygon in the (ctaid.d, tid.d) plane,
// and their count (or the sum of a floor of an affine function over them,
// where everything depends on g = ctaid.d * ntid.d + tid.d only) has a closed
// form: sums of floor((a*i + b) / m), each computed in O(log) steps.
// sumDimensionClosedForm() gives that sum exactly, or nullopt (with the
// reason) when the factors have another shape.
//===----------------------------------------------------------------------===//
#ifndef HROOF_COMMON_BLOCKSUM_H
#define HROOF_COMMON_BLOCKSUM_H

#include "hroof/ThreadSum.h"

#include <optional>
#include <string>

namespace hroof {

using i128 = __int128;

/// sum_{i=0}^{N-1} floor((A*i + B) / M) for N >= 0, M > 0. The caller keeps
/// every intermediate within i128 (|A|*N, |B| and the result well below 2^120).
i128 floorSum(i128 N, i128 M, i128 A, i128 B);

/// Sum over ctaid.D in [0, Grid[D]) and tid.D in [0, Block[D]) of the
/// product of \p Factors, which use no other thread register; \p Env gives
/// the arguments. nullopt with \p WhyNot set when no closed form applies.
/// Throws ExprError for a negative multiplicity, as the walk would.
std::optional<u128> sumDimensionClosedForm(int D, const std::vector<ExprPtr> &Factors,
                                           const LaunchShape &L, const EvalEnv &Env,
                                           std::string &WhyNot);

/// log2 of a period P in ctaid.D of the product of \p Factors: every
/// factor's value at block b + P equals its value at block b. That holds
/// where ctaid.D enters only through ring operations (add, mul, shifts by a
/// constant, bitwise) whose result is then read at a width W (a compare, an
/// extension, a division at W): such a value depends on ctaid.D modulo
/// 2^(W - v), v the power of two in ctaid's coefficient (a 32-bit
/// `ctaid*1024 + tid` repeats every 2^22 blocks). nullopt where that is not
/// shown; 0 when nothing depends on ctaid.D. \p Env gives the arguments.
std::optional<int> blockPeriodLog2(int D, const std::vector<ExprPtr> &Factors,
                                   const EvalEnv &Env);

} // namespace hroof

#endif // HROOF_COMMON_BLOCKSUM_H
