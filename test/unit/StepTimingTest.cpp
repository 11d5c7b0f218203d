//===- StepTimingTest.cpp - steps of the profile's "timing" section --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/StepTiming.h"

#include <gtest/gtest.h>

using namespace hroof::report;
using nlohmann::json;

TEST(StepTiming, TheStepIsThePathUpToItsFirstNumberedElement) {
  EXPECT_EQ(stepOf("step 3/forward/layer0"), "step 3");
  EXPECT_EQ(pathBelowStep("step 3/forward/layer0"), "forward/layer0");
  EXPECT_EQ(stepOf("train/step 11/backward/conv1"), "train/step 11");
  EXPECT_EQ(pathBelowStep("train/step 11/backward/conv1"), "backward/conv1");
  EXPECT_EQ(stepOf("step 3"), "step 3");
  EXPECT_EQ(pathBelowStep("step 3"), "");
  // No number anywhere: the first element.
  EXPECT_EQ(stepOf("warmup/forward"), "warmup");
  EXPECT_EQ(pathBelowStep("warmup/forward"), "forward");
}

namespace {

/// One timing entry of one launch; \p Start 0: counted without time.
json entry(const char *Range, const char *Kernel, uint64_t Ns, uint64_t Start,
           uint64_t Replayed = 0) {
  return json{{"range", Range}, {"kernel", Kernel}, {"device", 0}, {"launches", 1},
              {"replayed", Replayed}, {"total_ns", Ns}, {"first_start_ns", Start},
              {"last_end_ns", Start ? Start + Ns : 0}, {"communication", false}};
}

/// A profile with only a timing section of \p Entries.
json profileWithTiming(json Entries) {
  return {{"hroof_profile", 1},
          {"kernels", json::array()},
          {"timing", {{"range_filter", "x"}, {"dropped", 0}, {"entries", std::move(Entries)}}}};
}

} // namespace

TEST(StepTiming, StepsWithAReplayedLaunchAndTheNextAreLeftOutOthersAveraged) {
  const char *Nccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
  json P = profileWithTiming(
      {entry("train/step 6/forward", "gemm", 300, 30),
       entry("train/step 4/forward", "gemm", 900, 10, 1),
       entry("train/step 5/forward", "gemm", 100, 20), entry("train/step 7/forward", "gemm", 500, 40),
       entry("train/step 7/backward", Nccl, 70, 45), entry("train/step 5/backward", Nccl, 50, 25)});
  StepTiming S = readStepTiming(readProfileData("p.json", P), -1);
  // Step 4 replayed; step 5 follows it (the round's host work): both out.
  ASSERT_EQ(S.Steps, (std::vector<std::string>{"train/step 6", "train/step 7"}));
  EXPECT_EQ(S.LeftOut, (std::vector<std::string>{"train/step 4", "train/step 5"}));
  EXPECT_DOUBLE_EQ(S.ComputeNs, (300 + 500) / 2.0);
  EXPECT_DOUBLE_EQ(S.CommNs, 70 / 2.0);
  EXPECT_DOUBLE_EQ(S.RangeNs["forward"], (300 + 500) / 2.0);
  EXPECT_DOUBLE_EQ(S.CommByLabel["NCCL AllReduce"], 35);
  EXPECT_EQ(S.describe(), "train/step 6 .. train/step 7 (2 unprofiled steps)");
  EXPECT_FALSE(readStepTiming(Profile{}, -1).usable());
}

TEST(StepTiming, StepsCountedWithoutTimeAreLeftOutAndDoNotReorderTheOthers) {
  // A round with the kernel activity off: its steps' launches are counted,
  // replayed, with no time (first_start_ns 0); the round's last step has
  // timed launches after the activity came back.
  json P = profileWithTiming(
      {entry("step 4/forward", "gemm", 0, 0, 1), entry("step 5/forward", "gemm", 0, 0, 1),
       entry("step 6/forward", "gemm", 200, 60, 1), entry("step 7/forward", "gemm", 300, 70),
       entry("step 8/forward", "gemm", 500, 80), entry("step 9/forward", "gemm", 700, 90)});
  StepTiming S = readStepTiming(readProfileData("p.json", P), -1);
  // 4 and 5 without time, 6 replayed, 7 after it: out; 8 and 9 averaged.
  ASSERT_EQ(S.Steps, (std::vector<std::string>{"step 8", "step 9"}));
  EXPECT_EQ(S.LeftOut, (std::vector<std::string>{"step 4", "step 5", "step 6", "step 7"}));
  EXPECT_DOUBLE_EQ(S.ComputeNs, (500 + 700) / 2.0);
}
