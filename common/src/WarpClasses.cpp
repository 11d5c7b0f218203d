//===- WarpClasses.cpp - a launch's blocks grouped by what they cost ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "WarpClasses.h"
#include "ExprInterval.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace hroof {

namespace {

/// Blocks of one grid dimension that share the values of that dimension's
/// factors: a uniform group (runs of indices), or one edge block.
struct DimGroup {
  bool Edge = false;
  int64_t Index = 0; ///< the edge block's index
  std::vector<int64_t> Values;
  std::vector<std::pair<int64_t, int64_t>> Runs;
  Histogram Shifts{}; ///< the blocks by Coef * index modulo 128
};

/// Adds the residues of K * c modulo 128 for c in [First, Last] to \p H:
/// they repeat with period 128 / gcd(K, 128).
void addRunShifts(Histogram &H, i128 K, int64_t First, int64_t Last) {
  int64_t KR = int64_t(((K % Period) + Period) % Period);
  int64_t Cycle = Period / std::gcd(KR == 0 ? Period : KR, Period);
  u128 N = u128(Last - First) + 1;
  for (int64_t J = 0; J < Cycle && u128(J) < N; ++J) {
    int64_t C = (First + J) % Cycle;
    H[size_t(residue(KR * C))] += N / u128(Cycle) + (u128(J) < N % u128(Cycle) ? 1 : 0);
  }
}

/// Splits dimension D's block indices into runs where its factors have one
/// value for every thread, and edge blocks.
class DimPlanner {
public:
  DimPlanner(int D, const std::vector<const Expr *> &Factors, const LaunchShape &L,
             const EvalEnv &Env, uint64_t MaxWork, uint64_t &Work)
      : D(D), Factors(Factors), L(L), Env(Env), MaxWork(MaxWork), Work(Work) {
    for (int I = 0; I < 3; ++I) {
      Box.TidHi[size_t(I)] = L.Block[size_t(I)] - 1;
      Box.CtaHi[size_t(I)] = L.Grid[size_t(I)] - 1;
    }
  }

  /// The groups, or nullopt past the work allowed. \p EveryBlock: the
  /// address is not affine in this dimension, each block is its own group.
  std::optional<std::vector<DimGroup>> plan(i128 Coef, bool EveryBlock) {
    if (EveryBlock) {
      Work += uint64_t(L.Grid[size_t(D)]);
      if (Work > MaxWork)
        return std::nullopt;
      for (int64_t C = 0; C < L.Grid[size_t(D)]; ++C)
        Runs.push_back({C, C, true, {}});
    } else if (!split(0, L.Grid[size_t(D)] - 1)) {
      return std::nullopt;
    }
    std::vector<DimGroup> Groups;
    std::map<std::vector<int64_t>, size_t> ByValues;
    for (const Run &R : Runs) {
      if (R.Edge) {
        DimGroup G;
        G.Edge = true;
        G.Index = R.First;
        G.Shifts[0] = 1; // evaluated at its own index
        Groups.push_back(std::move(G));
        continue;
      }
      auto [It, New] = ByValues.try_emplace(R.Values, Groups.size());
      if (New) {
        Groups.emplace_back();
        Groups.back().Values = R.Values;
      }
      DimGroup &G = Groups[It->second];
      G.Runs.push_back({R.First, R.Last});
      // Shifts from the group's first block, the one evaluated.
      addRunShifts(G.Shifts, Coef, R.First - G.Runs[0].first, R.Last - G.Runs[0].first);
    }
    return Groups;
  }

private:
  struct Run {
    int64_t First, Last;
    bool Edge;
    std::vector<int64_t> Values;
  };

  /// Walks [First, Last] in order: one run where every factor is one value
  /// over it, else its halves, down to single (edge) blocks.
  bool split(int64_t First, int64_t Last) {
    Box.CtaLo[size_t(D)] = First;
    Box.CtaHi[size_t(D)] = Last;
    std::vector<int64_t> Values;
    for (const Expr *F : Factors) {
      if (++Work > MaxWork)
        return false;
      auto R = intervalOf(*F, Box, Env);
      if (!R || R->Lo != R->Hi)
        break;
      Values.push_back(int64_t(R->Lo));
    }
    if (Values.size() == Factors.size()) {
      if (!Runs.empty() && !Runs.back().Edge && Runs.back().Values == Values &&
          Runs.back().Last + 1 == First)
        Runs.back().Last = Last;
      else
        Runs.push_back({First, Last, false, std::move(Values)});
      return true;
    }
    if (First == Last) {
      Runs.push_back({First, Last, true, {}});
      return true;
    }
    int64_t Mid = First + (Last - First) / 2;
    return split(First, Mid) && split(Mid + 1, Last);
  }

  int D;
  const std::vector<const Expr *> &Factors;
  const LaunchShape &L;
  const EvalEnv &Env;
  uint64_t MaxWork;
  uint64_t &Work;
  IndexBox Box;
  std::vector<Run> Runs;
};

Histogram convolve(const Histogram &A, const Histogram &B) {
  Histogram C{};
  for (int64_t I = 0; I < Period; ++I)
    if (A[size_t(I)])
      for (int64_t J = 0; J < Period; ++J)
        if (B[size_t(J)])
          C[size_t((I + J) % Period)] += A[size_t(I)] * B[size_t(J)];
  return C;
}

} // namespace

u128 BlockClass::blocks() const {
  u128 N = 0;
  for (u128 X : Shifts)
    N += X;
  return N;
}

