//===- Footprint.cpp - the distinct global bytes a launch touches --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Footprint.h"

#include <algorithm>
#include <cstdlib>

namespace hroof {

void IntervalSet::add(int64_t Lo, int64_t Hi) {
  if (Hi <= Lo)
    return;
  auto It = Iv.upper_bound(Lo);
  if (It != Iv.begin()) {
    auto Prev = std::prev(It);
    if (Prev->second >= Lo) {
      if (Prev->second >= Hi)
        return; // already covered
      Lo = Prev->first;
      It = Prev;
    }
  }
  while (It != Iv.end() && It->first <= Hi) {
    Hi = std::max(Hi, It->second);
    It = Iv.erase(It);
  }
  Iv.emplace(Lo, Hi);
}

void IntervalSet::addShifted(const IntervalSet &Other, int64_t Shift) {
  for (const auto &[Lo, Hi] : Other.Iv)
    add(Lo + Shift, Hi + Shift);
}

u128 IntervalSet::bytes() const {
  u128 N = 0;
  for (const auto &[Lo, Hi] : Iv)
    N += u128(Hi - Lo);
  return N;
}

std::vector<Span> mergeSpans(std::vector<Span> Spans) {
  std::sort(Spans.begin(), Spans.end());
  std::vector<Span> Out;
  for (const Span &S : Spans) {
    if (!Out.empty() && S.first <= Out.back().second)
      Out.back().second = std::max(Out.back().second, S.second);
    else
      Out.push_back(S);
  }
  return Out;
}

bool addLoopSpans(IntervalSet &Out, const std::vector<Span> &Spans,
                  const std::vector<int64_t> &Steps, const std::vector<int64_t> &Trips,
                  int64_t From, int64_t To, uint64_t &Budget) {
  if (Spans.empty())
    return true;
  size_t N = Steps.size();
  if (N == 0) {
    From = 0;
    To = 1;
  }
  if (To <= From)
    return true;
  // Outer loops in which the address does not move add nothing new: one
  // iteration of each stands for all.
  std::vector<int64_t> Count(N, 1);
  for (size_t J = 1; J < N; ++J) {
    if (Trips[J] <= 0)
      return true;
    Count[J] = Steps[J] == 0 ? 1 : Trips[J];
  }
  int64_t S0 = N ? Steps[0] : 0;
  // One interval at least one step long covers the whole innermost loop.
  bool Contiguous = Spans.size() == 1 && Spans[0].second - Spans[0].first >= std::llabs(S0);
  std::vector<int64_t> K(N, 0);
  while (true) {
    int64_t Base = 0;
    for (size_t J = 1; J < N; ++J)
      Base += K[J] * Steps[J];
    if (Contiguous) {
      if (Budget == 0)
        return false;
      --Budget;
      int64_t A = From * S0, B = (To - 1) * S0;
      Out.add(Spans[0].first + Base + std::min(A, B), Spans[0].second + Base + std::max(A, B));
    } else {
      for (int64_t I = From; I < To; ++I)
        for (const Span &S : Spans) {
          if (Budget == 0)
            return false;
          --Budget;
          Out.add(S.first + Base + I * S0, S.second + Base + I * S0);
        }
    }
    size_t J = 1; // next combination of the outer loops' iterations
    while (J < N && ++K[J] == Count[J])
      K[J++] = 0;
    if (J >= N)
      return true;
  }
}

namespace {
/// The union, per object, of direction \p Dir's sets and the atomics'.
u128 unionBytes(const std::map<std::string, IntervalSet> &Dir,
                const std::map<std::string, IntervalSet> &Atomic) {
  std::map<std::string, IntervalSet> U = Dir;
  for (const auto &[Object, Set] : Atomic)
    U[Object].addShifted(Set, 0);
  u128 N = 0;
  for (const auto &KV : U)
    N += KV.second.bytes();
  return N;
}
} // namespace

std::pair<u128, u128> FootprintSets::bytes(bool Written) const {
  constexpr int Atomic = 2;
  int D = Written ? 1 : 0;
  u128 Lo = unionBytes(Certain[D], Certain[Atomic]);
  u128 Hi = unionBytes(Possible[D], Possible[Atomic]) + Unplaced[D] + Unplaced[Atomic];
  return {Lo, std::max(Lo, Hi)};
}

bool FootprintSets::touched(bool Written) const {
  for (int D : {Written ? 1 : 0, 2}) {
    if (Unplaced[D])
      return true;
    for (const auto &KV : Possible[D])
      if (!KV.second.empty())
        return true;
  }
  return false;
}

} // namespace hroof
