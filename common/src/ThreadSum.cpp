//===- ThreadSum.cpp - exact sums of per-thread products over a launch ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hroof/ThreadSum.h"
#include "BlockSum.h"

#include <optional>
#include <tuple>

namespace hroof {

std::string u128ToString(u128 V) {
  if (V == 0)
    return "0";
  std::string S;
  while (V) {
    S.insert(S.begin(), char('0' + int(V % 10)));
    V /= 10;
  }
  return S;
}

namespace {

/// An expression split as Coef*tid.d + Rest, where Coef and Rest do not use
/// tid.d. Extensions are looked through; each one adds a range check (the
/// extended value must be representable at its width for the split to hold).
struct Linear {
  ExprPtr Coef, Rest;
};
struct RangeCheck {
  ExprPtr Coef, Rest;
  int Width;
  bool Signed;
};

ExprPtr mk(ExprOp Op, ExprPtr A, ExprPtr B) {
  auto E = std::make_shared<Expr>();
  E->Op = Op;
  E->Ops = {std::move(A), std::move(B)};
  return E;
}

bool usesTid(const Expr &E, int D) { return E.threadVarMask() & (1u << D); }

std::optional<Linear> linearize(const ExprPtr &E, int D, std::vector<RangeCheck> &Checks) {
  if (!usesTid(*E, D))
    return Linear{Expr::constant(0), E};
  switch (E->Op) {
  case ExprOp::SReg:
    return Linear{Expr::constant(1), Expr::constant(0)};
  case ExprOp::Add:
  case ExprOp::Sub: {
    auto A = linearize(E->Ops[0], D, Checks), B = linearize(E->Ops[1], D, Checks);
    if (!A || !B)
      return std::nullopt;
    return Linear{mk(E->Op, A->Coef, B->Coef), mk(E->Op, A->Rest, B->Rest)};
  }
  case ExprOp::Mul:
  case ExprOp::Shl: {
    int T = usesTid(*E->Ops[0], D) ? 0 : 1; // the tid-free operand
    if (usesTid(*E->Ops[T], D))
      return std::nullopt;
    if (E->Op == ExprOp::Shl && T != 1)
      return std::nullopt;
    auto A = linearize(E->Ops[1 - T], D, Checks);
    if (!A)
      return std::nullopt;
    ExprPtr K = E->Op == ExprOp::Shl ? mk(ExprOp::Shl, Expr::constant(1), E->Ops[1]) : E->Ops[T];
    return Linear{mk(ExprOp::Mul, A->Coef, K), mk(ExprOp::Mul, A->Rest, K)};
  }
  case ExprOp::SExt:
  case ExprOp::ZExt: {
    auto A = linearize(E->Ops[0], D, Checks);
    if (!A)
      return std::nullopt;
    Checks.push_back({A->Coef, A->Rest, E->Width, E->Op == ExprOp::SExt});
    return A;
  }
  default:
    return std::nullopt;
  }
}

bool isSigned(CmpPred P) {
  return P == CmpPred::SLT || P == CmpPred::SLE || P == CmpPred::SGT || P == CmpPred::SGE;
}

CmpPred invert(CmpPred P) {
  switch (P) {
  case CmpPred::EQ:
    return CmpPred::NE;
  case CmpPred::NE:
    return CmpPred::EQ;
  case CmpPred::SLT:
    return CmpPred::SGE;
  case CmpPred::SLE:
    return CmpPred::SGT;
  case CmpPred::SGT:
    return CmpPred::SLE;
  case CmpPred::SGE:
    return CmpPred::SLT;
  case CmpPred::ULT:
    return CmpPred::UGE;
  case CmpPred::ULE:
    return CmpPred::UGT;
  case CmpPred::UGT:
    return CmpPred::ULE;
  case CmpPred::UGE:
    return CmpPred::ULT;
  }
  return P;
}

/// A compare A pred B whose sides are affine in tid.d.
struct IntervalAtom {
  CmpPred Pred;
  int Width;
  Linear A, B;
  std::vector<RangeCheck> Checks;
  ExprPtr Original;
};

std::optional<IntervalAtom> asIntervalAtom(const ExprPtr &F, int D) {
  ExprPtr E = F;
  bool Negate = false;
  while (E->Op == ExprOp::Not || (E->Op == ExprOp::ZExt && E->Width == 1)) {
    if (E->Op == ExprOp::Not)
      Negate = !Negate;
    E = E->Ops[0];
  }
  if (E->Op != ExprOp::ICmp || E->Pred == CmpPred::EQ || E->Pred == CmpPred::NE)
    return std::nullopt;
  IntervalAtom Atom;
  Atom.Pred = Negate ? invert(E->Pred) : E->Pred;
  Atom.Width = E->Width;
  Atom.Original = F;
  auto A = linearize(E->Ops[0], D, Atom.Checks);
  auto B = linearize(E->Ops[1], D, Atom.Checks);
  if (!A || !B)
    return std::nullopt;
  Atom.A = *A;
  Atom.B = *B;
  // The compare itself reads both sides at its width.
  bool S = isSigned(E->Pred);
  Atom.Checks.push_back({A->Coef, A->Rest, E->Width, S});
  Atom.Checks.push_back({B->Coef, B->Rest, E->Width, S});
  return Atom;
}

int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}

bool inRange(__int128 V, int W, bool Signed) {
  // 64-bit values are int64 in the evaluator: an unsigned compare reads a
  // negative one as 2^64 + V, so only [0, 2^63) orders the same both ways
  // (a sign-extended negative index against a size_t bound).
  if (W >= 64)
    return V <= INT64_MAX && V >= (Signed ? INT64_MIN : 0);
  __int128 Lo = Signed ? -(__int128(1) << (W - 1)) : 0;
  __int128 Hi = Signed ? (__int128(1) << (W - 1)) : (__int128(1) << W);
  return V >= Lo && V < Hi;
}

/// \p R modulo 2^W as the W-bit value a compare of that signedness reads.
__int128 reduceModWidth(__int128 R, int W, bool Signed) {
  if (W >= 64)
    return R;
  __int128 M = __int128(1) << W;
  R %= M;
  if (R < 0)
    R += M;
  return Signed && R >= M / 2 ? R - M : R;
}

/// Intersects [Lo,Hi) with the set of t where C*t + R < 0 (Strict) or
/// C*t + R <= 0 (!Strict).
void clipLess(int64_t C, int64_t R, bool Strict, int64_t &Lo, int64_t &Hi) {
  if (!Strict)
    R -= 1; // C*t + R <= 0  <=>  C*t + (R-1) < 0
  if (C == 0) {
    if (!(R < 0))
      Hi = Lo;
    return;
  }
  if (C > 0) {
    // t < -R/C  <=>  t <= floor((-R-1)/C)
    int64_t Max = floorDiv(-R - 1, C);
    if (Max + 1 < Hi)
      Hi = Max + 1;
  } else {
    // t > R/(-C)  <=>  t >= floor(R/(-C)) + 1
    int64_t Min = floorDiv(R, -C) + 1;
    if (Min > Lo)
      Lo = Min;
  }
}

class DimSummer {
public:
  DimSummer(int D, const std::vector<ExprPtr> &Factors, const LaunchShape &L, EvalEnv &Env,
            const ThreadSumOptions &Opts, uint64_t &Evals)
      : D(D), L(L), Env(Env), Opts(Opts), Evals(Evals), Factors(Factors) {
    for (const ExprPtr &F : Factors) {
      if (auto A = asIntervalAtom(F, D))
        Atoms.push_back(std::move(*A));
      else if (usesTid(*F, D))
        PerThread.push_back(F);
      else
        PerBlock.push_back(F);
      if (F->threadVarMask() & (1u << (3 + D)))
        UsesCta = true;
    }
  }

