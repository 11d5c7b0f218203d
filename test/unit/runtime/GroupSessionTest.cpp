//===- GroupSessionTest.cpp - a batched session's launch list -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HwSession (HardwareCounters.h): range i of a batched session is its i-th
// entry, so dropping a launch that runs in no session must remove exactly
// that launch's entry, never the runtime's own kernels' (correlation id 0)
// nor, when asked, an entry that collects a group.
//===----------------------------------------------------------------------===//
#include "HardwareCounters.h"

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
