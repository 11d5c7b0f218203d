//===- InductionLoop.h - rotated loops with a linear induction variable ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Recognizes loops whose single latch is their only exit and continues while
// (IV [+ Step]) pred Bound, with Step and Bound loop-invariant: the shape of
// grid-stride and block-stride loops, whose trip counts ScalarEvolution often
// cannot compute (a non-constant or thread-dependent stride). The header runs
//   max(1, ceildiv(Bound' - Start, Step))   times per entry (upward loops),
// with Bound' adjusted for <=, and one more when the compare reads the IV
// before its increment. KernelModel turns this into an expression;
// Instrument materializes it at the preheader.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_INDUCTIONLOOP_H
#define HROOF_PASSES_INDUCTIONLOOP_H

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/JSON.h"

#include <optional>

namespace hroof {

struct InductionLoop {
  llvm::Value *Start = nullptr, *Step = nullptr, *Bound = nullptr;
  llvm::CmpInst::Predicate Pred; ///< continue while X Pred Bound
  bool PostInc = false;          ///< X is IV + Step (else the IV itself)
  unsigned Width = 32;   ///< of the compare (X and Bound)
  bool Signed = true;    ///< how Start and Bound extend
  bool Downward = false; ///< Step is subtracted: X > Bound style
  /// A Start or Step narrower than Width extends to Width this way: a
  /// narrow variable that cannot wrap, compared after extension (an `int i`
  /// against a 64-bit bound), or widened in the loop (see PhiIncrement).
  bool ExtSigned = true;
  /// The variable's values are sign-extended narrow values compared
  /// unsigned (`int i < size_t n`): a negative one reads as 2^63 or more,
  /// so the loop stops at the first tested value that is negative. Upward
  /// loops only: from there on the values grow and stay non-negative.
  bool StopsAtNegative = false;
  /// With StopsAtNegative: the narrow add has no nsw, so the variable wraps
  /// at this width (0: it cannot wrap). `for (int i = tid; i < size_t n;
  /// i += unsigned stride)`: a value past 2^(W-1) reads negative and ends
  /// the loop, so the loop ends by the bound or at 2^(W-1), whichever comes
  /// first. Upward, post-increment loops only (KernelModel's count).
  unsigned NarrowWrapWidth = 0;
};

std::optional<InductionLoop> matchInductionLoop(const llvm::Loop &L);

/// How a loop header's phi moves per iteration: Phi + Step with Step
/// loop-invariant. Either one add of the phi's width, or a narrower add that
/// cannot wrap, widened: ext(add nsw|nuw (trunc Phi, Step)), where the phi
/// also starts from a value of the narrow width (`for (int i = ...; i < n;
/// i += s)` with a 64-bit n: clang keeps i in 64 bits). Without wrap,
/// ext(a + b) = ext(a) + ext(b), so the phi moves by ext(Step).
struct PhiIncrement {
  llvm::Value *Step = nullptr;
  bool StepSigned = true; ///< how Step extends to the phi's width
  bool Subtract = false;  ///< Phi - Step (same width only)
};
std::optional<PhiIncrement> matchPhiIncrement(const llvm::Value *Next, const llvm::PHINode &Phi,
                                              const llvm::Loop &L);

/// The exit test of a rotated loop whose single latch is its only exiting
/// block: the loop continues while X Pred Bound, with Bound loop-invariant
/// (the compare's operands swapped to put it second). Shared with ShiftLoop.
struct LatchTest {
  llvm::Value *X = nullptr, *Bound = nullptr;
  llvm::CmpInst::Predicate Pred;
};
std::optional<LatchTest> matchLatchTest(const llvm::Loop &L);

/// Header runs of a loop with InductionLoop::NarrowWrapWidth, from its
/// start, bound and step extended to the compare's width (InductionLoop.cpp).
llvm::json::Value wrappingTripCount(const InductionLoop &IL, llvm::json::Value SX,
                                    llvm::json::Value BX, llvm::json::Value StX, bool Inclusive);

} // namespace hroof

#endif
