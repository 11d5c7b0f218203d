//===- AppGroupsCupti.cpp - application-replay groups with CUPTI's pass counts ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one-pass groups that HROOF_REPLAY=application plans for the roofline
// set (no tensor type, each single type, every type), with CUPTI's own pass
// counts from the host API and only the chip name (default GH100; no GPU,
// as test/gpu/runtime/hw/cupti_passes.cpp). Checks that every group needs
// exactly one pass, that the groups cover the list, and prints them with
// the planning time. A metric that alone needs several passes (GH100: the
// fp16 and int8 tensor types) may be a group of its own. Exit 77 (skipped) when CUPTI's host side cannot
// initialize for the chip.
//===----------------------------------------------------------------------===//
#include "replay/ApplicationReplay.h"
#include "metrics/HwMetrics.h"
#include "cupti/RangeProfiler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

using namespace hroof::rt;

namespace {

const char *Chip = "GH100";

/// CUPTI's pass count of \p Ms through the runtime's own hostPassCount (0: an
/// error; \p InitFailed when the host side cannot initialize for the chip).
size_t cuptiPasses(const std::vector<std::string> &Ms, bool &InitFailed) {
  std::vector<uint8_t> NoAvailability; // chip name only: no GPU
  size_t Passes = 0;
  std::string E = hostPassCount(Chip, NoAvailability, Ms, Passes);
  if (E.find("cuptiProfilerHostInitialize") != std::string::npos)
    InitFailed = true;
  return E.empty() ? Passes : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1)
    Chip = argv[1];
  bool InitFailed = false;
  const std::vector<std::string> &All = rooflineMetrics();
  size_t Whole = cuptiPasses(All, InitFailed);
  if (InitFailed) {
    std::printf("CUPTI host initialization failed for chip %s: skipped\n", Chip);
    return 77;
  }
  std::vector<std::pair<std::string, TensorTypes>> Lists = {{"no tensor type", {}}};
  for (const std::string &T : tensorTypeMetrics()) {
    TensorTypes One;
    One.Types.insert(T);
    Lists.push_back({T, One});
  }
  TensorTypes Every;
  Every.Types.insert(tensorTypeMetrics().begin(), tensorTypeMetrics().end());
  Lists.push_back({"every tensor type", Every});
  int Bad = 0;
  std::printf("chip %s: the roofline set needs %zu passes with kernel replay\n", Chip, Whole);
  for (auto &[Label, Types] : Lists) {
    std::vector<std::string> Ms = metricsForTypes(All, Types);
    size_t Calls = 0;
    auto T0 = std::chrono::steady_clock::now();
    GroupPlan P = planOnePassGroups(Ms, [&](const std::vector<std::string> &L) {
      ++Calls;
      return cuptiPasses(L, InitFailed);
    });
    double Ms0 =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
    std::printf("%s: %zu metrics, %zu passes (kernel replay) -> %zu groups "
                "(%zu pass counts, %.0f ms)\n",
                Label.c_str(), Ms.size(), cuptiPasses(Ms, InitFailed), P.Groups.size(), Calls,
                Ms0);
    std::set<std::string> Covered;
    for (size_t G = 0; G < P.Groups.size(); ++G) {
      size_t N = cuptiPasses(P.Groups[G], InitFailed);
      std::printf("  group %zu: %zu pass(es), %zu metrics:", G + 1, N, P.Groups[G].size());
      for (const std::string &M : P.Groups[G])
        std::printf(" %s", M.c_str());
      std::printf("\n");
      Covered.insert(P.Groups[G].begin(), P.Groups[G].end());
      // A metric that alone needs several passes (fp16 and int8 tensor
      // types on GH100) is a group of its own, with the signatures that add
      // no pass to it: CUPTI replays that one.
      bool Alone = std::find(P.MultiPass.begin(), P.MultiPass.end(), P.Groups[G][0]) !=
                   P.MultiPass.end();
      if (N != 1 && !(Alone && cuptiPasses({P.Groups[G][0]}, InitFailed) == N)) {
        std::printf("  FAIL: group %zu needs %zu passes\n", G + 1, N);
        ++Bad;
      }
    }
    if (Covered != std::set<std::string>(Ms.begin(), Ms.end())) {
      std::printf("  FAIL: the groups do not cover the list\n");
      ++Bad;
    }
    for (const std::string &M : P.MultiPass) {
      size_t N = cuptiPasses({M}, InitFailed);
      std::printf("  needs %zu passes alone: %s\n", N, M.c_str());
      if (N == 1) {
        std::printf("  FAIL: %s is one pass alone but was not grouped\n", M.c_str());
        ++Bad;
      }
    }
  }
  return Bad ? 1 : 0;
}