  u128 sum() {
    int64_t G = L.Grid[D];
    if (!UsesCta)
      return G == 0 ? 0 : sumBlock(0) * u128(G);
    std::string WhyNot;
    if (Opts.ClosedForm)
      if (auto S = sumDimensionClosedForm(D, Factors, L, Env, WhyNot))
        return *S;
    // Blocks that repeat (an index that wraps at its width): walk one
    // period and scale it.
    auto PeriodLog2 = blockPeriodLog2(D, Factors, Env);
    if (PeriodLog2 && *PeriodLog2 < 62 && (int64_t(1) << *PeriodLog2) < G &&
        uint64_t(1) << *PeriodLog2 <= Opts.MaxBlockWalk) {
      int64_t P = int64_t(1) << *PeriodLog2, Rest = G % P;
      u128 Period = 0, Prefix = 0;
      for (int64_t B = 0; B < P; ++B) {
        if (B == Rest)
          Prefix = Period;
        Period += sumBlock(B);
      }
      return Period * u128(G / P) + Prefix;
    }
    // The walk costs tens of nanoseconds per block even for one guard
    // (docs/validation/large-grids.md): 2^24 blocks take about a second, the
    // largest grid's 2^31 minutes. Refuse those at once.
    if (uint64_t(G) > Opts.MaxBlockWalk)
      throw ExprError("launch too large to sum exactly: the count depends on ctaid." +
                      std::string("xyz").substr(size_t(D), 1) + " in a way hroof has no closed "
                      "form for (" + WhyNot + "), and walking " + std::to_string(G) +
                      " blocks one by one is over the limit of " +
                      std::to_string(Opts.MaxBlockWalk) + "; give a grid with fewer blocks " +
                      "in " + std::string("xyz").substr(size_t(D), 1) +
                      " (or, where an index wraps, compute it in 64 bits)");
    u128 S = 0;
    for (int64_t B = 0; B < G; ++B)
      S += sumBlock(B);
    return S;
  }

private:
  u128 sumBlock(int64_t B) {
    Env.CtaId[D] = B;
    Env.Tid[D] = 0;
    int64_t Lo = 0, Hi = L.Block[D];
    std::vector<const ExprPtr *> Fallback;
    for (const IntervalAtom &A : Atoms)
      if (!clip(A, Lo, Hi))
        Fallback.push_back(&A.Original);
    if (Hi <= Lo)
      return 0;
    u128 BlockProduct = 1;
    for (const ExprPtr &F : PerBlock) {
      int64_t V = F->eval(Env);
      if (V < 0)
        throw ExprError("negative multiplicity " + std::to_string(V) + " from " +
                        F->str(&Env.ArgNames));
      BlockProduct *= u128(V);
      if (BlockProduct == 0)
        return 0;
    }
    if (PerThread.empty() && Fallback.empty())
      return BlockProduct * u128(Hi - Lo);
    u128 S = 0;
    Evals += uint64_t(Hi - Lo);
    if (Evals > Opts.MaxEvaluations)
      throw ExprError("launch too large to sum thread by thread exactly");
    for (int64_t T = Lo; T < Hi; ++T) {
      Env.Tid[D] = T;
      u128 P = BlockProduct;
      for (const ExprPtr *F : Fallback)
        if ((*F)->eval(Env) == 0) {
          P = 0;
          break;
        }
      for (const ExprPtr &F : PerThread) {
        if (P == 0)
          break;
        int64_t V = F->eval(Env);
        if (V < 0)
          throw ExprError("negative multiplicity " + std::to_string(V) + " from " +
                          F->str(&Env.ArgNames));
        P *= u128(V);
      }
      S += P;
    }
    return S;
  }

