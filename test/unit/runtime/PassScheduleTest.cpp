//===- PassScheduleTest.cpp - pass replay's schedule ----------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// PassSchedule.h: pass 0 records launches until the first launch outside
// HROOF_RANGE (or a run of idle launches without a range); a later pass
// gives each record's range to the next launch of its shape, the oldest
// record of a shape first, once per pass; it is complete when every record
// had its launch, and gives up after its patience (the missing ranges are
// counted); CUPTI's "all passes submitted" ends the round.
//===----------------------------------------------------------------------===//
#include "PassSchedule.h"

#include <gtest/gtest.h>

using namespace hroof::rt;

namespace {

/// A round whose pass 0 recorded \p Shapes, stopped and moved to pass 1
/// (started).
PassSchedule afterPass0(const std::vector<std::string> &Shapes, size_t Patience = 512) {
  PassSchedule S(128, SIZE_MAX, Patience);
  S.beginRound();
  S.passStarted();
  for (const std::string &Sh : Shapes) {
    S.record(Sh, 0);
    S.launched(true);
  }
  EXPECT_TRUE(S.endsPassBefore(false));
  S.passStopped(false);
  EXPECT_EQ(S.pass(), 1);
  EXPECT_FALSE(S.started());
  S.passStarted();
  return S;
}

} // namespace

TEST(PassSchedule, Pass0EndsAtTheFirstLaunchOutsideTheRange) {
  PassSchedule S(128, SIZE_MAX, 512);
  EXPECT_TRUE(S.idle());
  EXPECT_TRUE(S.canRecord());
  EXPECT_FALSE(S.endsPassBefore(false)) << "no round: nothing to end";
  S.beginRound();
  S.passStarted();
  EXPECT_FALSE(S.endsPassBefore(false)) << "nothing recorded yet";
  S.record("a", 1);
  S.launched(true);
  for (int I = 0; I < 1000; ++I) { // repeats inside the range never end it
    EXPECT_FALSE(S.endsPassBefore(true));
    S.launched(false);
  }
  EXPECT_TRUE(S.endsPassBefore(false));
}

TEST(PassSchedule, Pass0EndsAfterIdleLaunches) {
  PassSchedule S(128, 3, 512);
  S.beginRound();
  S.passStarted();
  S.record("a", 1);
  S.launched(true);
  for (int I = 0; I < 3; ++I) {
    EXPECT_FALSE(S.endsPassBefore(true));
    S.launched(false);
  }
  EXPECT_TRUE(S.endsPassBefore(true));
}

TEST(PassSchedule, Pass0IdleRunAtLeastAsLongAsAllBefore) {
  PassSchedule S(128, 3, 512);
  S.beginRound();
  S.passStarted();
  for (int I = 0; I < 5; ++I) { // 5 records, then 5 repeats, a new one
    S.record("s" + std::to_string(I), I);
    S.launched(true);
  }
  for (int I = 0; I < 5; ++I) {
    EXPECT_FALSE(S.endsPassBefore(true)) << I;
    S.launched(false);
  }
  EXPECT_TRUE(S.endsPassBefore(true)) << "5 idle after 5 launches";
}

TEST(PassSchedule, HasShape) {
  PassSchedule S(8, SIZE_MAX, 512);
  S.beginRound();
  S.passStarted();
  S.record("a", 1);
  EXPECT_TRUE(S.hasShape("a"));
  EXPECT_FALSE(S.hasShape("b"));
  S.roundDone();
  EXPECT_FALSE(S.hasShape("a"));
}

TEST(PassSchedule, CapacityLimitsRecords) {
  PassSchedule S(2, SIZE_MAX, 512);
  S.beginRound();
  S.passStarted();
  S.record("a", 1);
  EXPECT_TRUE(S.canRecord());
  S.record("b", 2);
  EXPECT_FALSE(S.canRecord());
}

TEST(PassSchedule, LaterPassGivesEachRecordOneLaunchOfItsShape) {
  PassSchedule S = afterPass0({"a", "b", "a"});
  EXPECT_FALSE(S.canRecord()) << "no record joins after pass 0";
  EXPECT_EQ(S.takeSlot("c"), -1);
  EXPECT_EQ(S.takeSlot("a"), 0) << "the oldest record of the shape first";
  EXPECT_FALSE(S.passComplete());
  EXPECT_EQ(S.takeSlot("a"), 2);
  EXPECT_EQ(S.takeSlot("a"), -1) << "each record once per pass";
  EXPECT_FALSE(S.passComplete());
  EXPECT_EQ(S.takeSlot("b"), 1);
  EXPECT_TRUE(S.passComplete());
  S.passStopped(false);
  EXPECT_EQ(S.pass(), 2);
  EXPECT_EQ(S.takeSlot("a"), -1) << "not started: no range";
  S.passStarted();
  EXPECT_EQ(S.takeSlot("a"), 0) << "pass 2 starts over";
  EXPECT_EQ(S.missing(), 0u);
}

TEST(PassSchedule, ImpatientPassCountsItsMissingRanges) {
  PassSchedule S = afterPass0({"a", "b"}, 4);
  EXPECT_EQ(S.takeSlot("a"), 0);
  for (int I = 0; I < 4; ++I) {
    EXPECT_FALSE(S.endsPassBefore(true));
    S.launched(false);
  }
  EXPECT_TRUE(S.endsPassBefore(true)) << "patience: max(4, 2 x pass 0's 2 launches)";
  S.passStopped(false);
  EXPECT_EQ(S.missing(), 1u) << "record b had no launch in pass 1";
}

TEST(PassSchedule, PatienceIsAtLeastTwicePass0) {
  std::vector<std::string> Shapes(10, "x");
  PassSchedule S = afterPass0(Shapes, 4);
  for (int I = 0; I < 19; ++I) {
    EXPECT_FALSE(S.endsPassBefore(true)) << I;
    S.launched(false);
  }
  S.launched(false);
  EXPECT_TRUE(S.endsPassBefore(true));
}

TEST(PassSchedule, AllSubmittedEndsTheRound) {
  PassSchedule S = afterPass0({"a"});
  EXPECT_EQ(S.takeSlot("a"), 0);
  ASSERT_TRUE(S.passComplete());
  S.passStopped(true);
  EXPECT_EQ(S.pass(), 1) << "stays: the caller decodes, then roundDone";
  S.roundDone();
  EXPECT_TRUE(S.idle());
  EXPECT_TRUE(S.entries().empty());
  EXPECT_TRUE(S.canRecord());
}

TEST(PassSchedule, RangeNames) {
  EXPECT_EQ(PassSchedule::rangeName(0), "r0");
  EXPECT_EQ(PassSchedule::rangeName(57), "r57");
}
