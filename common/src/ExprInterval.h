//===- ExprInterval.h - the values an expression takes over a box of threads ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The warp-level model groups a launch's blocks into classes that cost the
// same (WarpClasses.h). Whether a guard or trip count is the same for every
// thread of a run of blocks is decided here by interval arithmetic over a
// box of tid and ctaid values: intervalOf() gives a range that contains
// every value Expr::eval returns in the box, or nullopt where it cannot tell
// (an operation that might wrap, truncate or divide by zero there, or one it
// does not bound). A point range is therefore exact: every thread of the box
// evaluates the expression to that value, and none of them fails. Addresses
// are read the same way as affine forms over a box (affineFormOver).
//===----------------------------------------------------------------------===//
#ifndef HROOF_COMMON_EXPRINTERVAL_H
#define HROOF_COMMON_EXPRINTERVAL_H

#include "AffineForm.h"

#include <optional>

namespace hroof {

/// tid.d in [TidLo[d], TidHi[d]] and ctaid.d in [CtaLo[d], CtaHi[d]]; ntid
/// and nctaid, arguments and fields from the EvalEnv.
struct IndexBox {
  std::array<int64_t, 3> TidLo{}, TidHi{}, CtaLo{}, CtaHi{};
};

/// A range containing every value of \p E over \p Box, or nullopt.
std::optional<Range> intervalOf(const Expr &E, const IndexBox &Box, const EvalEnv &Env);

/// The form of \p E that equals Expr::eval on every thread of \p Box, or
/// nullopt. Like affineForm() (AffineForm.h), but over a box, and a sign or
/// zero extension whose operand stays inside one window of 2^W over the box
/// is the operand minus that window's multiple of 2^W (an index that is
/// negative in the whole box, extended from 32 bits, is still affine there).
/// The coefficients of tid and ctaid come from the expression alone: every
/// box where a form exists gives the same ones. \p OpaqueDims (bit d:
/// ctaid.d): a part that reads only those grid dimensions (no tid) and has
/// one value over the box is that constant, whatever its operations (a
/// `blockIdx.z % G`, in a box of one z); its dimensions get no coefficient.
std::optional<AffineForm> affineFormOver(const Expr &E, const IndexBox &Box, const EvalEnv &Env,
                                         unsigned OpaqueDims = 0);

/// Range of \p F over \p Box.
Range rangeOver(const AffineForm &F, const IndexBox &Box);

} // namespace hroof

#endif // HROOF_COMMON_EXPRINTERVAL_H
