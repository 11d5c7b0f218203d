//===- PassScheduleTest.cpp - pass replay's schedule ----------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// PassSchedule.h: records wait (pending) for a round, which starts at the
// first launch outside HROOF_RANGE, without a range at a repeat of a
// waiting shape, or after an idle run at least as long as all before it;
// each pass gives each record's range to the next launch of its shape, the
// oldest record of a shape first, once per pass; a pass is complete when
// every record had its launch, and gives up after its patience (the missing
// ranges are counted); CUPTI's "all passes submitted" ends the round.
//===----------------------------------------------------------------------===//
#include "replay/PassSchedule.h"

#include <gtest/gtest.h>

using namespace hroof::rt;

namespace {

/// A round of records of \p Shapes, pass 0 started.
PassSchedule inRound(const std::vector<std::string> &Shapes, size_t Patience = 512) {
  PassSchedule S(128, SIZE_MAX, Patience);
  for (size_t I = 0; I < Shapes.size(); ++I)
    S.record(Shapes[I], 100 + I);
  EXPECT_TRUE(S.startsRound(false, false, false, "x"));
  S.beginRound();
  EXPECT_EQ(S.pass(), 0);
  EXPECT_FALSE(S.started());
  S.passStarted();
  return S;
}

} // namespace

TEST(PassSchedule, RoundStartsAtTheFirstLaunchOutsideTheRange) {
  PassSchedule S(128, SIZE_MAX, 512);
  EXPECT_TRUE(S.idle());
  EXPECT_FALSE(S.startsRound(false, false, false, "a")) << "nothing waits";
  S.record("a", 1);
  for (int I = 0; I < 1000; ++I) // repeats inside the range never start it
    EXPECT_FALSE(S.startsRound(true, false, false, "a"));
  EXPECT_TRUE(S.startsRound(false, false, false, "b"));
  S.beginRound();
  EXPECT_TRUE(S.pending().empty());
  ASSERT_EQ(S.entries().size(), 1u);
  EXPECT_EQ(S.entries()[0].Id, 1u);
}

TEST(PassSchedule, WithoutARangeARepeatStartsTheRound) {
  PassSchedule S(128, SIZE_MAX, 512);
  S.record("a", 1);
  EXPECT_FALSE(S.startsRound(true, true, true, "b")) << "a launch that recorded";
  S.record("b", 2);
  EXPECT_FALSE(S.startsRound(true, true, false, "c")) << "not waiting";
  EXPECT_TRUE(S.startsRound(true, true, false, "a"));
}

TEST(PassSchedule, IdleRunAtLeastAsLongAsAllBefore) {
  PassSchedule S(128, 3, 512);
  for (int I = 0; I < 5; ++I) { // 5 records, then launches that add none
    S.record("s" + std::to_string(I), I);
    EXPECT_FALSE(S.startsRound(true, false, true, "s"));
  }
  for (int I = 0; I < 4; ++I)
    EXPECT_FALSE(S.startsRound(true, false, false, "s0")) << I;
  EXPECT_TRUE(S.startsRound(true, false, false, "s0")) << "5 idle after 5 launches";
}

TEST(PassSchedule, CapacityLimitsWaitingRecords) {
  PassSchedule S(2, SIZE_MAX, 512);
  S.record("a", 1);
  EXPECT_TRUE(S.canRecord());
  S.record("b", 2);
  EXPECT_FALSE(S.canRecord());
}

TEST(PassSchedule, EachPassGivesEachRecordOneLaunchOfItsShape) {
  PassSchedule S = inRound({"a", "b", "a"});
  EXPECT_EQ(S.takeSlot("c"), -1);
  EXPECT_EQ(S.takeSlot("a"), 0) << "the oldest record of the shape first";
  EXPECT_FALSE(S.passComplete());
  EXPECT_EQ(S.takeSlot("a"), 2);
  EXPECT_EQ(S.takeSlot("a"), -1) << "each record once per pass";
  EXPECT_EQ(S.takeSlot("b"), 1);
  EXPECT_TRUE(S.passComplete());
  S.passStopped(false);
  EXPECT_EQ(S.pass(), 1);
  EXPECT_EQ(S.takeSlot("a"), -1) << "not started: no range";
  S.passStarted();
  EXPECT_EQ(S.takeSlot("a"), 0) << "pass 1 starts over";
  EXPECT_EQ(S.missing(), 0u);
}

