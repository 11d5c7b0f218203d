//===- GroupSessionTest.cpp - a batched session's launch list -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// GroupSession.h: range i of a batched session is its i-th entry, so
// dropping a launch that runs in no session must remove exactly that
// launch's entry, never the runtime's own kernels' (correlation id 0) nor,
// when asked, an entry that collects a group; at close, range i's values
// go to entry i's group, and a session whose ranges do not match its
// entries gives every group back without losing a record.
//===----------------------------------------------------------------------===//
#include "replay/GroupSession.h"

#include <gtest/gtest.h>

using namespace hroof::rt;

namespace {

std::vector<uint32_t> corrs(const HwSession &S) {
  std::vector<uint32_t> V;
  for (const HwSession::Entry &E : S.Entries)
    V.push_back(E.Corr);
  return V;
}

} // namespace

TEST(GroupSession, ForgetRemovesOnlyThatLaunch) {
  HwSession S;
  AppTicket T;
  T.Record = 5;
  S.Entries = {{5, T}, {0, std::nullopt}, {6, std::nullopt}, {0, std::nullopt}, {7, std::nullopt}};
  S.forget(6);
  EXPECT_EQ(corrs(S), (std::vector<uint32_t>{5, 0, 0, 7}));
  S.forget(5, /*KeepTicketed=*/true);
  EXPECT_EQ(corrs(S), (std::vector<uint32_t>{5, 0, 0, 7})) << "a ticketed entry is kept";
  S.forget(5);
  EXPECT_EQ(corrs(S), (std::vector<uint32_t>{0, 0, 7}));
  S.forget(42);
  EXPECT_EQ(corrs(S), (std::vector<uint32_t>{0, 0, 7})) << "an unknown launch changes nothing";
}

namespace {

/// A record "shape" with two groups of one metric each; the recorded
/// launch \p Corr takes group 0.
AppTicket startTwoGroups(ApplicationReplay &A, const std::string &Shape, uint32_t Corr) {
  return A.startRecord(Shape, Corr, 0, {{"m0"}, {"m1"}}, {});
}

LaunchRecord heldRecord(ApplicationReplay &A, uint32_t Corr) {
  LaunchRecord R;
  R.Correlation = Corr;
  R.Mangled = R.Name = "k";
  R.HwTried = true;
  EXPECT_TRUE(A.hold(R)) << "held until its counters are complete";
  return R;
}

} // namespace

TEST(GroupSession, RangeIGoesToEntryI) {
  ApplicationReplay A;
  AppTicket TA = startTwoGroups(A, "a", 10), TB = startTwoGroups(A, "b", 20);
  heldRecord(A, 10);
  heldRecord(A, 20);
  // Session 1: launch 10 (group 0 of a), the runtime's flush, launch 20
  // (group 0 of b). Range values: 100 + the range's index.
  std::vector<HwSession::Entry> S1 = {{10, TA}, {0, std::nullopt}, {20, TB}};
  auto ByIndex = [](size_t I, std::vector<double> &V) {
    V.assign(1, 100.0 + double(I));
    return std::string();
  };
  std::vector<LaunchRecord> Done;
  SessionDelivery D = deliverSession(S1, true, {"m0"}, ByIndex, A, Done);
  EXPECT_EQ(D.Delivered, 2u);
  EXPECT_EQ(D.Retried, 0u);
  EXPECT_TRUE(Done.empty()) << "group 1 still missing";
  // Session 2 collects group 1 of both (a replay launch each).
  AppTicket RA, RB;
  ASSERT_EQ(A.role("a", false, [] { return false; }, RA), AppRole::ReplayOnly);
  ASSERT_EQ(A.role("b", false, [] { return false; }, RB), AppRole::ReplayOnly);
  std::vector<HwSession::Entry> S2 = {{0, std::nullopt}, {31, RB}, {32, RA}};
  D = deliverSession(S2, true, {"m1"}, ByIndex, A, Done);
  ASSERT_EQ(Done.size(), 2u);
  for (const LaunchRecord &R : Done) {
    ASSERT_TRUE(R.Hw);
    const auto &Raw = (*R.Hw)["raw"];
    if (R.Correlation == 10) {
      EXPECT_EQ(Raw["m0"].get<double>(), 100.0) << "range 0 of session 1";
      EXPECT_EQ(Raw["m1"].get<double>(), 102.0) << "range 2 of session 2";
    } else {
      EXPECT_EQ(R.Correlation, 20u);
      EXPECT_EQ(Raw["m0"].get<double>(), 102.0);
      EXPECT_EQ(Raw["m1"].get<double>(), 101.0);
    }
  }
}

TEST(GroupSession, MismatchGivesEveryGroupBackAndKeepsTheRecords) {
  ApplicationReplay A;
  AppTicket TA = startTwoGroups(A, "a", 10);
  heldRecord(A, 10);
  std::vector<HwSession::Entry> S1 = {{10, TA}, {11, std::nullopt}};
  bool Evaluated = false;
  auto Never = [&](size_t, std::vector<double> &V) {
    Evaluated = true;
    V.assign(1, 1.0);
    return std::string();
  };
  std::vector<LaunchRecord> Done;
  SessionDelivery D = deliverSession(S1, false, {"m0"}, Never, A, Done);
  EXPECT_FALSE(Evaluated) << "no range of a mismatched session is read";
  EXPECT_EQ(D.Retried, 1u);
  EXPECT_EQ(A.stats().Failed, 0u) << "the record is not dropped";
  // Its own group 0 and group 1 are both collected by later launches.
  std::vector<size_t> Groups;
  for (int I = 0; I < 2; ++I) {
    AppTicket R;
    ASSERT_EQ(A.role("a", false, [] { return false; }, R), AppRole::ReplayOnly) << I;
    Groups.push_back(R.Group);
    std::vector<HwSession::Entry> S = {{uint32_t(40 + I), R}};
    deliverSession(S, true, {R.Group ? "m1" : "m0"}, Never, A, Done);
  }
  EXPECT_EQ(Groups, (std::vector<size_t>{0, 1}));
  ASSERT_EQ(Done.size(), 1u) << "the held record is written, complete";
  EXPECT_EQ(Done[0].Correlation, 10u);
}