  /// Narrows [Lo,Hi) to the threads that satisfy \p A. False if the affine
  /// form may wrap at its width here (then the caller evaluates per thread).
  bool clip(const IntervalAtom &A, int64_t &Lo, int64_t &Hi) {
    if (Hi <= Lo)
      return true;
    // The last two checks are the compare's own sides. Without extensions
    // below it, each side is a ring expression that the compare reads
    // modulo 2^W: a block whose values wrapped as a whole (a 32-bit index
    // past 2^31) is still an interval once its part from ctaid is reduced.
    size_t Sides = A.Checks.size() - 2;
    bool Reduce = Sides == 0;
    __int128 KA = A.A.Coef->eval(Env), RA = A.A.Rest->eval(Env);
    __int128 KB = A.B.Coef->eval(Env), RB = A.B.Rest->eval(Env);
    if (Reduce) {
      RA = reduceModWidth(RA, A.Checks[0].Width, A.Checks[0].Signed);
      RB = reduceModWidth(RB, A.Checks[1].Width, A.Checks[1].Signed);
    }
    for (size_t I = 0; I < A.Checks.size(); ++I) {
      const RangeCheck &C = A.Checks[I];
      __int128 K = C.Coef->eval(Env), R = C.Rest->eval(Env);
      if (I >= Sides && Reduce)
        std::tie(K, R) = I == Sides ? std::make_pair(KA, RA) : std::make_pair(KB, RB);
      if (!inRange(K * Lo + R, C.Width, C.Signed) || !inRange(K * (Hi - 1) + R, C.Width, C.Signed))
        return false;
    }
    // Both sides are exact integers here: compare A - B against 0.
    __int128 C128 = KA - KB;
    __int128 R128 = RA - RB;
    if (C128 > INT64_MAX || C128 < -INT64_MAX || R128 > INT64_MAX / 2 || R128 < -INT64_MAX / 2)
      return false;
    int64_t C = int64_t(C128), R = int64_t(R128);
    switch (A.Pred) {
    case CmpPred::SLT:
    case CmpPred::ULT:
      clipLess(C, R, true, Lo, Hi);
      break;
    case CmpPred::SLE:
    case CmpPred::ULE:
      clipLess(C, R, false, Lo, Hi);
      break;
    case CmpPred::SGT:
    case CmpPred::UGT:
      clipLess(-C, -R, true, Lo, Hi);
      break;
    case CmpPred::SGE:
    case CmpPred::UGE:
      clipLess(-C, -R, false, Lo, Hi);
      break;
    default:
      return false;
    }
    if (Hi < Lo)
      Hi = Lo;
    return true;
  }

