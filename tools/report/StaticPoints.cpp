//===- StaticPoints.cpp - the static model's place on the chart -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "StaticPoints.h"

#include <algorithm>

namespace hroof {
namespace report {

namespace {

/// Per launch: the sum of \p Keys in \p S times \p Unit; 0 when absent.
double perLaunch(const SourceCounts &S, std::initializer_list<const char *> Keys, double Unit) {
  if (!S.present())
    return 0;
  double Sum = 0;
  for (const char *Key : Keys)
    Sum += get(S.Counts, Key);
  return Sum * Unit / double(S.Launches);
}

} // namespace

std::optional<KernelAnalysis> staticPlacement(const KernelAnalysis &A, std::string &Note) {
  const KernelData &K = *A.K;
  if (A.GFlops <= 0 || !K.Static.present())
    return std::nullopt;
  double Flops = (sumPrefix(K.Static.Counts, "flops.") + sumPrefix(K.Static.Counts, "tensor_flops.")) /
                 double(K.Static.Launches);
  if (Flops <= 0)
    return std::nullopt;
  KernelAnalysis S;
  S.K = A.K;
  S.Id = A.Id;
  S.GFlops = A.GFlops;
  S.FlopsPerLaunch = Flops;
  S.TimeShare = A.TimeShare;
  S.FlopSource = S.BytesSource = "static";
  auto Add = [&](const char *Level, const char *Ceiling, double Bytes) {
    if (Bytes > 0)
      S.Levels.push_back({Level, Ceiling, Bytes, Flops / Bytes});
  };
  Add("L1", "l1", perLaunch(K.StaticWarp, {"sectors.global.load", "sectors.global.store"}, 32));
  Add("HBM", "hbm",
      perLaunch(K.StaticWarp, {"footprint.global.load", "footprint.global.store"}, 1));
  Add("global (requested)", "hbm",
      perLaunch(K.Static, {"bytes.global.load", "bytes.global.store", "bytes.global.atomic"}, 1));
  // Only the levels the measurement has: a point is drawn beside its pair.
  S.Levels.erase(std::remove_if(S.Levels.begin(), S.Levels.end(),
                                [&](const LevelPoint &L) {
                                  return std::none_of(A.Levels.begin(), A.Levels.end(),
                                                      [&](const LevelPoint &M) {
                                                        return M.Level == L.Level && M.AI > 0;
                                                      });
                                }),
                 S.Levels.end());
  if (S.Levels.empty())
    return std::nullopt;
  Note.clear();
  if (!K.StaticExact || !K.StaticWarpExact)
    Note = A.Id + " " + compactName(K.Name) +
           ": the static model is not exact; its hollow points use the lower bounds of its "
           "bytes (an upper bound on AI)";
  return S;
}

} // namespace report
} // namespace hroof
