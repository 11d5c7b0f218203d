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
#include <optional>
#include <string>
#include <tuple>
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
  auto begin() const { return Iv.begin(); }
  auto end() const { return Iv.end(); }

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

/// The spans of warp requests grouped by the loop iterations they repeat
/// over. The copies of an unrolled loop body are separate accesses whose
/// spans leave gaps one step wide that the other copies fill: spans of one
/// group are merged before the loops expand them, so such a loop still adds
/// one interval per lane rather than one per iteration.
class SpanFamilies {
public:
  /// Adds \p Spans repeated as addLoopSpans describes; false when the budget
  /// (one unit per span kept) runs out.
  bool add(const std::vector<int64_t> &Steps, const std::vector<int64_t> &Trips, int64_t From,
           int64_t To, const std::vector<Span> &Spans, uint64_t &Budget);
  /// Adds every group of \p Other with its spans moved by \p Shift bytes.
  bool addShifted(const SpanFamilies &Other, int64_t Shift, uint64_t &Budget);
  /// Adds the union of every group to \p Out; false when the budget runs out.
  bool expandInto(IntervalSet &Out, uint64_t &Budget) const;
  bool empty() const { return Groups.empty(); }
  /// Merges the spans within each group (what expansion would do first), so
  /// that moving the groups of a block costs its merged spans only.
  void compact();

private:
  struct Loops {
    std::vector<int64_t> Steps, Trips; ///< Trips[0] unused: From and To instead
    int64_t From = 0, To = 1;
    bool operator<(const Loops &O) const {
      return std::tie(Steps, Trips, From, To) < std::tie(O.Steps, O.Trips, O.From, O.To);
    }
  };
  std::map<Loops, std::vector<Span>> Groups;
};

/// Footprint of one launch, per access direction (MemDir: load, store,
/// atomic). An atomic reads and writes its bytes: bytes() counts it in both.
struct FootprintSets {
  /// Per memory object ("p3": pointer parameter 3 at unknown address;
  /// "abs": given pointer values; "o:name": a global variable).
  std::map<std::string, SpanFamilies> Certain[3], Possible[3];
  /// Bytes of requests with no address: they may add this much at most.
  u128 Unplaced[3] = {0, 0, 0};
  /// The widest such request that surely ran: at least that many distinct
  /// bytes (an atomicAdd at an address on data touches its 4 B).
  u128 UnplacedLeast[3] = {0, 0, 0};
  uint64_t Budget = uint64_t(1) << 24;
  /// Set when the budget ran out: the footprint is then not given.
  std::string Problem;
  /// [lo, hi] of the bytes read (\p Written false: loads and atomics) or
  /// written (stores and atomics); nullopt (and Problem set) when expanding
  /// the spans runs out of budget.
  std::optional<std::pair<u128, u128>> bytes(bool Written);
  /// Whether any access of that direction (or an atomic) was seen.
  bool touched(bool Written) const;
};

} // namespace hroof

#endif // HROOF_COMMON_FOOTPRINT_H