// The runtime refuses records while a round runs (enterRange); the schedule
// itself keeps any that come for the next round.
TEST(PassSchedule, RecordsDuringARoundWaitForTheNext) {
  PassSchedule S = inRound({"a"});
  S.record("b", 7);
  EXPECT_EQ(S.takeSlot("b"), -1);
  ASSERT_EQ(S.pending().size(), 1u);
  EXPECT_FALSE(S.startsRound(false, false, false, "b")) << "a round is under way";
}

TEST(PassSchedule, ImpatientPassCountsItsMissingRanges) {
  PassSchedule S = inRound({"a", "b"}, 4);
  EXPECT_EQ(S.takeSlot("a"), 0);
  for (int I = 0; I < 4; ++I) {
    EXPECT_FALSE(S.endsPassBefore());
    S.launched();
  }
  EXPECT_TRUE(S.endsPassBefore()) << "patience 4";
  S.passStopped(false);
  EXPECT_EQ(S.missing(), 1u) << "record b had no launch in pass 0";
}

TEST(PassSchedule, WithoutAStepPatienceIsAtLeast1_25Pass0) {
  PassSchedule S = inRound({"a"}, 4); // the round started at once: no step seen
  for (int I = 0; I < 9; ++I)
    S.launched();
  EXPECT_EQ(S.takeSlot("a"), 0);
  S.launched(); // pass 0: 10 launches
  S.passStopped(false);
  S.passStarted();
  for (int I = 0; I < 11; ++I) {
    EXPECT_FALSE(S.endsPassBefore()) << I;
    S.launched();
  }
  S.launched(); // 12 = 10 + 10 / 4
  EXPECT_TRUE(S.endsPassBefore());
}

TEST(PassSchedule, EveryPassWaits1_25TheLaunchesTheRecordsWaited) {
  // A step of 2000 launches, records spread over it: pass 0 (the next
  // step) must not give up after Patience (512) launches, nor wait two
  // steps for a record whose launch never comes; and a pass 0 that ran to
  // its patience does not stretch the later passes.
  PassSchedule S(128, SIZE_MAX, 512);
  S.record("a", 1);
  S.record("b", 2); // never comes back
  for (int I = 0; I < 1999; ++I)
    EXPECT_FALSE(S.startsRound(true, false, false, "x"));
  EXPECT_TRUE(S.startsRound(false, false, false, "x"));
  S.beginRound();
  for (int Pass = 0; Pass < 2; ++Pass) {
    S.passStarted();
    EXPECT_EQ(S.takeSlot("a"), 0);
    for (int I = 0; I < 2499; ++I) {
      ASSERT_FALSE(S.endsPassBefore()) << Pass << " " << I;
      S.launched();
    }
    S.launched(); // 2500 = 2000 + 2000 / 4
    EXPECT_TRUE(S.endsPassBefore()) << Pass;
    S.passStopped(false);
  }
}

TEST(PassSchedule, ASecondRoundStartsAfresh) {
  PassSchedule S = inRound({"a", "b"}, 4);
  EXPECT_EQ(S.takeSlot("a"), 0);
  for (int I = 0; I < 4; ++I)
    S.launched();
  S.passStopped(true); // b missed pass 0
  EXPECT_EQ(S.missing(), 1u);
  S.roundDone();
  S.record("c", 9);
  EXPECT_TRUE(S.startsRound(false, false, false, "x"));
  S.beginRound();
  EXPECT_EQ(S.missing(), 0u);
  ASSERT_EQ(S.entries().size(), 1u);
  EXPECT_EQ(S.entries()[0].LastPass, -1);
  EXPECT_EQ(S.takeSlot("c"), -1) << "pass 0 not started";
  S.passStarted();
  EXPECT_EQ(S.takeSlot("c"), 0);
  EXPECT_TRUE(S.passComplete());
}

