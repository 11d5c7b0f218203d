//===- BlockSum.cpp - per-dimension sums in closed form over the blocks ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A dimension's factors become a sum of pieces, each "the threads where a
// set of affine inequalities holds, times a value" (a constant, or
// floor(affine / m) for a trip count). Each piece is summed over the lattice
// points of its polygon: in one variable (g = ctaid*ntid + tid, a bijection
// onto [0, nctaid*ntid)) when every inequality depends on g only, else over
// ctaid with the tid interval of each block bounded by floors of lines in
// ctaid, split where two lines cross so that one line is the bound in each
// segment (BlockSum.h).
//===----------------------------------------------------------------------===//
#include "BlockSum.h"
#include "AffineForm.h"

#include <algorithm>

namespace hroof {

namespace {

/// T*tid + B*ctaid + C (one dimension).
struct Lin {
  i128 T = 0, B = 0, C = 0;
  Lin operator-() const { return {-T, -B, -C}; }
  Lin plus(i128 K) const { return {T, B, C + K}; }
};
Lin sub(const Lin &X, const Lin &Y) { return {X.T - Y.T, X.B - Y.B, X.C - Y.C}; }

/// K * floor(Num / Den), Den > 0.
struct Term {
  i128 K = 1;
  Lin Num;
  i128 Den = 1;
};
/// The threads where every atom is < 0, times the sum of the terms.
struct Piece {
  std::vector<Lin> Atoms;
  std::vector<Term> Terms{Term{1, {0, 0, 1}, 1}};
  /// The value when no term varies with the thread.
  std::optional<i128> constant() const;
  /// The value as one affine form when every term has Den 1.
  std::optional<Lin> affine() const;
};
using Pieces = std::vector<Piece>;

/// Bounds that keep every product below in i128 (lines, crossings, floor sums).
constexpr i128 MaxCoef = i128(1) << 40, MaxConst = i128(1) << 70, MaxDen = i128(1) << 50;
constexpr size_t MaxPieces = 256;

i128 floorDiv128(i128 A, i128 B) {
  i128 Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}
i128 abs128(i128 V) { return V < 0 ? -V : V; }

std::optional<i128> Piece::constant() const {
  i128 V = 0;
  for (const Term &X : Terms) {
    if (X.Num.T || X.Num.B)
      return std::nullopt;
    V += X.K * floorDiv128(X.Num.C, X.Den);
  }
  return V;
}
std::optional<Lin> Piece::affine() const {
  Lin V;
  for (const Term &X : Terms) {
    if (X.Den != 1)
      return std::nullopt;
    V = {V.T + X.K * X.Num.T, V.B + X.K * X.Num.B, V.C + X.K * X.Num.C};
  }
  return V;
}

class FactorReader {
public:
  FactorReader(int D, const LaunchShape &L, const EvalEnv &Args) : D(D), L(L), Env(Args) {
    Env.NTid = L.Block; // uniform operands (a stride nctaid*ntid) read them
    Env.NCtaId = L.Grid;
  }
  std::string WhyNot;

  std::optional<Lin> lin(const Expr &E) {
    auto F = affineForm(E, L, Env);
    if (!F)
      return fail("an operand is not affine in the indices, or may wrap, at " + E.str());
    for (int I = 0; I < 6; ++I)
      if (I != D && I != 3 + D && F->Coef[size_t(I)])
        return fail("a factor mixes dimensions");
    Lin R{F->Coef[size_t(D)], F->Coef[size_t(3 + D)], F->C0};
    if (abs128(R.T) > MaxCoef || abs128(R.B) > MaxCoef || abs128(R.C) > MaxConst)
      return fail("coefficients too large for the closed form");
    return R;
  }

