//===- Footprint.h - the distinct global bytes a launch touches ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A launch must bring every distinct byte it reads from DRAM at least once and
// write back every distinct byte it writes: its footprint is the compulsory
// HBM traffic, the HBM level of the hierarchical roofline (docs/counting-model.md,
// "Footprint"). The warp-level model (WarpModel.cpp) hands each warp request's
// byte spans here, with the loop steps the address runs through; this file
// keeps their exact union per memory object and direction, as sets of
// disjoint intervals, so that a streaming launch of 2^25 elements stays one
// interval. Spans of requests the model can only bound go to a second,
// "possible" set, and requests without an address to an additive upper bound,
// so the footprint is always given as [lo, hi], with lo == hi when exact.
//===----------------------------------------------------------------------===//
#ifndef HROOF_COMMON_FOOTPRINT_H
#define HROOF_COMMON_FOOTPRINT_H

#include "hroof/ThreadSum.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace hroof {

/// A union of disjoint half-open byte intervals.
class IntervalSet {
public:
  void add(int64_t Lo, int64_t Hi);
  /// Adds every interval of \p Other shifted by \p Shift.
  void addShifted(const IntervalSet &Other, int64_t Shift);
  u128 bytes() const;
  size_t intervals() const { return Iv.size(); }
  bool empty() const { return Iv.empty(); }

private:
  std::map<int64_t, int64_t> Iv; ///< start -> end, disjoint and not adjacent
};

using Span = std::pair<int64_t, int64_t>; ///< [first byte, end)

/// Sorted, merged copy of \p Spans.
std::vector<Span> mergeSpans(std::vector<Span> Spans);

/// The spans of one warp request repeated over its loops: the innermost loop
/// runs iterations [From, To) with step Steps[0], each outer loop j iterations
/// [0, Trips[j]) with step Steps[j]. Adds their union to \p Out, spending one
/// unit of \p Budget per interval added; returns false when the budget runs out.
bool addLoopSpans(IntervalSet &Out, const std::vector<Span> &Spans,
                  const std::vector<int64_t> &Steps, const std::vector<int64_t> &Trips,
                  int64_t From, int64_t To, uint64_t &Budget);

/// Footprint of one launch, per access direction (MemDir: load, store,
/// atomic). An atomic reads and writes its bytes: bytes() counts it in both.
struct FootprintSets {
  /// Per memory object ("p3": pointer parameter 3 at unknown address;
  /// "abs": given pointer values; "o:name": a global variable).
  std::map<std::string, IntervalSet> Certain[3], Possible[3];
  /// Bytes of requests with no address: they may add this much at most.
  u128 Unplaced[3] = {0, 0, 0};
  uint64_t Budget = uint64_t(1) << 24;
  /// Set when the budget ran out: the footprint is then not given.
  std::string Problem;
  /// [lo, hi] of the bytes read (\p Written false: loads and atomics) or
  /// written (stores and atomics).
  std::pair<u128, u128> bytes(bool Written) const;
  bool touched(bool Written) const;
};

} // namespace hroof

#endif // HROOF_COMMON_FOOTPRINT_H
