//===- ExprInterval.cpp - the values an expression takes over a box -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ExprInterval.h"

#include <algorithm>
#include <initializer_list>

namespace hroof {

namespace {

constexpr i128 I64Min = INT64_MIN, I64Max = INT64_MAX;

using Opt = std::optional<Range>;

Range point(i128 V) { return {V, V}; }
bool isPoint(const Range &R) { return R.Lo == R.Hi; }
bool within(const Range &R, i128 Lo, i128 Hi) { return R.Lo >= Lo && R.Hi <= Hi; }
/// The range if it holds int64 values only (eval wraps at 64 bits otherwise).
Opt fit64(Range R) {
  if (!within(R, I64Min, I64Max))
    return std::nullopt;
  return R;
}
i128 signedLo(int W) { return -(i128(1) << (W - 1)); }
i128 signedHi(int W) { return (i128(1) << (W - 1)) - 1; }
/// Unsigned W-bit values that an int64 holds unchanged (W = 64: 0 .. 2^63-1).
i128 unsignedHi(int W) { return W >= 64 ? I64Max : (i128(1) << W) - 1; }

Range corners(std::initializer_list<i128> Vs) {
  return {*std::min_element(Vs.begin(), Vs.end()), *std::max_element(Vs.begin(), Vs.end())};
}

i128 floorDiv128(i128 A, i128 B) {
  i128 Q = A / B;
  return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
}
i128 ceilDiv128(i128 A, i128 B) { return -floorDiv128(-A, B); }

class Interval {
public:
  Interval(const IndexBox &Box, const EvalEnv &Env) : Box(Box), Env(Env) {}

  Opt node(const Expr &E) {
    switch (E.Op) {
    case ExprOp::Const:
      return point(E.Imm);
    case ExprOp::Arg:
      if (E.Imm < 0 || size_t(E.Imm) >= Env.Args.size() ||
          (size_t(E.Imm) < Env.HasArg.size() && !Env.HasArg[size_t(E.Imm)]))
        return std::nullopt;
      return point(Env.Args[size_t(E.Imm)]);
    case ExprOp::Field: {
      auto It = Env.FieldVals.find(E.fieldRef());
      if (It == Env.FieldVals.end())
        return std::nullopt;
      return point(It->second);
    }
    case ExprOp::SReg:
      return sreg(E);
    case ExprOp::IterVar:
    case ExprOp::Sum:
      return std::nullopt;
    case ExprOp::Select: {
      Opt C = node(*E.Ops[0]);
      if (!C)
        return std::nullopt;
      if (C->Lo > 0 || C->Hi < 0)
        return node(*E.Ops[1]);
      if (isPoint(*C))
        return node(*E.Ops[2]);
      Opt A = node(*E.Ops[1]), B = node(*E.Ops[2]);
      if (!A || !B)
        return std::nullopt;
      return Range{std::min(A->Lo, B->Lo), std::max(A->Hi, B->Hi)};
    }
    case ExprOp::Mul: {
      Opt A = node(*E.Ops[0]);
      if (A && isPoint(*A) && A->Lo == 0)
        return point(0); // eval does not look at the other operand
      Opt B = node(*E.Ops[1]);
      if (!A || !B)
        return std::nullopt;
      return fit64(corners({A->Lo * B->Lo, A->Lo * B->Hi, A->Hi * B->Lo, A->Hi * B->Hi}));
    }
    default:
      break;
    }
    std::vector<Range> R;
    for (const ExprPtr &O : E.Ops) {
      Opt X = node(*O);
      if (!X)
        return std::nullopt;
      R.push_back(*X);
    }
    bool AllPoints = std::all_of(R.begin(), R.end(), isPoint);
    if (AllPoints)
      return exactly(E, R);
    return operation(E, R);
  }

private:
  Opt sreg(const Expr &E) {
    size_t D = size_t(E.Dim);
    switch (E.Reg) {
    case SReg::Tid:
      return Range{Box.TidLo[D], Box.TidHi[D]};
    case SReg::CtaId:
      return Range{Box.CtaLo[D], Box.CtaHi[D]};
    case SReg::NTid:
      return point(Env.NTid[D]);
    case SReg::NCtaId:
      return point(Env.NCtaId[D]);
    }
    return std::nullopt;
  }