  /// A 0/1 compare (under not / zext i1) as pieces, or nullopt.
  std::optional<Pieces> compare(const Expr &Top) {
    const Expr *E = &Top;
    bool Negate = false;
    while (E->Op == ExprOp::Not || (E->Op == ExprOp::ZExt && E->Width == 1)) {
      Negate ^= E->Op == ExprOp::Not;
      E = E->Ops[0].get();
    }
    if (E->Op != ExprOp::ICmp || E->Width <= 0 || E->Width > 64)
      return std::nullopt;
    auto A = lin(*E->Ops[0]), B = lin(*E->Ops[1]);
    if (!A || !B)
      return std::nullopt;
    // Both operands must be exact values at the compare's width and
    // signedness everywhere in the launch, so that comparing the affine
    // forms is comparing what the evaluator compares.
    CmpPred P = E->Pred;
    bool Signed = P == CmpPred::SLT || P == CmpPred::SLE || P == CmpPred::SGT || P == CmpPred::SGE;
    bool Fits = fitsWidth(*E->Ops[0], E->Width, Signed) && fitsWidth(*E->Ops[1], E->Width, Signed);
    if ((P == CmpPred::EQ || P == CmpPred::NE) && !Fits)
      Fits = fitsWidth(*E->Ops[0], E->Width, !Signed) && fitsWidth(*E->Ops[1], E->Width, !Signed);
    if (!Fits)
      return fail("a compare's operands may wrap at " + std::to_string(E->Width) +
                  " bits in this launch: " + E->str(&Env.ArgNames));
    Lin Diff = sub(*A, *B); // the compare is about the sign of A - B
    bool Lt = false, Le = false, Gt = false, Ge = false, Eq = false;
    switch (P) {
    case CmpPred::SLT: case CmpPred::ULT: (Negate ? Ge : Lt) = true; break;
    case CmpPred::SLE: case CmpPred::ULE: (Negate ? Gt : Le) = true; break;
    case CmpPred::SGT: case CmpPred::UGT: (Negate ? Le : Gt) = true; break;
    case CmpPred::SGE: case CmpPred::UGE: (Negate ? Lt : Ge) = true; break;
    case CmpPred::EQ: Lt = Gt = Negate; Eq = !Negate; break;
    case CmpPred::NE: Lt = Gt = !Negate; Eq = Negate; break;
    }
    Pieces Out;
    auto One = [&](std::vector<Lin> Atoms) {
      Piece Pc;
      Pc.Atoms = std::move(Atoms);
      Out.push_back(Pc);
    };
    if (Eq)
      One({Diff.plus(-1), (-Diff).plus(-1)}); // A - B <= 0 and B - A <= 0
    if (Lt)
      One({Diff});
    if (Le)
      One({Diff.plus(-1)});
    if (Gt)
      One({-Diff});
    if (Ge)
      One({(-Diff).plus(-1)});
    return Out;
  }

  /// A count as pieces (affine, ceildiv, udiv by a uniform divisor,
  /// min/max, sums), or nullopt.
  std::optional<Pieces> value(const Expr &E, int Depth = 0) {
    if (Depth > 24)
      return fail("an expression too deep for the closed form");
    if (E.threadVarMask() == 0)
      return Pieces{constantPiece(E.eval(Env))};
    if (affineForm(E, L, Env)) {
      auto X = lin(E);
      if (!X)
        return std::nullopt;
      Piece Pc;
      Pc.Terms = {Term{1, *X, 1}};
      return Pieces{Pc};
    }
    switch (E.Op) {
    case ExprOp::Add:
    case ExprOp::Sub:
      return sum(E, Depth);
    case ExprOp::Mul:
      return scaled(E, Depth);
    case ExprOp::SMax:
    case ExprOp::SMin:
    case ExprOp::UMax:
    case ExprOp::UMin:
      if (E.Width != 64)
        break;
      [[fallthrough]];
    case ExprOp::Max:
    case ExprOp::Min:
      return extreme(E, Depth);
    case ExprOp::UDiv:
      if (E.Width != 64)
        break;
      [[fallthrough]];
    case ExprOp::CeilDiv:
      return quotient(E, Depth);
    default:
      break;
    }
    return fail("a factor hroof has no closed form for: " + E.str(&Env.ArgNames));
  }

  /// Lattice points of [0,G) x [0,T) of dimension D where every atom holds.
  std::optional<i128> countWhere(const std::vector<Lin> &Atoms);

private:
  std::nullopt_t fail(const std::string &Why) {
    if (WhyNot.empty())
      WhyNot = Why;
    return std::nullopt;
  }