TEST(PassSchedule, AllSubmittedEndsTheRound) {
  PassSchedule S = inRound({"a"});
  EXPECT_EQ(S.takeSlot("a"), 0);
  ASSERT_TRUE(S.passComplete());
  S.passStopped(true);
  EXPECT_EQ(S.pass(), 0) << "stays: the caller decodes, then roundDone";
  S.roundDone();
  EXPECT_TRUE(S.idle());
  EXPECT_TRUE(S.entries().empty());
}

TEST(PassSchedule, RangeNames) {
  EXPECT_EQ(PassSchedule::rangeName(0), "r0");
  EXPECT_EQ(PassSchedule::rangeName(57), "r57");
}

// Work keys (launches/WorkKey.h): "SHAPE p=DIGEST ctx=C". A launch of a
// record's own key never serves another record of the same shape (a
// persistent GEMM kernel: sizes differ, shape equal); a launch whose key is
// no record's serves the oldest record of its shape, and that pass is marked.
TEST(PassSchedule, KnownKeyNeverServesAnotherRecordOfItsShape) {
  PassSchedule S;
  S.record("gemm g=2,64,1 p=aaaa ctx=1", 1); // 2048^3
  S.record("gemm g=2,64,1 p=bbbb ctx=1", 2); // 1024^3
  S.beginRound();
  S.passStarted();
  EXPECT_EQ(S.takeSlot("gemm g=2,64,1 p=aaaa ctx=1"), 0);
  EXPECT_EQ(S.takeSlot("gemm g=2,64,1 p=aaaa ctx=1"), -1); // its record has pass 0
  EXPECT_EQ(S.takeSlot("gemm g=2,64,1 p=bbbb ctx=1"), 1);
  EXPECT_EQ(S.entries()[0].ShapeMatched, 0u);
  EXPECT_EQ(S.entries()[1].ShapeMatched, 0u);
}

TEST(PassSchedule, UnknownKeyServesItsShapeAndIsMarked) {
  PassSchedule S;
  S.record("dropout g=1056,1,1 p=1111 ctx=1", 7);
  S.record("other g=8,1,1 p=2222 ctx=1", 8);
  S.beginRound();
  S.passStarted();
  EXPECT_EQ(S.takeSlot("dropout g=1056,1,1 p=9999 ctx=1"), 0); // new random offset
  EXPECT_EQ(S.entries()[0].ShapeMatched, 1u);                  // pass 0
  EXPECT_EQ(S.takeSlot("dropout g=1056,1,1 p=9999 ctx=2"), -1); // another context
  EXPECT_EQ(S.takeSlot("dropout g=2112,1,1 p=9999 ctx=1"), -1); // another shape
}

TEST(PassSchedule, WorkKeyShapeDropsOnlyTheDigest) {
  EXPECT_EQ(workKeyShape("k g=1,1,1 b=2,1,1 s=0 p=0123456789abcdef ctx=0x5"),
            "k g=1,1,1 b=2,1,1 s=0 ctx=0x5");
  EXPECT_EQ(workKeyShape("k g=1,1,1 b=2,1,1 s=0 p=?"), "k g=1,1,1 b=2,1,1 s=0");
  EXPECT_EQ(workKeyShape("k g=1,1,1"), "k g=1,1,1");
}

TEST(PassSchedule, LaterPassesDoNotWaitForRecordsNeverServed) {
  PassSchedule S = inRound({"a", "b"}, 4);
  EXPECT_EQ(S.takeSlot("a"), 0); // b's launch never comes
  EXPECT_FALSE(S.passComplete()) << "pass 0 waits for every record";
  S.passStopped(false);
  S.passStarted();
  EXPECT_FALSE(S.passComplete());
  EXPECT_EQ(S.takeSlot("a"), 0);
  EXPECT_TRUE(S.passComplete()) << "pass 1: b was never served, a is";
}