  /// Every operand is one value: the operation's own evaluation, or nullopt
  /// where it fails (a division by zero).
  Opt exactly(const Expr &E, const std::vector<Range> &R) {
    Expr N = E;
    N.Ops.clear();
    for (const Range &X : R)
      N.Ops.push_back(Expr::constant(int64_t(X.Lo)));
    try {
      return point(N.eval(Env));
    } catch (const ExprError &) {
      return std::nullopt;
    }
  }

  Opt operation(const Expr &E, const std::vector<Range> &R);
  Opt compare(const Expr &E, const Range &A, const Range &B);
  Opt division(const Expr &E, const Range &A, const Range &B);

  const IndexBox &Box;
  const EvalEnv &Env;
};

Opt Interval::operation(const Expr &E, const std::vector<Range> &R) {
  const Range &A = R[0];
  int W = E.Width;
  switch (E.Op) {
  case ExprOp::Add:
    return fit64({A.Lo + R[1].Lo, A.Hi + R[1].Hi});
  case ExprOp::Sub:
    return fit64({A.Lo - R[1].Hi, A.Hi - R[1].Lo});
  case ExprOp::Shl:
    if (!isPoint(R[1]) || R[1].Lo < 0 || R[1].Lo > 62)
      return std::nullopt;
    return fit64({A.Lo * (i128(1) << int(R[1].Lo)), A.Hi * (i128(1) << int(R[1].Lo))});
  case ExprOp::Not:
    return A.Lo > 0 || A.Hi < 0 ? point(0) : Range{0, 1};
  case ExprOp::SExt:
    return within(A, signedLo(W), signedHi(W)) ? Opt(A) : std::nullopt;
  case ExprOp::ZExt:
    return W >= 64 || within(A, 0, unsignedHi(W)) ? Opt(A) : std::nullopt;
  case ExprOp::BitLen: { // nondecreasing
    auto Len = [](i128 V) { return V <= 0 ? 0 : 64 - __builtin_clzll(uint64_t(V)); };
    return Range{Len(A.Lo), Len(A.Hi)};
  }
  case ExprOp::Max:
    return Range{std::max(A.Lo, R[1].Lo), std::max(A.Hi, R[1].Hi)};
  case ExprOp::Min:
    return Range{std::min(A.Lo, R[1].Lo), std::min(A.Hi, R[1].Hi)};
  case ExprOp::SMax:
  case ExprOp::SMin:
  case ExprOp::UMax:
  case ExprOp::UMin: {
    // The operands must read as themselves at width W.
    bool Signed = E.Op == ExprOp::SMax || E.Op == ExprOp::SMin;
    i128 Lo = Signed ? signedLo(W) : 0, Hi = Signed ? signedHi(W) : unsignedHi(W);
    if (!within(A, Lo, Hi) || !within(R[1], Lo, Hi))
      return std::nullopt;
    if (E.Op == ExprOp::SMax || E.Op == ExprOp::UMax)
      return Range{std::max(A.Lo, R[1].Lo), std::max(A.Hi, R[1].Hi)};
    return Range{std::min(A.Lo, R[1].Lo), std::min(A.Hi, R[1].Hi)};
  }
  case ExprOp::ICmp:
    return compare(E, A, R[1]);
  case ExprOp::UDiv:
  case ExprOp::URem:
  case ExprOp::SDiv:
  case ExprOp::SRem:
  case ExprOp::CeilDiv:
    return division(E, A, R[1]);
  case ExprOp::LShr:
  case ExprOp::AShr: {
    if (!isPoint(R[1]) || R[1].Lo < 0 || R[1].Lo >= W)
      return std::nullopt;
    bool Logical = E.Op == ExprOp::LShr;
    if (!within(A, Logical ? 0 : signedLo(W), Logical ? unsignedHi(W) : signedHi(W)))
      return std::nullopt;
    int S = int(R[1].Lo);
    return Range{A.Lo >> S, A.Hi >> S}; // i128 >> floors, as AShr does
  }
  default:
    return std::nullopt; // and, or, xor of ranges
  }
}

/// A compare is 0 or 1 whatever its operands; decided where the operands
/// read as themselves at the compare's width and signedness.
Opt Interval::compare(const Expr &E, const Range &A, const Range &B) {
  int W = E.Width;
  CmpPred P = E.Pred;
  bool Signed = P == CmpPred::SLT || P == CmpPred::SLE || P == CmpPred::SGT || P == CmpPred::SGE;
  bool AsSigned = within(A, signedLo(W), signedHi(W)) && within(B, signedLo(W), signedHi(W));
  bool AsUnsigned = within(A, 0, unsignedHi(W)) && within(B, 0, unsignedHi(W));
  Range Unknown{0, 1};
  if (P == CmpPred::EQ || P == CmpPred::NE) {
    if (!AsSigned && !AsUnsigned)
      return Unknown;
    bool Disjoint = A.Hi < B.Lo || B.Hi < A.Lo;
    bool Same = isPoint(A) && isPoint(B) && A.Lo == B.Lo;
    if (!Disjoint && !Same)
      return Unknown;
    return point((P == CmpPred::EQ) == Same ? 1 : 0);
  }
  if (Signed ? !AsSigned : !AsUnsigned)
    return Unknown;
  auto Decide = [&](bool Always, bool Never) { return Always ? point(1) : Never ? point(0) : Unknown; };
  switch (P) {
  case CmpPred::SLT:
  case CmpPred::ULT:
    return Decide(A.Hi < B.Lo, A.Lo >= B.Hi);
  case CmpPred::SLE:
  case CmpPred::ULE:
    return Decide(A.Hi <= B.Lo, A.Lo > B.Hi);
  case CmpPred::SGT:
  case CmpPred::UGT:
    return Decide(A.Lo > B.Hi, A.Hi <= B.Lo);
  default: // SGE, UGE
    return Decide(A.Lo >= B.Hi, A.Hi < B.Lo);
  }
}

/// Divisions by a positive range only (no division by zero, no overflow);
/// each quotient is monotone in either operand, so its corners bound it.
Opt Interval::division(const Expr &E, const Range &A, const Range &B) {
  int W = E.Width;
  if (B.Lo < 1)
    return std::nullopt;
  switch (E.Op) {
  case ExprOp::CeilDiv:
    if (!within(A, I64Min + 1, I64Max) || B.Hi > I64Max)
      return std::nullopt;
    return corners({ceilDiv128(A.Lo, B.Lo), ceilDiv128(A.Lo, B.Hi), ceilDiv128(A.Hi, B.Lo),
                    ceilDiv128(A.Hi, B.Hi)});
  case ExprOp::UDiv:
  case ExprOp::URem:
    if (!within(A, 0, unsignedHi(W)) || !within(B, 1, unsignedHi(W)))
      return std::nullopt;
    if (E.Op == ExprOp::UDiv)
      return Range{A.Lo / B.Hi, A.Hi / B.Lo};
    return Range{0, std::min(A.Hi, B.Hi - 1)};
  default: // SDiv, SRem: truncating
    if (!within(A, signedLo(W), signedHi(W)) || !within(B, 1, signedHi(W)))
      return std::nullopt;
    if (E.Op == ExprOp::SDiv)
      return corners({A.Lo / B.Lo, A.Lo / B.Hi, A.Hi / B.Lo, A.Hi / B.Hi});
    if (A.Lo < 0)
      return std::nullopt;
    return Range{0, std::min(A.Hi, B.Hi - 1)};
  }
}


/// affineFormOver(): every node's value range over the box must be int64
/// values (eval wraps at 64 bits).
class AffineOver {
public:
  AffineOver(const IndexBox &Box, const EvalEnv &Env, unsigned OpaqueDims)
      : Box(Box), Env(Env), Opaque(OpaqueDims << 3) {}