  bool fitsWidth(const Expr &E, int W, bool Signed) {
    auto F = affineForm(E, L, Env);
    if (!F)
      return false;
    Range R = rangeOf(*F, L);
    i128 Lo = Signed ? -(i128(1) << (W - 1)) : 0;
    i128 Hi = Signed ? (i128(1) << (W - 1)) - 1 : (i128(1) << W) - 1;
    return R.Lo >= Lo && R.Hi <= Hi;
  }

  static Piece constantPiece(i128 V) {
    Piece Pc;
    Pc.Terms = {Term{1, {0, 0, V}, 1}};
    return Pc;
  }

  /// Every value the evaluator computes stays far inside int64 (so its
  /// wrapping adds never wrap): a bound over the whole dimension.
  bool bounded(const Piece &P) {
    i128 Most = 0, G = L.Grid[size_t(D)], T = L.Block[size_t(D)];
    for (const Term &X : P.Terms) {
      i128 N = abs128(X.Num.T) * T + abs128(X.Num.B) * G + abs128(X.Num.C);
      if (abs128(X.K) > MaxCoef || N > MaxConst)
        return false;
      Most += abs128(X.K) * (N / X.Den + 1);
    }
    return Most < (i128(1) << 62);
  }

  std::optional<Pieces> combine(const Pieces &A, const Pieces &B, i128 SignB) {
    Pieces Out;
    for (const Piece &X : A)
      for (const Piece &Y : B) {
        Piece Z = X;
        Z.Atoms.insert(Z.Atoms.end(), Y.Atoms.begin(), Y.Atoms.end());
        for (Term T : Y.Terms) {
          T.K *= SignB;
          Z.Terms.push_back(T);
        }
        if (!bounded(Z))
          return fail("values too large for the closed form");
        Out.push_back(std::move(Z));
      }
    if (Out.size() > MaxPieces)
      return fail("too many cases for the closed form");
    return Out;
  }

  std::optional<Pieces> sum(const Expr &E, int Depth) {
    auto A = value(*E.Ops[0], Depth + 1), B = value(*E.Ops[1], Depth + 1);
    if (!A || !B)
      return std::nullopt;
    return combine(*A, *B, E.Op == ExprOp::Sub ? -1 : 1);
  }

  std::optional<Pieces> scaled(const Expr &E, int Depth) {
    int U = E.Ops[0]->threadVarMask() == 0 ? 0 : E.Ops[1]->threadVarMask() == 0 ? 1 : -1;
    if (U < 0)
      return fail("a product of two values that vary with the thread: " + E.str(&Env.ArgNames));
    i128 K = E.Ops[size_t(U)]->eval(Env);
    auto P = value(*E.Ops[size_t(1 - U)], Depth + 1);
    if (!P)
      return std::nullopt;
    for (Piece &X : *P) {
      for (Term &T : X.Terms)
        T.K *= K;
      if (!bounded(X))
        return fail("values too large for the closed form");
    }
    return P;
  }

  /// An operand known to be >= 0 wherever the piece's atoms hold.
  bool nonNegative(const std::vector<Lin> &Atoms, const Lin &X) {
    std::vector<Lin> Below = Atoms;
    Below.push_back(X); // X < 0
    auto N = countWhere(Below);
    return N && *N == 0;
  }

