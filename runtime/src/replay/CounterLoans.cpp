//===- CounterLoans.cpp - counters carried by launches of equal work ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===----------------------------------------------------------------------===//
#include "replay/CounterLoans.h"

#include <cstdio>

namespace hroof {
namespace rt {

void CounterLoans::lend(const Lender &L, LaunchRecord &R) const {
  R.Hw = L.Hw;
  if (!R.Timed || !L.Timed || !L.DurationNs || !R.DurationNs)
    return;
  double Ratio = double(R.DurationNs) / double(L.DurationNs);
  if (Ratio <= DurationTolerance && Ratio >= 1.0 / DurationTolerance)
    return;
  char Buf[200];
  std::snprintf(Buf, sizeof Buf,
                "its duration is %.2fx that of launch %u, whose counters it carries (same work "
                "key; tolerance %.2fx)",
                Ratio, R.CountersFrom, DurationTolerance);
  R.CountersEstimated = Buf;
}

std::vector<LaunchRecord> CounterLoans::settle(LaunchRecord &&R) {
  std::vector<LaunchRecord> Out;
  // Most records neither lend nor borrow: no lock for them.
  bool Lends = Lending && !R.WorkKey.empty() && R.Hw && R.HwIncomplete.empty();
  if (!R.CountersFrom && !Lends) {
    Out.push_back(std::move(R));
    return Out;
  }
  std::lock_guard<std::mutex> G(M);
  if (R.CountersFrom) {
    auto It = ByCorrelation.find(R.CountersFrom);
    if (It == ByCorrelation.end()) {
      Waiting[R.CountersFrom].push_back(std::move(R));
      return Out;
    }
    lend(It->second, R);
    Out.push_back(std::move(R));
    return Out;
  }
  Lender L{*R.Hw, R.DurationNs, R.Timed};
  uint32_t Corr = R.Correlation;
  Out.push_back(std::move(R));
  auto W = Waiting.find(Corr);
  if (W != Waiting.end()) {
    for (LaunchRecord &B : W->second) {
      lend(L, B);
      Out.push_back(std::move(B));
    }
    Waiting.erase(W);
  }
  if (Order.size() >= LenderLimit) {
    ByCorrelation.erase(Order.front());
    Order.pop_front();
  }
  ByCorrelation.emplace(Corr, std::move(L));
  Order.push_back(Corr);
  return Out;
}

std::vector<LaunchRecord> CounterLoans::drain() {
  std::vector<LaunchRecord> Out;
  std::lock_guard<std::mutex> G(M);
  for (auto &[Corr, Rs] : Waiting)
    for (LaunchRecord &R : Rs) {
      R.HwTried = true;
      R.HwProblem = "launch " + std::to_string(Corr) +
                    ", of the same work key, was to lend its counters but wrote none";
      Out.push_back(std::move(R));
    }
  Waiting.clear();
  return Out;
}

} // namespace rt
} // namespace hroof
