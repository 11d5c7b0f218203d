//===- ShiftLoop.h - loops that halve or double their variable -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Recognizes rotated loops whose variable is shifted by a constant each
// iteration, the loops of tree reductions and scans:
//   for (s = blockDim.x / 2; s > 0; s >>= 1)     (also s /= 2, s > B)
//   for (s = 1; s < n; s <<= 1)                   (also s *= 2, s <= n)
// Their trip counts are logarithms, which ScalarEvolution does not give. In
// iteration k the variable is v_k = S0 >> (c*k) (or S0 << (c*k)), so
//   #{m >= 0 : S0 >> (c*m) > B} = ceildiv(bitlen(S0 / (B + 1)), c)   (B >= 0)
//   #{m >= 0 : S0 << (c*m) < B} = ceildiv(bitlen(ceildiv(B, S0) - 1), c)
// (bitlen(x) = floor(log2 x) + 1, 0 for x <= 0; the left shift needs S0 > 0,
// and a bound whose range keeps the shifted values from wrapping). The same count
// gives the iterations where a branch `tid < s` holds (IterationCondition).
//
// KernelModel turns the trip count into an expression; Instrument does not
// use it (such loops are counted per iteration there).
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_SHIFTLOOP_H
#define HROOF_PASSES_SHIFTLOOP_H

#include "ExprBuilder.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"

#include <optional>

namespace hroof {

struct ShiftLoop {
  llvm::PHINode *Phi = nullptr; ///< the variable, in the header
  llvm::Value *Next = nullptr;  ///< its shifted value, fed back from the latch
  llvm::Value *Start = nullptr, *Bound = nullptr;
  unsigned Shift = 1;   ///< c: the variable moves by c bits an iteration
  bool Right = true;    ///< >> (halving) or << (doubling)
  bool Signed = false;  ///< ashr/sdiv/signed compares: values read signed
  bool PostInc = false; ///< the latch tests Next (else the variable itself)
  /// The latch continues while X > Bound (right; != 0 is > 0) or X < Bound
  /// (left); with BoundPlusOne, X >= Bound (right) or X <= Bound (left), which
  /// the trip count adjusts by one.
  bool BoundPlusOne = false;
  unsigned Width = 32;
};

/// The shift loop \p L is, if it is one (single latch, the only exit).
std::optional<ShiftLoop> matchShiftLoop(const llvm::Loop &L);

/// Whether the doubling variable of \p SL stays below 2^W (2^(W-1) signed)
/// when shifted: every value that passes the test, at most the bound's
/// maximum (minus one for <), shifted by c bits, fits. The shift carries
/// no nuw flag in C++ (unsigned shifts wrap), so the bound's range decides;
/// `s < blockDim.x` passes, `s < n` with any n does not.
bool leftShiftCannotWrap(const ShiftLoop &SL, const llvm::SCEV *Bound,
                         llvm::ScalarEvolution &SE);

/// Whether \p V is the shifted value of \p Phi: Right and the shift set.
bool isShiftOf(const llvm::Value *V, const llvm::PHINode *Phi, bool &Right, unsigned &Shift);

/// #{m >= 0 : S0 >> (C*m) > B}, for B >= 0 (64-bit expressions).
JExpr rightShiftCount(JExpr S0, JExpr B, unsigned C);
/// #{m >= 0 : S0 << (C*m) < B}, for S0 > 0.
JExpr leftShiftCount(JExpr S0, JExpr B, unsigned C);

} // namespace hroof

#endif // HROOF_PASSES_SHIFTLOOP_H