  /// max/min: split each pair of pieces where their affine values cross.
  std::optional<Pieces> extreme(const Expr &E, int Depth) {
    bool IsMax = E.Op == ExprOp::Max || E.Op == ExprOp::SMax || E.Op == ExprOp::UMax;
    bool Unsigned = E.Op == ExprOp::UMax || E.Op == ExprOp::UMin;
    auto A = value(*E.Ops[0], Depth + 1), B = value(*E.Ops[1], Depth + 1);
    if (!A || !B)
      return std::nullopt;
    Pieces Out;
    for (const Piece &X : *A)
      for (const Piece &Y : *B) {
        std::vector<Lin> Atoms = X.Atoms;
        Atoms.insert(Atoms.end(), Y.Atoms.begin(), Y.Atoms.end());
        // max: X where X >= Y, else Y; min: X where X <= Y, else Y. The
        // split is an affine atom when both are affine, or one is a
        // constant and the other one quotient floor(N / D).
        auto Split = splitAt(X, Y, IsMax);
        if (!Split)
          return fail("a min/max of a quotient: " + E.str(&Env.ArgNames));
        // Unsigned min/max of non-negative values is the signed one.
        if (Unsigned && (!Split->second || !nonNegative(Atoms, Split->second->first) ||
                         !nonNegative(Atoms, Split->second->second)))
          return fail("an unsigned min/max of a value that may be negative");
        Piece TakeX = X, TakeY = Y;
        TakeX.Atoms = TakeY.Atoms = Atoms;
        TakeX.Atoms.push_back(Split->first.first);
        TakeY.Atoms.push_back(Split->first.second);
        Out.push_back(std::move(TakeX));
        Out.push_back(std::move(TakeY));
      }
    if (Out.size() > MaxPieces)
      return fail("too many cases for the closed form");
    return Out;
  }

  /// Atoms "X wins" and "Y wins" of max (\p IsMax) or min, and the two
  /// values as affine forms when both are affine.
  using SplitAtoms = std::pair<std::pair<Lin, Lin>, std::optional<std::pair<Lin, Lin>>>;
  static std::optional<SplitAtoms> splitAt(const Piece &X, const Piece &Y, bool IsMax) {
    auto VX = X.affine(), VY = Y.affine();
    if (VX && VY) {
      Lin Diff = sub(*VX, *VY);
      return SplitAtoms{{IsMax ? (-Diff).plus(-1) : Diff.plus(-1), IsMax ? Diff : -Diff},
                        std::pair<Lin, Lin>{*VX, *VY}};
    }
    // floor(N / D) against a constant C: floor(N/D) >= C <=> N - C*D >= 0.
    bool SwapXY = !Y.constant();
    const Piece &Q = SwapXY ? Y : X;
    auto C = (SwapXY ? X : Y).constant();
    if (!C || Q.Terms.size() != 1 || Q.Terms[0].K != 1)
      return std::nullopt;
    const Term &T = Q.Terms[0];
    // The quotient wins a max where it is >= C, a min where it is <= C
    // (< C + 1); the constant wins elsewhere.
    i128 Edge = IsMax ? *C : *C + 1;
    Lin QAtLeast = (-T.Num).plus(Edge * T.Den - 1), QBelow = T.Num.plus(-Edge * T.Den);
    Lin QWins = IsMax ? QAtLeast : QBelow, CWins = IsMax ? QBelow : QAtLeast;
    return SplitAtoms{SwapXY ? std::pair<Lin, Lin>{CWins, QWins} : std::pair<Lin, Lin>{QWins, CWins},
                      std::nullopt};
  }

  /// udiv (of a non-negative value) and ceildiv by a uniform divisor.
  std::optional<Pieces> quotient(const Expr &E, int Depth) {
    if (E.Ops[1]->threadVarMask() != 0)
      return fail("a division by a value that varies with the thread: " + E.str(&Env.ArgNames));
    int64_t S = E.Ops[1]->eval(Env);
    if (S <= 0 || S > MaxDen)
      return fail("a division by " + std::to_string(S) + " in " + E.str(&Env.ArgNames));
    auto P = value(*E.Ops[0], Depth + 1);
    if (!P)
      return std::nullopt;
    bool Ceil = E.Op == ExprOp::CeilDiv;
    for (Piece &X : *P) {
      auto V = X.affine();
      if (!V)
        return fail("a quotient of a quotient: " + E.str(&Env.ArgNames));
      if (!Ceil && !nonNegative(X.Atoms, *V))
        return fail("an unsigned division of a value that may be negative");
      // ceil(x / s) = floor((x + s - 1) / s).
      X.Terms = {Term{1, Ceil ? V->plus(S - 1) : *V, S}};
    }
    return P;
  }