  int D;
  const LaunchShape &L;
  EvalEnv &Env;
  const ThreadSumOptions &Opts;
  uint64_t &Evals;
  const std::vector<ExprPtr> &Factors;
  std::vector<IntervalAtom> Atoms;
  std::vector<ExprPtr> PerThread, PerBlock;
  bool UsesCta = false;
};

/// Thread-by-thread sum over the dimensions in \p Dims (bit mask).
u128 bruteForce(unsigned Dims, const std::vector<ExprPtr> &Factors, const LaunchShape &L,
                EvalEnv &Env, const ThreadSumOptions &Opts, uint64_t &Evals) {
  u128 Threads = 1; // up to 2^73 in the largest launch: checked before any narrowing
  for (int D = 0; D < 3; ++D)
    if (Dims & (1u << D))
      Threads *= u128(L.Grid[D]) * u128(L.Block[D]);
  if (Threads + Evals > Opts.MaxEvaluations)
    throw ExprError("launch too large to sum thread by thread exactly: a factor mixes "
                    "dimensions, and its " + u128ToString(Threads) +
                    " threads are over the limit of " + std::to_string(Opts.MaxEvaluations) +
                    "; give a smaller grid");
  uint64_t N = uint64_t(Threads);
  Evals += N;
  u128 S = 0;
  std::array<int64_t, 3> Idx{}; // global index per dimension
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t R = I;
    for (int D = 0; D < 3; ++D) {
      if (!(Dims & (1u << D)))
        continue;
      uint64_t Ext = uint64_t(L.Grid[D] * L.Block[D]);
      Idx[D] = int64_t(R % Ext);
      R /= Ext;
      Env.CtaId[D] = Idx[D] / L.Block[D];
      Env.Tid[D] = Idx[D] % L.Block[D];
    }
    u128 P = 1;
    for (const ExprPtr &F : Factors) {
      int64_t V = F->eval(Env);
      if (V < 0)
        throw ExprError("negative multiplicity from " + F->str(&Env.ArgNames));
      P *= u128(V);
      if (!P)
        break;
    }
    S += P;
  }
  return S;
}

} // namespace