  std::optional<AffineForm> build(const Expr &E) {
    auto F = node(E);
    if (F && !within(rangeOver(*F, Box), I64Min, I64Max))
      return std::nullopt;
    return F;
  }

private:
  std::optional<AffineForm> node(const Expr &E) {
    AffineForm F;
    unsigned Reads = E.threadVarMask();
    if (Opaque && (Reads & Opaque) && !(Reads & ~Opaque)) {
      Opt V = Interval(Box, Env).node(E);
      if (!V || V->Lo != V->Hi)
        return std::nullopt;
      F.C0 = V->Lo;
      return F;
    }
    switch (E.Op) {
    case ExprOp::Const:
    case ExprOp::Arg:
    case ExprOp::Field: {
      Opt V = Interval(Box, Env).node(E);
      if (!V)
        return std::nullopt;
      F.C0 = V->Lo;
      return F;
    }
    case ExprOp::SReg:
      return registerForm(E.Reg, E.Dim, Env.NTid, Env.NCtaId);
    case ExprOp::Add:
    case ExprOp::Sub: {
      auto A = build(*E.Ops[0]), B = build(*E.Ops[1]);
      if (!A || !B)
        return std::nullopt;
      return sumForm(*A, *B, E.Op == ExprOp::Add ? 1 : -1);
    }
    case ExprOp::Mul:
    case ExprOp::Shl:
      return product(E);
    case ExprOp::SExt:
    case ExprOp::ZExt:
      return extension(E);
    default:
      return std::nullopt;
    }
  }