  int D;
  const LaunchShape &L;
  EvalEnv Env;
};

/// A line (P*b + Q) / R in the block index b, R > 0.
struct Line {
  i128 P, Q, R;
};
/// Sign of X(b) - Y(b).
int compareAt(const Line &X, const Line &Y, i128 B) {
  i128 L = (X.P * B + X.Q) * Y.R, R = (Y.P * B + Y.Q) * X.R;
  return L < R ? -1 : L > R ? 1 : 0;
}
/// sum_{b=S}^{E-1} floor(line(b)).
i128 floorSumOfLine(const Line &X, i128 S, i128 E) { return floorSum(E - S, X.R, X.P, X.P * S + X.Q); }

/// The line that is the least (Upper) or greatest of \p Ls at both ends of
/// [S, E): then it is so throughout (differences of lines are linear).
const Line *extremeOnSegment(const std::vector<Line> &Ls, i128 S, i128 E, bool Least) {
  for (const Line &X : Ls) {
    bool Ok = true;
    for (const Line &Y : Ls) {
      int A = compareAt(X, Y, S), B = compareAt(X, Y, E - 1);
      if (Least ? (A > 0 || B > 0) : (A < 0 || B < 0)) {
        Ok = false;
        break;
      }
    }
    if (Ok)
      return &X;
  }
  return nullptr;
}

/// Lattice points (b, t) of [0,G) x [0,T) where every atom is < 0.
std::optional<i128> countPolygon(const std::vector<Lin> &Atoms, i128 G, i128 T) {
  i128 B0 = 0, B1 = G;
  std::vector<Line> Upper{{0, T - 1, 1}}, Lower{{0, -1, 1}};
  for (const Lin &A : Atoms) {
    if (A.T > 0) // t <= floor((-B b - C - 1) / T)
      Upper.push_back({-A.B, -A.C - 1, A.T});
    else if (A.T < 0) // t >= floor((B b + C) / -T) + 1
      Lower.push_back({A.B, A.C, -A.T});
    else if (A.B > 0)
      B1 = std::min(B1, floorDiv128(-A.C - 1, A.B) + 1);
    else if (A.B < 0)
      B0 = std::max(B0, floorDiv128(A.C, -A.B) + 1);
    else if (A.C >= 0)
      return 0;
  }
  if (B1 <= B0)
    return 0;
  std::vector<Line> All = Upper;
  All.insert(All.end(), Lower.begin(), Lower.end());
  for (const Line &X : All) // keeps the crossings' products inside i128
    if (abs128(X.P) > MaxCoef || X.R > MaxCoef || abs128(X.Q) > MaxConst)
      return std::nullopt;
  All = Upper;
  All.insert(All.end(), Lower.begin(), Lower.end());
  std::vector<i128> Cuts{B0, B1};
  for (size_t I = 0; I < All.size(); ++I)
    for (size_t J = I + 1; J < All.size(); ++J) {
      i128 Den = All[I].P * All[J].R - All[J].P * All[I].R;
      i128 Num = All[J].Q * All[I].R - All[I].Q * All[J].R;
      if (Den == 0)
        continue;
      if (Den < 0)
        Den = -Den, Num = -Num;
      i128 Cut = floorDiv128(Num, Den) + 1; // the order of I and J is fixed on each side
      if (Cut > B0 && Cut < B1)
        Cuts.push_back(Cut);
    }
  std::sort(Cuts.begin(), Cuts.end());
  Cuts.erase(std::unique(Cuts.begin(), Cuts.end()), Cuts.end());
  i128 Count = 0;
  for (size_t K = 0; K + 1 < Cuts.size(); ++K) {
    i128 S = Cuts[K], E = Cuts[K + 1];
    const Line *Hi = extremeOnSegment(Upper, S, E, true);
    const Line *Lo = extremeOnSegment(Lower, S, E, false);
    if (!Hi || !Lo)
      return std::nullopt; // cannot happen: the cuts separate every crossing
    int AtS = compareAt(*Hi, *Lo, S), AtE = compareAt(*Hi, *Lo, E - 1);
    if (AtS >= 0 && AtE >= 0) // t in [floor(lo) + 1, floor(hi)]
      Count += floorSumOfLine(*Hi, S, E) - floorSumOfLine(*Lo, S, E);
    else if (!(AtS <= 0 && AtE <= 0))
      return std::nullopt;
  }
  return Count;
}

/// g-only pieces: [Lo, Hi) of g = b*T + t where every atom holds.
std::pair<i128, i128> interval1D(const std::vector<Lin> &Atoms, i128 N) {
  i128 Lo = 0, Hi = N;
  for (const Lin &A : Atoms) {
    if (A.T > 0)
      Hi = std::min(Hi, floorDiv128(-A.C - 1, A.T) + 1);
    else if (A.T < 0)
      Lo = std::max(Lo, floorDiv128(A.C, -A.T) + 1);
    else if (A.C >= 0)
      Hi = Lo;
  }
  return {Lo, std::max(Lo, Hi)};
}

bool onlyThroughGlobalIndex(const Lin &X, i128 T) { return X.B == X.T * T; }
bool allThroughGlobalIndex(const std::vector<Lin> &Atoms, i128 T) {
  return std::all_of(Atoms.begin(), Atoms.end(),
                     [&](const Lin &A) { return onlyThroughGlobalIndex(A, T); });
}

std::optional<i128> countIn(const std::vector<Lin> &Atoms, i128 G, i128 T) {
  if (allThroughGlobalIndex(Atoms, T)) {
    auto [Lo, Hi] = interval1D(Atoms, G * T);
    return Hi - Lo;
  }
  return countPolygon(Atoms, G, T);
}

/// Sum of one piece over the launch's dimension, or nullopt.
std::optional<i128> sumPiece(const Piece &P, i128 G, i128 T, std::string &WhyNot) {
  if (auto C = P.constant()) {
    if (*C == 0)
      return 0;
    auto N = countIn(P.Atoms, G, T);
    if (!N)
      WhyNot = "internal: the polygon's bounds were not separated";
    return N ? std::optional<i128>(*N * *C) : std::nullopt;
  }
  bool OneD = allThroughGlobalIndex(P.Atoms, T) &&
              std::all_of(P.Terms.begin(), P.Terms.end(),
                          [&](const Term &X) { return onlyThroughGlobalIndex(X.Num, T); });
  if (!OneD) {
    WhyNot = "a count depends on ctaid and tid other than through ctaid*ntid + tid";
    return std::nullopt;
  }
  auto [Lo, Hi] = interval1D(P.Atoms, G * T);
  i128 S = 0;
  for (const Term &X : P.Terms)
    S += X.K * floorSum(Hi - Lo, X.Den, X.Num.T, X.Num.T * Lo + X.Num.C);
  return S;
}

/// Where the piece's value may be negative: value >= LB, with LB a common-
/// denominator affine lower bound (floor(x) >= x - (d - 1)/d for K > 0,
/// <= x for K < 0); the value is an integer, so LB > -1 proves it >= 0.
/// Returns the atom "LB <= -1", or nullopt when the denominators are too large.
std::optional<Lin> mayBeNegative(const Piece &P) {
  i128 Common = 1;
  for (const Term &X : P.Terms) {
    i128 A = Common, B = X.Den; // Common = lcm(Common, Den)
    while (B) {
      i128 R = A % B;
      A = B;
      B = R;
    }
    Common = Common / A * X.Den;
    if (Common > MaxDen)
      return std::nullopt;
  }
  Lin Scaled; // LB * Common
  for (const Term &X : P.Terms) {
    i128 F = Common / X.Den * X.K;
    if (abs128(F) > MaxDen)
      return std::nullopt;
    Lin N = X.K > 0 ? X.Num.plus(1 - X.Den) : X.Num;
    Scaled = {Scaled.T + F * N.T, Scaled.B + F * N.B, Scaled.C + F * N.C};
  }
  return Scaled.plus(Common - 1); // LB*Common + Common <= 0
}

} // namespace

std::optional<i128> FactorReader::countWhere(const std::vector<Lin> &Atoms) {
  return countIn(Atoms, L.Grid[size_t(D)], L.Block[size_t(D)]);
}

i128 floorSum(i128 N, i128 M, i128 A, i128 B) {
  i128 Ans = 0;
  if (N <= 0)
    return 0;
  // Bring A and B into [0, M); what they lose is an arithmetic series.
  i128 QA = floorDiv128(A, M), QB = floorDiv128(B, M);
  Ans += QA * (N * (N - 1) / 2) + QB * N;
  A -= QA * M;
  B -= QB * M;
  while (true) {
    if (A >= M) {
      Ans += N * (N - 1) / 2 * (A / M);
      A %= M;
    }
    if (B >= M) {
      Ans += N * (B / M);
      B %= M;
    }
    i128 YMax = A * N + B;
    if (YMax < M)
      return Ans;
    // Count the lattice points under the line the other way round.
    N = YMax / M;
    B = YMax % M;
    std::swap(M, A);
  }
}

std::optional<u128> sumDimensionClosedForm(int D, const std::vector<ExprPtr> &Factors,
                                           const LaunchShape &L, const EvalEnv &Env,
                                           std::string &WhyNot) {
  FactorReader Reader(D, L, Env);
  Pieces Product{Piece{}};
  for (const ExprPtr &F : Factors) {
    auto Ps = Reader.compare(*F);
    if (!Ps && Reader.WhyNot.empty())
      Ps = Reader.value(*F);
    if (!Ps) {
      WhyNot = Reader.WhyNot.empty() ? "a factor hroof has no closed form for: " + F->str()
                                     : Reader.WhyNot;
      return std::nullopt;
    }
    Pieces Next;
    for (const Piece &X : Product)
      for (const Piece &Y : *Ps) {
        // One side must be a constant: a product of two varying counts is
        // not a floor of an affine form.
        auto CX = X.constant(), CY = Y.constant();
        if (!CX && !CY) {
          WhyNot = "a product of two counts that vary with the thread";
          return std::nullopt;
        }
        Piece Z = CX ? Y : X;
        for (Term &T : Z.Terms)
          T.K *= CX ? *CX : *CY;
        Z.Atoms = X.Atoms;
        Z.Atoms.insert(Z.Atoms.end(), Y.Atoms.begin(), Y.Atoms.end());
        Next.push_back(std::move(Z));
      }
    if (Next.size() > MaxPieces) {
      WhyNot = "too many cases for the closed form";
      return std::nullopt;
    }
    Product = std::move(Next);
  }
  i128 G = L.Grid[size_t(D)], T = L.Block[size_t(D)];
  i128 Total = 0;
  for (const Piece &P : Product) {
    // A negative multiplicity on a thread that runs is an error, as in the walk.
    auto C = P.constant();
    if (C && *C == 0)
      continue;
    auto Atom = C ? std::optional<Lin>(Lin{0, 0, *C}) : mayBeNegative(P);
    if (!Atom) {
      WhyNot = "denominators too large for the closed form";
      return std::nullopt;
    }
    std::vector<Lin> Where = P.Atoms;
    Where.push_back(*Atom);
    auto N = countIn(Where, G, T);
    if (!N) {
      WhyNot = "internal: the polygon's bounds were not separated";
      return std::nullopt;
    }
    if (*N > 0) {
      if (C || P.affine())
        throw ExprError("negative multiplicity on " + u128ToString(u128(*N)) + " threads (in " +
                        std::string("xyz").substr(size_t(D), 1) + ")");
      WhyNot = "a count hroof cannot show to be non-negative";
      return std::nullopt;
    }
    auto S = sumPiece(P, G, T, WhyNot);
    if (!S)
      return std::nullopt;
    Total += *S;
  }
  return u128(Total);
}

namespace {

/// How an expression depends on ctaid.D (blockPeriodLog2).
struct Dependence {
  enum Kind { None, Ring, Periodic } K = None;
  /// Ring: the value modulo 2^k depends on ctaid modulo 2^(k - Val) (and on
  /// a periodic part of period 2^Per). Periodic: on ctaid modulo 2^Per.
  int Val = 0, Per = 0;
};

class PeriodReader {
public:
  PeriodReader(int D, const EvalEnv &Env) : D(D), Env(Env) {}

