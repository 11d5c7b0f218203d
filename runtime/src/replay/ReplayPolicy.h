//===- ReplayPolicy.h - when to re-create the range profiler object -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A CUPTI range profiler object replays every range with the pass count of
// the first config it ran and collects that config's counters only
// (docs/runtime.md "Replay passes"; listFitsObject below): a launch whose
// list is not within the first one's, or that needs more passes, needs a
// fresh object; one within it that needs fewer can run on the old object,
// paying for passes it does not need.
// A fresh object is not free either: its first Start costs as much as
// several replay passes (measured: docs/validation/deep-learning.md,
// "re-creating the range-profiler object";
// raw/2026-11-22.tar.xz:counters-2026-11-22-range-cost-type-cache/). This
// is the ski-rental choice between the two, with both prices measured in
// this process:
//   - the price of one unneeded pass: the slope of launch-with-replay time
//     over pass count (least squares over the pass counts seen), or, with one
//     pass count seen, its mean time per pass;
//   - the price of a fresh object: the mean of the re-creations seen (Disable
//     + Enable + the next Start), seeded with the context's first Start.
// Ranges that need fewer passes add their unneeded passes' price to a waste
// sum; once it reaches the price of a fresh object, the object is re-created
// with the smaller pass count. A range that needs exactly the object's
// passes resets the sum (the object is the right one again). At most twice
// the cost of the best choice made with hindsight.
//
// Header-only, no CUDA: unit-tested in test/unit/runtime/HwMetricsTest.cpp.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_REPLAYPOLICY_H
#define HROOF_RUNTIME_REPLAYPOLICY_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

/// Whether a range of the metric list \p Need may run on a range profiler
/// object whose first config had the list \p First (both sorted): within
/// it. An object collects the counters of the first config it ran, whatever
/// later SetConfig calls pass: lists within the first one evaluate right (at
/// the first one's pass count), lists with more passes do not evaluate, and
/// in application replay every group after the object's first came back NaN
/// (its groups are disjoint lists of one pass each; measured:
/// docs/validation/deep-learning.md, "learned tensor types, complete ncu
/// runs" and "the cost of --range with --counters-per-shape 1"). A list
/// outside the first needs a fresh object whatever its pass count.
inline bool listFitsObject(const std::vector<std::string> &First,
                           const std::vector<std::string> &Need) {
  return std::includes(First.begin(), First.end(), Need.begin(), Need.end());
}

class ReplayPolicy {
public:
  /// Whether a range that needs \p Need passes gets a fresh object when the
  /// current one runs \p Obj (0: none yet, the caller creates one anyway).
  bool recreate(size_t Obj, size_t Need) const {
    if (!Obj || Need == Obj)
      return false;
    if (Need > Obj)
      return true;
    return WasteNs + double(Obj - Need) * passNs() >= recreateNs();
  }
  /// A range ran on an object of \p Obj passes; it needed \p Need; its launch
  /// with replay took \p LaunchNs.
  void ranged(size_t Obj, size_t Need, uint64_t LaunchNs) {
    Stat &S = ByPasses[Obj];
    S.Sum += double(LaunchNs);
    ++S.N;
    if (Need < Obj)
      WasteNs += double(Obj - Need) * passNs();
    else
      WasteNs = 0;
  }
  /// A fresh object cost \p Ns (Disable + Enable + first Start).
  void recreated(uint64_t Ns) {
    RecreateSum += double(Ns);
    ++Recreates;
    WasteNs = 0;
  }
  /// The context's first object's first Start: the price until a re-creation
  /// is measured.
  void seed(uint64_t FirstStartNs) { SeedNs = double(FirstStartNs); }

  double recreateNs() const { return Recreates ? RecreateSum / Recreates : SeedNs; }
  /// Price of one replay pass (ns); 0 before any range.
  double passNs() const {
    double SX = 0, SY = 0, SXX = 0, SXY = 0, N = 0;
    for (const auto &[P, S] : ByPasses) {
      double X = double(P), Y = S.Sum / S.N;
      SX += X;
      SY += Y;
      SXX += X * X;
      SXY += X * Y;
      ++N;
    }
    if (N == 0)
      return 0;
    double MeanPerPass = SY / SX; // mean time per pass over the counts seen
    if (N < 2)
      return MeanPerPass;
    double Slope = (N * SXY - SX * SY) / (N * SXX - SX * SX);
    return Slope < 0 ? 0 : Slope > MeanPerPass ? MeanPerPass : Slope;
  }

private:
  struct Stat {
    double Sum = 0;
    uint64_t N = 0;
  };
  std::map<size_t, Stat> ByPasses;
  double WasteNs = 0, RecreateSum = 0, SeedNs = 0;
  uint64_t Recreates = 0;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_REPLAYPOLICY_H
