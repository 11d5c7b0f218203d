//===- CounterLoans.h - counters carried by launches of equal work --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// With a per-shape limit (HROOF_COUNTERS_PER_SHAPE) a launch past the limit
// is not profiled, but another launch of its work key (launches/WorkKey.h:
// same kernel, grid, block, shared memory and by-value parameter bytes) was.
// Its record then carries that launch's counters ("counters_from": the
// lender's correlation id), so a range's totals never mix the counts of other
// work into it. The borrower's own duration (its activity record) is checked
// against the lender's: a ratio outside [1/DurationTolerance,
// DurationTolerance] marks the counters "counters_estimated" with the reason.
// Records are written in any order: a borrower whose lender is not written
// yet waits here (drain() at exit writes what is left, without counters).
// CPU-only: unit-tested in test/unit/runtime/CounterLoansTest.cpp.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_REPLAY_COUNTERLOANS_H
#define HROOF_RUNTIME_REPLAY_COUNTERLOANS_H

#include "profile/Profile.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace hroof {
namespace rt {

class CounterLoans {
public:
  /// A borrower's duration may differ from its lender's by this factor.
  static constexpr double DurationTolerance = 1.5;
  /// Lenders remembered at most (then the oldest are forgotten).
  static constexpr size_t LenderLimit = 8192;

  /// A record about to be written: a lender (counters and a work key) is
  /// remembered and releases its waiting borrowers; a borrower
  /// (CountersFrom set) gets its lender's counters or waits. Returns the
  /// records to write now, \p R first unless it waits.
  std::vector<LaunchRecord> settle(LaunchRecord &&R);
  /// At exit: the borrowers still waiting, with why they have no counters.
  std::vector<LaunchRecord> drain();
  /// Whether records may lend (a per-shape limit, set once at start):
  /// otherwise no record is kept for lending.
  bool Lending = true;

private:
  struct Lender {
    nlohmann::json Hw;
    uint64_t DurationNs = 0;
    bool Timed = false;
  };
  void lend(const Lender &L, LaunchRecord &R) const;
  std::mutex M;
  std::unordered_map<uint32_t, Lender> ByCorrelation;
  std::deque<uint32_t> Order; ///< lenders by arrival (LenderLimit)
  std::unordered_map<uint32_t, std::vector<LaunchRecord>> Waiting; ///< by lender
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_REPLAY_COUNTERLOANS_H