  std::optional<Dependence> of(const Expr &E, int Depth = 0) {
    if (Depth > 64 || !(E.threadVarMask() & (1u << (3 + D))))
      return Depth > 64 ? std::nullopt : std::optional<Dependence>(Dependence{});
    switch (E.Op) {
    case ExprOp::SReg:
      return Dependence{Dependence::Ring, 0, 0}; // ctaid.D itself
    case ExprOp::Add:
    case ExprOp::Sub:
    case ExprOp::And:
    case ExprOp::Or:
    case ExprOp::Xor:
      return ring(E, Depth, 0);
    case ExprOp::Mul:
    case ExprOp::Shl:
      return product(E, Depth);
    case ExprOp::ICmp:
    case ExprOp::SExt:
    case ExprOp::ZExt:
    case ExprOp::UDiv:
    case ExprOp::SDiv:
    case ExprOp::URem:
    case ExprOp::SRem:
    case ExprOp::LShr:
    case ExprOp::AShr:
    case ExprOp::SMin:
    case ExprOp::SMax:
    case ExprOp::UMin:
    case ExprOp::UMax:
      return readAtWidth(E, Depth);
    case ExprOp::Sum: // its body reads an iteration index: walk the blocks
    case ExprOp::IterVar:
      return std::nullopt;
    default: // exact int64 math (max, ceildiv, select, not): periodic operands only
      return ofPeriodicOperands(E, Depth);
    }
  }

private:
  std::optional<Dependence> ring(const Expr &E, int Depth, int ExtraVal) {
    Dependence R{Dependence::Ring, 64, 0};
    for (const ExprPtr &Op : E.Ops) {
      auto X = of(*Op, Depth + 1);
      if (!X)
        return std::nullopt;
      if (X->K == Dependence::Ring)
        R.Val = std::min(R.Val, X->Val);
      R.Per = std::max(R.Per, X->Per);
    }
    R.Val = std::min(64, R.Val + ExtraVal);
    return R;
  }

