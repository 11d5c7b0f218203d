// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Counter loans (runtime/src/replay/CounterLoans.h): a launch past the
// per-shape limit carries the counters of the launch of equal work named by
// its CountersFrom, whichever of the two is written first; a duration far
// from the lender's marks the counters estimated; a lender that never writes
// leaves its borrowers without counters, with the reason.
#include "replay/CounterLoans.h"

#include <gtest/gtest.h>

using namespace hroof::rt;

namespace {

LaunchRecord lender(uint32_t Corr, double TensorFlops, uint64_t Ns) {
  LaunchRecord R;
  R.Correlation = Corr;
  R.WorkKey = "gemm g=132,1,1 b=384,1,1 s=0 p=0123456789abcdef";
  R.Hw = nlohmann::json{{"tensor_flops", {{"bf16", TensorFlops}}}};
  R.Timed = true;
  R.DurationNs = Ns;
  return R;
}

LaunchRecord borrower(uint32_t Corr, uint32_t From, uint64_t Ns) {
  LaunchRecord R;
  R.Correlation = Corr;
  R.CountersFrom = From;
  R.Timed = true;
  R.DurationNs = Ns;
  return R;
}

} // namespace

TEST(CounterLoans, BorrowerAfterLenderCarriesItsCounters) {
  CounterLoans L;
  auto A = L.settle(lender(10, 137438953472.0, 1000));
  ASSERT_EQ(A.size(), 1u);
  auto B = L.settle(borrower(11, 10, 1100));
  ASSERT_EQ(B.size(), 1u);
  ASSERT_TRUE(B[0].Hw.has_value());
  EXPECT_EQ((*B[0].Hw)["tensor_flops"]["bf16"].get<double>(), 137438953472.0);
  EXPECT_TRUE(B[0].CountersEstimated.empty());
}

TEST(CounterLoans, BorrowerBeforeLenderWaitsForIt) {
  CounterLoans L;
  EXPECT_TRUE(L.settle(borrower(21, 20, 900)).empty());
  auto Out = L.settle(lender(20, 64.0, 1000));
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_EQ(Out[0].Correlation, 20u);
  EXPECT_EQ(Out[1].Correlation, 21u);
  EXPECT_EQ((*Out[1].Hw)["tensor_flops"]["bf16"].get<double>(), 64.0);
}

TEST(CounterLoans, DurationOutsideToleranceMarksEstimated) {
  CounterLoans L;
  L.settle(lender(30, 64.0, 1000));
  auto Out = L.settle(borrower(31, 30, 2000)); // 2.0x > 1.5x
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_NE(Out[0].CountersEstimated.find("2.00x that of launch 30"), std::string::npos)
      << Out[0].CountersEstimated;
}

TEST(CounterLoans, LenderThatNeverWritesLeavesAReason) {
  CounterLoans L;
  EXPECT_TRUE(L.settle(borrower(41, 40, 900)).empty());
  auto Left = L.drain();
  ASSERT_EQ(Left.size(), 1u);
  EXPECT_FALSE(Left[0].Hw.has_value());
  EXPECT_TRUE(Left[0].HwTried);
  EXPECT_NE(Left[0].HwProblem.find("launch 40"), std::string::npos);
}

TEST(CounterLoans, IncompleteRecordsLendNothing) {
  CounterLoans L;
  LaunchRecord R = lender(50, 64.0, 1000);
  R.HwIncomplete = {"group 2 of 3"};
  L.settle(std::move(R));
  EXPECT_TRUE(L.settle(borrower(51, 50, 1000)).empty()); // waits: no complete lender
}
