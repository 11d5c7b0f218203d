//===- TimingTest.cpp - the profile's "timing" section (HROOF_TIMING_RANGE) ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "profile/Profile.h"
#include "profile/Timing.h"

#include <gtest/gtest.h>

#include <unistd.h>

using namespace hroof::rt;

namespace {

TimingLaunch launch(const char *Range, const char *Kernel, uint64_t Start, uint64_t Ns,
                    bool Replayed = false) {
  TimingLaunch L;
  L.Range = Range;
  L.Kernel = Kernel;
  L.Device = 0;
  L.StartNs = Start;
  L.DurationNs = Ns;
  L.Replayed = Replayed;
  return L;
}

const nlohmann::json *entry(const nlohmann::json &J, const std::string &Range,
                            const std::string &Kernel) {
  for (const auto &E : J["entries"])
    if (E["range"] == Range && E["kernel"] == Kernel)
      return &E;
  return nullptr;
}

} // namespace

TEST(Timing, SumsPerRangeKernelAndDevice) {
  TimingAggregate A;
  A.setFilter("^step [4-5]");
  A.add(launch("step 4/forward", "k", 100, 10));
  A.add(launch("step 4/forward", "k", 50, 20));
  A.add(launch("step 4/forward", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 200, 30));
  A.add(launch("step 5/forward", "k", 300, 40, true));
  nlohmann::json J = A.toJson();
  EXPECT_EQ(J["range_filter"], "^step [4-5]");
  EXPECT_EQ(J["dropped"], 0);
  ASSERT_EQ(J["entries"].size(), 3u);
  const nlohmann::json *K4 = entry(J, "step 4/forward", "k");
  ASSERT_TRUE(K4);
  EXPECT_EQ((*K4)["launches"], 2);
  EXPECT_EQ((*K4)["total_ns"], 30);
  EXPECT_EQ((*K4)["first_start_ns"], 50);  // the earlier launch, added second
  EXPECT_EQ((*K4)["last_end_ns"], 110);    // 100 + 10
  EXPECT_EQ((*K4)["replayed"], 0);
  EXPECT_EQ((*K4)["communication"], false);
  EXPECT_EQ((*entry(J, "step 4/forward", "ncclDevKernel_AllReduce_Sum_f32_RING_LL"))["communication"],
            true);
  EXPECT_EQ((*entry(J, "step 5/forward", "k"))["replayed"], 1);
}

TEST(Timing, EntriesPastTheLimitAreCountedAsDropped) {
  TimingAggregate A;
  for (size_t I = 0; I < TimingAggregate::EntryLimit + 3; ++I)
    A.add(launch(("step " + std::to_string(I)).c_str(), "k", 1, 1));
  nlohmann::json J = A.toJson();
  EXPECT_EQ(J["entries"].size(), TimingAggregate::EntryLimit);
  EXPECT_EQ(J["dropped"], 3);
}

TEST(Timing, InTheProfileTrailerOnlyWhenUsed) {
  Profile P(10, 0);
  EXPECT_FALSE(P.trailerJson().contains("timing"));
  P.setTimingFilter("^step 4");
  P.addTiming(launch("step 4", "k", 1, 5));
  nlohmann::json T = P.trailerJson();
  ASSERT_TRUE(T.contains("timing"));
  EXPECT_EQ(T["timing"]["entries"][0]["total_ns"], 5);
}

TEST(Timing, LaunchesWithoutTimeAreCountedButKeepTheTimesOfTheOthers) {
  TimingAggregate A;
  A.add(launch("step 4/forward", "k", 0, 0, true)); // no activity record came
  A.add(launch("step 4/forward", "k", 70, 5));
  A.add(launch("step 5/forward", "k", 0, 0, true));
  nlohmann::json J = A.toJson();
  const nlohmann::json *K4 = entry(J, "step 4/forward", "k");
  ASSERT_TRUE(K4);
  EXPECT_EQ((*K4)["launches"], 2);
  EXPECT_EQ((*K4)["replayed"], 1);
  EXPECT_EQ((*K4)["total_ns"], 5);
  EXPECT_EQ((*K4)["first_start_ns"], 70);
  EXPECT_EQ((*K4)["last_end_ns"], 75);
  const nlohmann::json *K5 = entry(J, "step 5/forward", "k");
  ASSERT_TRUE(K5);
  EXPECT_EQ((*K5)["first_start_ns"], 0);
  EXPECT_EQ((*K5)["total_ns"], 0);
}