  /// A product by a uniform constant adds its power of two to the valuation.
  std::optional<Dependence> product(const Expr &E, int Depth) {
    int U = E.Ops[1]->threadVarMask() == 0 ? 1 : E.Ops[0]->threadVarMask() == 0 ? 0 : -1;
    if (U < 0 || (E.Op == ExprOp::Shl && U != 1))
      return E.Op == ExprOp::Mul ? ring(E, Depth, 0) : std::nullopt;
    int64_t C = E.Ops[size_t(U)]->eval(Env);
    int Extra = E.Op == ExprOp::Shl ? (C >= 0 && C < 64 ? int(C) : 64)
                                    : (C == 0 ? 64 : __builtin_ctzll(uint64_t(C)));
    auto X = of(*E.Ops[size_t(1 - U)], Depth + 1);
    if (!X || X->K != Dependence::Ring)
      return X;
    X->Val = std::min(64, X->Val + Extra);
    return X;
  }

  /// An operation that reads its operands modulo 2^W.
  std::optional<Dependence> readAtWidth(const Expr &E, int Depth) {
    if (E.Width <= 0 || E.Width > 64)
      return std::nullopt;
    Dependence R{Dependence::Periodic, 0, 0};
    for (const ExprPtr &Op : E.Ops) {
      auto X = of(*Op, Depth + 1);
      if (!X)
        return std::nullopt;
      int Bits = X->K == Dependence::Ring ? std::max(E.Width - X->Val, 0) : 0;
      R.Per = std::max({R.Per, X->Per, Bits});
    }
    return R;
  }

  std::optional<Dependence> ofPeriodicOperands(const Expr &E, int Depth) {
    Dependence R{Dependence::Periodic, 0, 0};
    for (const ExprPtr &Op : E.Ops) {
      auto X = of(*Op, Depth + 1);
      if (!X || X->K == Dependence::Ring)
        return std::nullopt; // a full 64-bit value of ctaid: no useful period
      R.Per = std::max(R.Per, X->Per);
    }
    return R;
  }

  int D;
  const EvalEnv &Env;
};

} // namespace

std::optional<int> blockPeriodLog2(int D, const std::vector<ExprPtr> &Factors,
                                   const EvalEnv &Env) {
  PeriodReader Reader(D, Env);
  int Per = 0;
  for (const ExprPtr &F : Factors) {
    auto X = Reader.of(*F);
    if (!X || X->K == Dependence::Ring)
      return std::nullopt;
    Per = std::max(Per, X->Per);
  }
  return Per;
}

} // namespace hroof
