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

TEST(StepTiming, StepsWithAReplayedLaunchAndTheNextAreLeftOutOthersAveraged) {
  auto E = [](const char *Range, const char *Kernel, uint64_t Ns, uint64_t Start,
              uint64_t Replayed = 0) {
    return json{{"range", Range}, {"kernel", Kernel}, {"device", 0}, {"launches", 1},
                {"replayed", Replayed}, {"total_ns", Ns}, {"first_start_ns", Start},
                {"last_end_ns", Start + Ns}, {"communication", false}};
  };
  json P = {{"hroof_profile", 1},
            {"kernels", json::array()},
            {"timing",
             {{"range_filter", "x"},
              {"dropped", 0},
              {"entries",
               {E("train/step 6/forward", "gemm", 300, 30), E("train/step 4/forward", "gemm", 900, 10, 1),
                E("train/step 5/forward", "gemm", 100, 20), E("train/step 7/forward", "gemm", 500, 40),
                E("train/step 7/backward", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 70, 45),
                E("train/step 5/backward", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 50, 25)}}}}};
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