  static bool constant(const AffineForm &F) {
    return std::all_of(F.Coef.begin(), F.Coef.end(), [](i128 C) { return C == 0; });
  }

  std::optional<AffineForm> product(const Expr &E) {
    auto A = build(*E.Ops[0]), B = build(*E.Ops[1]);
    if (!A || !B)
      return std::nullopt;
    if (E.Op == ExprOp::Shl) {
      if (!constant(*B) || B->C0 < 0 || B->C0 > 62)
        return std::nullopt;
      B->C0 = i128(1) << int(B->C0);
    } else if (!constant(*B)) {
      std::swap(A, B);
    }
    if (!constant(*B) || B->C0 > I64Max || B->C0 < I64Min)
      return std::nullopt; // a product of two indices
    AffineForm F;
    F.C0 = A->C0 * B->C0;
    for (size_t I = 0; I < 6; ++I)
      F.Coef[I] = A->Coef[I] * B->C0;
    return F;
  }

  /// sext/zext from W bits: the operand minus the multiple of 2^W of the
  /// window [k 2^W + Lo, k 2^W + Hi] it stays in (Lo = -2^(W-1) or 0).
  std::optional<AffineForm> extension(const Expr &E) {
    auto A = build(*E.Ops[0]);
    if (!A || E.Width <= 0 || E.Width > 64)
      return std::nullopt;
    if (E.Width == 64)
      return A;
    Range R = rangeOver(*A, Box);
    i128 M = i128(1) << E.Width, Lo = E.Op == ExprOp::SExt ? -(M / 2) : 0;
    i128 K = floorDiv128(R.Lo - Lo, M);
    if (floorDiv128(R.Hi - Lo, M) != K)
      return std::nullopt; // the extension cuts the box's values apart
    A->C0 -= K * M;
    return A;
  }

  const IndexBox &Box;
  const EvalEnv &Env;
  unsigned Opaque; ///< threadVarMask() bits of the opaque ctaid dimensions
};

} // namespace

std::optional<Range> intervalOf(const Expr &E, const IndexBox &Box, const EvalEnv &Env) {
  return Interval(Box, Env).node(E);
}

} // namespace hroof

namespace hroof {

std::optional<AffineForm> affineFormOver(const Expr &E, const IndexBox &Box, const EvalEnv &Env,
                                         unsigned OpaqueDims) {
  return AffineOver(Box, Env, OpaqueDims).build(E);
}

Range rangeOver(const AffineForm &F, const IndexBox &Box) {
  Range R{F.C0, F.C0};
  for (size_t I = 0; I < 6; ++I) {
    i128 C = F.Coef[I];
    i128 Lo = I < 3 ? Box.TidLo[I] : Box.CtaLo[I - 3], Hi = I < 3 ? Box.TidHi[I] : Box.CtaHi[I - 3];
    R.Lo += C * (C > 0 ? Lo : Hi);
    R.Hi += C * (C > 0 ? Hi : Lo);
  }
  return R;
}

} // namespace hroof
