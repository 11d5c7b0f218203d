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
  int64_t First = From * S0, Last = (To - 1) * S0;
  std::vector<int64_t> K(N, 0);
  while (true) {
    int64_t Base = 0;
    for (size_t J = 1; J < N; ++J)
      Base += K[J] * Steps[J];
    for (const Span &S : Spans) {
      // A span at least one step long covers the whole innermost loop as
      // one interval (a row read along a loop, a lane's element in a loop
      // over columns); shorter ones leave gaps: one interval per iteration.
      bool Contiguous = S.second - S.first >= std::llabs(S0);
      for (int64_t I = From; I < (Contiguous ? From + 1 : To); ++I) {
        if (Budget == 0)
          return false;
        --Budget;
        if (Contiguous)
          Out.add(S.first + Base + std::min(First, Last), S.second + Base + std::max(First, Last));
        else
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

bool SpanFamilies::add(const std::vector<int64_t> &Steps, const std::vector<int64_t> &Trips,
                       int64_t From, int64_t To, const std::vector<Span> &Spans, uint64_t &Budget) {
  if (Spans.size() > Budget)
    return false;
  Budget -= Spans.size();
  Loops L{Steps, Trips, Steps.empty() ? 0 : From, Steps.empty() ? 1 : To};
  if (!L.Trips.empty())
    L.Trips[0] = 0; // the innermost loop's range is From..To
  std::vector<Span> &G = Groups[L];
  G.insert(G.end(), Spans.begin(), Spans.end());
  return true;
}

bool SpanFamilies::addShifted(const SpanFamilies &Other, int64_t Shift, uint64_t &Budget) {
  for (const auto &[L, Spans] : Other.Groups) {
    if (Spans.size() > Budget)
      return false;
    Budget -= Spans.size();
    std::vector<Span> &G = Groups[L];
    for (const Span &S : Spans)
      G.push_back({S.first + Shift, S.second + Shift});
  }
  return true;
}

void SpanFamilies::compact() {
  for (auto &KV : Groups)
    KV.second = mergeSpans(std::move(KV.second));
}

bool SpanFamilies::expandInto(IntervalSet &Out, uint64_t &Budget) const {
  for (const auto &[L, Spans] : Groups)
    if (!addLoopSpans(Out, mergeSpans(Spans), L.Steps, L.Trips, L.From, L.To, Budget))
      return false;
  return true;
}

namespace {
/// Per object, the union of direction \p Dir's families and the atomics'.
std::optional<u128> unionBytes(const std::map<std::string, SpanFamilies> &Dir,
                               const std::map<std::string, SpanFamilies> &Atomic,
                               uint64_t &Budget) {
  std::map<std::string, IntervalSet> U;
  for (const auto *Families : {&Dir, &Atomic})
    for (const auto &[Object, F] : *Families)
      if (!F.expandInto(U[Object], Budget))
        return std::nullopt;
  u128 N = 0;
  for (const auto &KV : U)
    N += KV.second.bytes();
  return N;
}
} // namespace

std::optional<std::pair<u128, u128>> FootprintSets::bytes(bool Written) {
  constexpr int Atomic = 2;
  int D = Written ? 1 : 0;
  auto Lo = unionBytes(Certain[D], Certain[Atomic], Budget);
  auto Hi = unionBytes(Possible[D], Possible[Atomic], Budget);
  if (!Lo || !Hi) {
    Problem = "the footprint needs more intervals than allowed for this launch";
    return std::nullopt;
  }
  *Hi += Unplaced[D] + Unplaced[Atomic];
  *Lo = std::max({*Lo, UnplacedLeast[D], UnplacedLeast[Atomic]});
  return std::make_pair(*Lo, std::max(*Lo, *Hi));
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