u128 sumOverThreads(const std::vector<ExprPtr> &Factors, const LaunchShape &L, EvalEnv Env,
                    const ThreadSumOptions &Opts) {
  for (int D = 0; D < 3; ++D) {
    if (L.Grid[D] < 0 || L.Block[D] < 0)
      throw ExprError("negative launch dimension");
    Env.NTid[D] = L.Block[D];
    Env.NCtaId[D] = L.Grid[D];
    Env.Tid[D] = Env.CtaId[D] = 0;
  }
  if (L.threads() == 0)
    return 0;
  // Uniform factors first; group the rest by the dimensions they touch.
  // Uniform sums over a loop's iterations last, and only where the rest is
  // not zero: a loop that no thread enters may have a meaningless range.
  u128 Uniform = 1;
  std::vector<ExprPtr> Varying, UniformSums;
  auto Multiply = [&](const ExprPtr &F) {
    int64_t V = F->eval(Env);
    if (V < 0)
      throw ExprError("negative multiplicity " + std::to_string(V) + " from " +
                      F->str(&Env.ArgNames));
    Uniform *= u128(V);
  };
  for (const ExprPtr &F : Factors) {
    if (F->threadVarMask() != 0)
      Varying.push_back(F);
    else if (F->containsSum())
      UniformSums.push_back(F);
    else
      Multiply(F);
    if (Uniform == 0)
      return 0;
  }
  if (!UniformSums.empty()) {
    std::vector<ExprPtr> Rest = Varying;
    u128 Threads = sumOverThreads(Rest, L, Env, Opts);
    if (Threads == 0)
      return 0;
    for (const ExprPtr &F : UniformSums) {
      Multiply(F);
      if (Uniform == 0)
        return 0;
    }
    return Uniform * Threads;
  }
  // Union of dimension sets: dims joined when one factor uses both.
  int Parent[3] = {0, 1, 2};
  auto Find = [&](int X) {
    while (Parent[X] != X)
      X = Parent[X];
    return X;
  };
  auto DimsOf = [](const ExprPtr &F) {
    unsigned M = F->threadVarMask();
    return (M | (M >> 3)) & 7u;
  };
  for (const ExprPtr &F : Varying) {
    unsigned M = DimsOf(F);
    int First = -1;
    for (int D = 0; D < 3; ++D)
      if (M & (1u << D)) {
        if (First < 0)
          First = D;
        else
          Parent[Find(D)] = Find(First);
      }
  }
  uint64_t Evals = 0;
  u128 Total = Uniform;
  for (int Root = 0; Root < 3; ++Root) {
    if (Find(Root) != Root)
      continue;
    unsigned Group = 0;
    for (int D = 0; D < 3; ++D)
      if (Find(D) == Root)
        Group |= 1u << D;
    std::vector<ExprPtr> Mine;
    for (const ExprPtr &F : Varying)
      if (DimsOf(F) & Group)
        Mine.push_back(F);
    u128 S;
    if (Mine.empty()) {
      S = 1;
      for (int D = 0; D < 3; ++D)
        if (Group & (1u << D))
          S *= u128(L.Grid[D]) * u128(L.Block[D]);
    } else if (__builtin_popcount(Group) == 1) {
      int D = __builtin_ctz(Group);
      S = DimSummer(D, Mine, L, Env, Opts, Evals).sum();
    } else {
      S = bruteForce(Group, Mine, L, Env, Opts, Evals);
    }
    Total *= S;
    if (Total == 0)
      return 0;
  }
  return Total;
}

} // namespace hroof
