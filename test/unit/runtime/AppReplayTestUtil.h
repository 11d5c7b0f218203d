//===- AppReplayTestUtil.h - shared helpers of the application-replay tests ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A fake CUPTI pass-count oracle, sample groups, values and records for
// ApplicationReplayTest.cpp and IdleTypesTest.cpp (no GPU, no CUPTI).
//===----------------------------------------------------------------------===//
#ifndef HROOF_TEST_APPREPLAYTESTUTIL_H
#define HROOF_TEST_APPREPLAYTESTUTIL_H

#include "replay/ApplicationReplay.h"
#include "metrics/HwMetrics.h"
#include "profile/Profile.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace hroof {
namespace rt {
namespace testutil {

/// A fake CUPTI pass count: SASS-patched metrics share passes of their own
/// (at most SassCap a pass), hardware metrics theirs (HwCap a pass), each
/// tensor type metric needs a pass alone, peaks need none, and "twopass.*"
/// needs two passes by itself.
struct FakeOracle {
  size_t SassCap = 6, HwCap = 5;
  mutable size_t Calls = 0;
  static std::string kind(const std::string &M) {
    if (M.rfind("twopass.", 0) == 0)
      return "two";
    if (M.find(".peak_sustained") != std::string::npos)
      return "";
    if (M.rfind("sm__ops_path_tensor_src", 0) == 0)
      return "tensor:" + M;
    if (M.rfind("sm__sass", 0) == 0)
      return "sass";
    return "hw";
  }
  size_t cap(const std::string &K) const {
    return K == "sass" ? SassCap : K == "hw" ? HwCap : 1;
  }
  size_t operator()(const std::vector<std::string> &Ms) const {
    ++Calls;
    std::map<std::string, size_t> N;
    for (const std::string &M : Ms)
      if (std::string K = kind(M); !K.empty())
        ++N[K];
    size_t P = 0;
    for (auto &[K, C] : N)
      P += K == "two" ? 2 * C : (C + cap(K) - 1) / cap(K);
    return std::max<size_t>(P, 1);
  }
};

inline std::vector<std::string> allMetrics(const GroupPlan &P) {
  std::vector<std::string> V;
  for (const auto &G : P.Groups)
    V.insert(V.end(), G.begin(), G.end());
  return V;
}

inline std::map<std::string, double> valuesOf(const std::vector<std::string> &G, double Bias) {
  std::map<std::string, double> V;
  double X = 1;
  for (const std::string &M : G)
    V[M] = (X += 7) + Bias;
  return V;
}

inline std::vector<std::vector<std::string>> sampleGroups() {
  FakeOracle O;
  return planOnePassGroups(rooflineMetrics(), std::cref(O)).Groups;
}

inline LaunchRecord recordOf(uint32_t Corr) {
  LaunchRecord R;
  R.Correlation = Corr;
  R.Mangled = R.Name = "k";
  R.HwTried = true;
  return R;
}

} // namespace testutil
} // namespace rt
} // namespace hroof

#endif // HROOF_TEST_APPREPLAYTESTUTIL_H