namespace {

/// Whether \p Offset is affine over every block of \p C: for all its
/// threads at once, else thread by thread (a box of one tid each).
bool affineOverClass(const Expr &Offset, const BlockClass &C, const LaunchShape &L,
                     const EvalEnv &Env, unsigned Opaque, uint64_t MaxWork, uint64_t &Work) {
  IndexBox Box;
  for (size_t D = 0; D < 3; ++D) {
    Box.TidHi[D] = L.Block[D] - 1;
    Box.CtaLo[D] = Box.CtaHi[D] = C.CtaId[D];
    for (auto [First, Last] : C.Runs[D]) {
      Box.CtaLo[D] = std::min(Box.CtaLo[D], First);
      Box.CtaHi[D] = std::max(Box.CtaHi[D], Last);
    }
  }
  if (++Work > MaxWork)
    return false;
  if (affineFormOver(Offset, Box, Env, Opaque))
    return true;
  for (int64_t Z = 0; Z < L.Block[2]; ++Z)
    for (int64_t Y = 0; Y < L.Block[1]; ++Y)
      for (int64_t X = 0; X < L.Block[0]; ++X) {
        Box.TidLo = Box.TidHi = {X, Y, Z};
        if (++Work > MaxWork || !affineFormOver(Offset, Box, Env, Opaque))
          return false;
      }
  return true;
}

} // namespace

std::optional<BlockClasses> planBlockClasses(const std::vector<const Expr *> &Factors,
                                             const Expr *Offset, const LaunchShape &L,
                                             const EvalEnv &Env, uint64_t MaxWork,
                                             uint64_t &Work) {
  std::array<std::vector<const Expr *>, 3> PerDim;
  for (const Expr *F : Factors) {
    unsigned Cta = (F->threadVarMask() >> 3) & 7;
    if (!Cta)
      continue;
    if (Cta & (Cta - 1))
      return std::nullopt; // reads two grid dimensions
    PerDim[size_t(__builtin_ctz(Cta))].push_back(F);
  }
  EvalEnv E = Env;
  E.NTid = L.Block;
  E.NCtaId = L.Grid;
  BlockClasses Out;
  bool Moves = Offset && (Offset->threadVarMask() & 0x38);
  // Grid dimensions that the address reads other than affinely (a
  // blockIdx.z % G): every block of those is its own group.
  unsigned Opaque = 0;
  if (Moves) {
    // The coefficients, from one thread (the same in every box); the fewest
    // opaque dimensions that make the rest affine.
    unsigned Reads = (Offset->threadVarMask() >> 3) & 7;
    std::optional<AffineForm> F;
    for (unsigned Mask : {0u, 1u, 2u, 4u, 3u, 5u, 6u, 7u})
      if ((Mask & Reads) == Mask && (F = affineFormOver(*Offset, IndexBox{}, E, Mask))) {
        Opaque = Mask;
        break;
      }
    if (!F)
      return std::nullopt;
    Out.Off = *F;
  }
  std::array<std::vector<DimGroup>, 3> Groups;
  for (int D = 0; D < 3; ++D) {
    auto G = DimPlanner(D, PerDim[size_t(D)], L, E, MaxWork, Work)
                 .plan(Out.Off.Coef[size_t(3 + D)], Opaque >> D & 1);
    if (!G)
      return std::nullopt;
    Groups[size_t(D)] = std::move(*G);
  }
  for (const DimGroup &X : Groups[0])
    for (const DimGroup &Y : Groups[1])
      for (const DimGroup &Z : Groups[2]) {
        if (++Work > MaxWork)
          return std::nullopt;
        BlockClass C;
        const DimGroup *G[3] = {&X, &Y, &Z};
        C.Shifts = convolve(convolve(X.Shifts, Y.Shifts), Z.Shifts);
        for (size_t D = 0; D < 3; ++D) {
          C.CtaId[D] = G[D]->Edge ? G[D]->Index : G[D]->Runs[0].first;
          C.Runs[D] = G[D]->Runs;
          for (size_t I = 0; I < G[D]->Values.size(); ++I)
            C.Fixed.push_back({PerDim[D][I], G[D]->Values[I]});
        }
        if (Moves && C.blocks() > 1)
          C.Irregular = !affineOverClass(*Offset, C, L, E, Opaque, MaxWork, Work);
        if (Work > MaxWork)
          return std::nullopt;
        Out.Classes.push_back(std::move(C));
      }
  return Out;
}

void forEachBlock(const BlockClass &C, const AffineForm &Off,
                  const std::function<bool(const std::array<int64_t, 3> &, int64_t)> &F) {
  // An edge dimension is its one block, at shift 0.
  std::array<std::vector<std::pair<int64_t, int64_t>>, 3> Runs = C.Runs;
  for (size_t D = 0; D < 3; ++D)
    if (Runs[D].empty())
      Runs[D].push_back({C.CtaId[D], C.CtaId[D]});
  auto Part = [&](size_t D, int64_t I) { return Off.Coef[3 + D] * (I - C.CtaId[D]); };
  for (auto [Z0, Z1] : Runs[2])
    for (int64_t Z = Z0; Z <= Z1; ++Z)
      for (auto [Y0, Y1] : Runs[1])
        for (int64_t Y = Y0; Y <= Y1; ++Y)
          for (auto [X0, X1] : Runs[0])
            for (int64_t X = X0; X <= X1; ++X)
              if (!F({X, Y, Z}, int64_t(Part(0, X) + Part(1, Y) + Part(2, Z))))
                return;
}

} // namespace hroof
