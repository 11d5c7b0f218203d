//===- AffineForm.h - launch expressions that are affine in the indices ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The warp-level model evaluates every lane of every block, which is too
// slow for launches of millions of threads. Most addresses and guards are
// affine in tid and ctaid once a launch fixes the arguments and dimensions:
// then every block whose guards hold for all its threads costs what block 0
// costs with its addresses shifted, and blocks need only be counted by that
// shift modulo 128 (WarpModel.cpp). affineForm() recognises such expressions
// exactly: it returns a form only when no operation in the expression can
// wrap or truncate anywhere in the launch (checked with the ranges of the
// indices), so the form and Expr::eval agree on every thread.
//===----------------------------------------------------------------------===//
#ifndef HROOF_COMMON_AFFINEFORM_H
#define HROOF_COMMON_AFFINEFORM_H

#include "hroof/Expr.h"
#include "hroof/ThreadSum.h"

#include <optional>

namespace hroof {

using i128 = __int128;

/// C0 + sum Coef[d] * tid.d + sum Coef[3 + d] * ctaid.d.
struct AffineForm {
  i128 C0 = 0;
  std::array<i128, 6> Coef{};
  bool usesCtaId() const { return Coef[3] || Coef[4] || Coef[5]; }
};

/// The form of special register \p Reg of dimension \p Dim: ntid and nctaid
/// are the constants \p NTid and \p NCtaId, tid and ctaid a coefficient 1.
inline AffineForm registerForm(SReg Reg, int Dim, const std::array<int64_t, 3> &NTid,
                               const std::array<int64_t, 3> &NCtaId) {
  AffineForm F;
  if (Reg == SReg::NTid)
    F.C0 = NTid[size_t(Dim)];
  else if (Reg == SReg::NCtaId)
    F.C0 = NCtaId[size_t(Dim)];
  else
    F.Coef[size_t(Dim + (Reg == SReg::CtaId ? 3 : 0))] = 1;
  return F;
}

/// \p A plus \p Sign times \p B (Sign: 1 or -1).
inline AffineForm sumForm(const AffineForm &A, const AffineForm &B, i128 Sign) {
  AffineForm F;
  F.C0 = A.C0 + Sign * B.C0;
  for (size_t I = 0; I < F.Coef.size(); ++I)
    F.Coef[I] = A.Coef[I] + Sign * B.Coef[I];
  return F;
}

struct Range {
  i128 Lo = 0, Hi = 0;
};

/// The form of \p E for launch \p L with the arguments of \p Env, or nullopt.
std::optional<AffineForm> affineForm(const Expr &E, const LaunchShape &L, const EvalEnv &Env);

/// Range of \p F over the launch; with \p CtaId, over that block only.
Range rangeOf(const AffineForm &F, const LaunchShape &L,
              const std::array<int64_t, 3> *CtaId = nullptr);

/// A guard ["icmp", PRED, W, A, B] with affine operands, decided for one
/// block: 1 (holds for every thread), 0 (for none), -1 (mixed or unknown).
struct AffineGuard {
  CmpPred Pred = CmpPred::EQ;
  int Width = 64;
  AffineForm A, B;
  int decide(const LaunchShape &L, const std::array<int64_t, 3> &CtaId) const;
};
std::optional<AffineGuard> affineGuard(const Expr &E, const LaunchShape &L, const EvalEnv &Env);

} // namespace hroof

#endif // HROOF_COMMON_AFFINEFORM_H
