//===- AffineForm.cpp - launch expressions that are affine in the indices -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "AffineForm.h"

namespace hroof {

namespace {

constexpr i128 I64Min = INT64_MIN, I64Max = INT64_MAX;

bool isConstant(const AffineForm &F) {
  for (i128 C : F.Coef)
    if (C)
      return false;
  return true;
}

bool fitsI64(const Range &R) { return R.Lo >= I64Min && R.Hi <= I64Max; }

class Builder {
public:
  Builder(const LaunchShape &L, const EvalEnv &Env) : L(L), Env(Env) {}

  std::optional<AffineForm> build(const Expr &E) {
    auto F = node(E);
    // Every intermediate value must be what the int64 evaluator computes.
    if (F && !fitsI64(rangeOf(*F, L)))
      return std::nullopt;
    return F;
  }

private:
  std::optional<AffineForm> node(const Expr &E) {
    AffineForm F;
    switch (E.Op) {
    case ExprOp::Const:
      F.C0 = E.Imm;
      return F;
    case ExprOp::Arg:
      if (E.Imm < 0 || size_t(E.Imm) >= Env.Args.size() || size_t(E.Imm) >= Env.HasArg.size() ||
          !Env.HasArg[size_t(E.Imm)])
        return std::nullopt;
      F.C0 = Env.Args[size_t(E.Imm)];
      return F;
    case ExprOp::Field: {
      auto It = Env.FieldVals.find(E.fieldRef());
      if (It == Env.FieldVals.end())
        return std::nullopt;
      F.C0 = It->second;
      return F;
    }
    case ExprOp::SReg:
      return registerForm(E.Reg, E.Dim, L.Block, L.Grid);
    case ExprOp::Add:
    case ExprOp::Sub: {
      auto A = build(*E.Ops[0]), B = build(*E.Ops[1]);
      if (!A || !B)
        return std::nullopt;
      return sumForm(*A, *B, E.Op == ExprOp::Add ? 1 : -1);
    }
    case ExprOp::Mul:
    case ExprOp::Shl: {
      auto A = build(*E.Ops[0]), B = build(*E.Ops[1]);
      if (!A || !B)
        return std::nullopt;
      if (E.Op == ExprOp::Shl) {
        if (!isConstant(*B) || B->C0 < 0 || B->C0 > 62)
          return std::nullopt;
        B->C0 = i128(1) << int(B->C0);
      } else if (!isConstant(*B)) {
        std::swap(A, B);
      }
      if (!isConstant(*B))
        return std::nullopt; // a product of two indices
      F.C0 = A->C0 * B->C0;
      for (size_t I = 0; I < 6; ++I)
        F.Coef[I] = A->Coef[I] * B->C0;
      return F;
    }
    case ExprOp::SExt:
    case ExprOp::ZExt: {
      auto A = build(*E.Ops[0]);
      if (!A || E.Width <= 0 || E.Width > 64)
        return std::nullopt;
      Range R = rangeOf(*A, L);
      i128 Lo = E.Op == ExprOp::SExt ? -(i128(1) << (E.Width - 1)) : 0;
      i128 Hi = E.Op == ExprOp::SExt ? (i128(1) << (E.Width - 1)) - 1 : (i128(1) << E.Width) - 1;
      if (R.Lo < Lo || R.Hi > Hi)
        return std::nullopt; // the extension would change some value
      return A;
    }
    default:
      return std::nullopt;
    }
  }

  const LaunchShape &L;
  const EvalEnv &Env;
};

} // namespace

std::optional<AffineForm> affineForm(const Expr &E, const LaunchShape &L, const EvalEnv &Env) {
  return Builder(L, Env).build(E);
}

Range rangeOf(const AffineForm &F, const LaunchShape &L, const std::array<int64_t, 3> *CtaId) {
  Range R{F.C0, F.C0};
  for (size_t I = 0; I < 6; ++I) {
    i128 C = F.Coef[I];
    if (!C)
      continue;
    if (I >= 3 && CtaId) {
      R.Lo += C * (*CtaId)[I - 3];
      R.Hi += C * (*CtaId)[I - 3];
      continue;
    }
    i128 Max = (I < 3 ? L.Block[I] : L.Grid[I - 3]) - 1;
    (C > 0 ? R.Hi : R.Lo) += C * Max;
  }
  return R;
}

int AffineGuard::decide(const LaunchShape &L, const std::array<int64_t, 3> &CtaId) const {
  Range A = rangeOf(this->A, L, &CtaId), B = rangeOf(this->B, L, &CtaId);
  // Both operands must be exact W-bit values of the compare's signedness.
  bool Signed =
      Pred == CmpPred::SLT || Pred == CmpPred::SLE || Pred == CmpPred::SGT || Pred == CmpPred::SGE;
  i128 Lo = Signed ? -(i128(1) << (Width - 1)) : 0;
  i128 Hi = Signed ? (i128(1) << (Width - 1)) - 1 : (i128(1) << Width) - 1;
  if (Pred != CmpPred::EQ && Pred != CmpPred::NE)
    if (A.Lo < Lo || A.Hi > Hi || B.Lo < Lo || B.Hi > Hi)
      return -1;
  switch (Pred) {
  case CmpPred::SLT:
  case CmpPred::ULT:
    return A.Hi < B.Lo ? 1 : A.Lo >= B.Hi ? 0 : -1;
  case CmpPred::SLE:
  case CmpPred::ULE:
    return A.Hi <= B.Lo ? 1 : A.Lo > B.Hi ? 0 : -1;
  case CmpPred::SGT:
  case CmpPred::UGT:
    return A.Lo > B.Hi ? 1 : A.Hi <= B.Lo ? 0 : -1;
  case CmpPred::SGE:
  case CmpPred::UGE:
    return A.Lo >= B.Hi ? 1 : A.Hi < B.Lo ? 0 : -1;
  default:
    return -1; // eq/ne: decided lane by lane
  }
}

std::optional<AffineGuard> affineGuard(const Expr &E, const LaunchShape &L, const EvalEnv &Env) {
  if (E.Op != ExprOp::ICmp || E.Width <= 0 || E.Width > 64)
    return std::nullopt;
  auto A = affineForm(*E.Ops[0], L, Env), B = affineForm(*E.Ops[1], L, Env);
  if (!A || !B)
    return std::nullopt;
  return AffineGuard{E.Pred, E.Width, *A, *B};
}

} // namespace hroof