// From pass 1 on, pass 0 has shown whose keys come back.
TEST(PassSchedule, FromPass1AKnownKeyServesRecordsWhoseKeyNeverCame) {
  PassSchedule S;
  S.record("ew g=64,1,1 p=aaaa ctx=1", 1);
  S.record("ew g=64,1,1 p=bbbb ctx=1", 2); // its bytes never repeat
  S.beginRound();
  S.passStarted();
  EXPECT_EQ(S.takeSlot("ew g=64,1,1 p=aaaa ctx=1"), 0);
  EXPECT_EQ(S.takeSlot("ew g=64,1,1 p=aaaa ctx=1"), -1) << "pass 0: not known yet";
  S.passStopped(false);
  S.passStarted();
  EXPECT_EQ(S.takeSlot("ew g=64,1,1 p=aaaa ctx=1"), 0);
  EXPECT_EQ(S.takeSlot("ew g=64,1,1 p=aaaa ctx=1"), 1) << "b's key never came";
  EXPECT_EQ(S.entries()[1].ShapeMatched, 2u); // pass 1
  EXPECT_EQ(S.entries()[0].ShapeMatched, 0u);
}

TEST(PassSchedule, AKnownKeyNeverServesARecordWhoseKeyCame) {
  PassSchedule S;
  S.record("gemm g=2,64,1 p=aaaa ctx=1", 1); // 2048^3
  S.record("gemm g=2,64,1 p=bbbb ctx=1", 2); // 1024^3
  S.beginRound();
  S.passStarted();
  EXPECT_EQ(S.takeSlot("gemm g=2,64,1 p=aaaa ctx=1"), 0);
  EXPECT_EQ(S.takeSlot("gemm g=2,64,1 p=bbbb ctx=1"), 1);
  S.passStopped(false);
  S.passStarted();
  EXPECT_EQ(S.takeSlot("gemm g=2,64,1 p=aaaa ctx=1"), 0);
  EXPECT_EQ(S.takeSlot("gemm g=2,64,1 p=aaaa ctx=1"), -1) << "b's own launch comes";
  EXPECT_EQ(S.takeSlot("gemm g=2,64,1 p=bbbb ctx=1"), 1);
  EXPECT_EQ(S.entries()[0].ShapeMatched | S.entries()[1].ShapeMatched, 0u);
}

// A record's key that stops coming (a word that looked like a host address
// in one step and not in the next): launches of new keys serve it.
TEST(PassSchedule, ARecordWhoseKeyStopsComingIsServedByItsShape) {
  PassSchedule S;
  S.record("drop g=8,1,1 p=aaaa ctx=1", 1);
  S.beginRound();
  S.passStarted();
  EXPECT_EQ(S.takeSlot("drop g=8,1,1 p=aaaa ctx=1"), 0);
  S.passStopped(false);
  S.passStarted();
  EXPECT_EQ(S.takeSlot("drop g=8,1,1 p=1234 ctx=1"), 0);
  EXPECT_EQ(S.entries()[0].ShapeMatched, 2u); // pass 1
  EXPECT_TRUE(S.passComplete());
}

// A record never served is not waited for (passComplete): a launch of its
// shape goes to a record the pass waits for first.
TEST(PassSchedule, AShapeLaunchServesARecordThePassWaitsForFirst) {
  PassSchedule S;
  S.record("drop g=8,1,1 p=0001 ctx=1", 1); // its shape comes back once a step
  S.record("drop g=8,1,1 p=0002 ctx=1", 2);
  S.beginRound();
  S.passStarted();
  EXPECT_EQ(S.takeSlot("drop g=8,1,1 p=1001 ctx=1"), 0);
  S.passStopped(false); // record 2 never served
  S.passStarted();
  EXPECT_EQ(S.takeSlot("drop g=8,1,1 p=2001 ctx=1"), 0) << "record 1 is waited for";
  EXPECT_TRUE(S.passComplete());
  EXPECT_EQ(S.takeSlot("drop g=8,1,1 p=2002 ctx=1"), 1) << "then the one never served";
}
