//===- WarpCost.cpp - what one warp request costs -------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "WarpCost.h"

#include <algorithm>
#include <numeric>

namespace hroof {

/// Cost of one request whose active lanes access [Rel[l], Rel[l] + Width)
/// (relative to the lowest address), the lowest address being \p Res modulo
/// 128. Shared memory is served in groups of lanes whose requests fit one
/// 128-byte pass (32 lanes of 4 bytes, 16 of 8, 8 of 16); in each group the
/// passes are the most distinct 4-byte words that fall into one bank.
RequestCost requestCost(const std::array<int64_t, WarpSize> &Rel, int64_t Width, int64_t Res) {
  RequestCost C;
  std::vector<std::pair<int64_t, int64_t>> Spans;
  std::vector<int64_t> Sectors;
  for (int64_t R : Rel)
    if (R != NoLane) {
      Spans.push_back({R + Res, R + Res + Width});
      for (int64_t S = (R + Res) / SectorBytes; S <= (R + Res + Width - 1) / SectorBytes; ++S)
        Sectors.push_back(S);
    }
  std::sort(Spans.begin(), Spans.end());
  int64_t End = INT64_MIN;
  for (auto [B, E] : Spans) {
    B = std::max(B, End);
    if (E > B)
      C.Bytes += uint64_t(E - B);
    End = std::max(End, E);
  }
  std::sort(Sectors.begin(), Sectors.end());
  C.Sectors = uint64_t(std::unique(Sectors.begin(), Sectors.end()) - Sectors.begin());
  int GroupLanes = Width >= 8 ? int(WarpSize / (Width / 4)) : WarpSize;
  for (int G = 0; G < WarpSize; G += std::max(GroupLanes, 1)) {
    std::vector<int64_t> Words;
    for (int L = G; L < std::min(G + GroupLanes, WarpSize); ++L)
      if (Rel[L] != NoLane)
        for (int64_t W = (Rel[L] + Res) / 4; W <= (Rel[L] + Res + Width - 1) / 4; ++W)
          Words.push_back(W);
    if (Words.empty())
      continue;
    std::sort(Words.begin(), Words.end());
    Words.erase(std::unique(Words.begin(), Words.end()), Words.end());
    std::array<uint64_t, 32> PerBank{};
    for (int64_t W : Words)
      ++PerBank[size_t(W % 32)];
    C.Wavefronts += *std::max_element(PerBank.begin(), PerBank.end());
  }
  return C;
}

/// How often each residue modulo 128 is added to the address over the
/// iteration space of the loops (steps and trip counts uniform in the warp),
/// starting at iteration \p First of the innermost loop.
Histogram iterationResidues(const std::vector<std::pair<int64_t, int64_t>> &StepTrips,
                            int64_t First) {
  Histogram H{};
  H[0] = 1;
  for (size_t J = 0; J < StepTrips.size(); ++J) {
    auto [Step, Trips] = StepTrips[J];
    int64_t From = J == 0 ? First : 0;
    Histogram One{};
    int64_t S = residue(Step);
    int64_t Cycle = Period / std::gcd(S == 0 ? Period : S, Period);
    int64_t N = std::max<int64_t>(Trips - From, 0);
    for (int64_t K = 0; K < std::min(N, Cycle); ++K)
      One[size_t(residue(S * ((From + K) % Cycle)))] += u128(N / Cycle) + (K < N % Cycle ? 1 : 0);
    Histogram Next{};
    for (int64_t A = 0; A < Period; ++A)
      if (H[size_t(A)])
        for (int64_t B = 0; B < Period; ++B)
          if (One[size_t(B)])
            Next[size_t((A + B) % Period)] += H[size_t(A)] * One[size_t(B)];
    H = Next;
  }
  return H;
}

} // namespace hroof
