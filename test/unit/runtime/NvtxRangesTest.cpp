//===- NvtxRangesTest.cpp - the range tracker on a fake NVTX event stream -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The events are what Nvtx.cpp hands the tracker from CUPTI's NVTX callbacks;
// threads are plain ids, so ranges "across threads" need no real threads.
#include "NvtxRanges.h"
#include "Profile.h"

#include "hroof/RangePath.h"

#include <gtest/gtest.h>

using namespace hroof;
using namespace hroof::rt;

namespace {
constexpr uint64_t Main = 101, Worker = 202;
NvtxMessage text(const char *T) { return NvtxMessage::text(T); }
} // namespace

TEST(NvtxRanges, NestingPushPop) {
  NvtxRanges R;
  EXPECT_FALSE(R.active());
  EXPECT_EQ(R.path(Main), ""); // a launch outside any range
  R.push(Main, 0, text("train"));
  EXPECT_TRUE(R.active());
  R.push(Main, 0, text("step 10"));
  R.push(Main, 0, text("forward"));
  R.push(Main, 0, text("conv1"));
  EXPECT_EQ(R.path(Main), "train/step 10/forward/conv1");
  R.pop(Main, 0);
  R.push(Main, 0, text("bn1"));
  EXPECT_EQ(R.path(Main), "train/step 10/forward/bn1");
  R.pop(Main, 0);
  R.pop(Main, 0);
  EXPECT_EQ(R.path(Main), "train/step 10");
  R.pop(Main, 0);
  R.pop(Main, 0);
  EXPECT_EQ(R.path(Main), "");
  EXPECT_EQ(R.stats().UnbalancedPops, 0u);
  EXPECT_EQ(R.stats().Pushes, 5u);
}

TEST(NvtxRanges, ThreadsHaveTheirOwnStacks) {
  NvtxRanges R;
  R.push(Main, 0, text("step 1"));
  R.push(Worker, 0, text("loader"));
  EXPECT_EQ(R.path(Main), "step 1");
  EXPECT_EQ(R.path(Worker), "loader");
  R.pop(Worker, 0);
  EXPECT_EQ(R.path(Worker), "");
  EXPECT_EQ(R.path(Main), "step 1");
  // A pop on a thread with nothing open is counted, not applied elsewhere.
  R.pop(Worker, 0);
  EXPECT_EQ(R.stats().UnbalancedPops, 1u);
  EXPECT_EQ(R.path(Main), "step 1");
}

TEST(NvtxRanges, StartEndAcrossThreads) {
  NvtxRanges R;
  R.start(7, 0, text("epoch 0"));
  R.push(Worker, 0, text("backward"));
  // Start/end ranges are the process's: outermost on every thread.
  EXPECT_EQ(R.path(Main), "epoch 0");
  EXPECT_EQ(R.path(Worker), "epoch 0/backward");
  R.start(9, 0, text("step 3"));
  EXPECT_EQ(R.path(Worker), "epoch 0/step 3/backward");
  R.end(7); // ended on another thread than it started: fine
  EXPECT_EQ(R.path(Main), "step 3");
  R.end(7); // twice: counted
  R.end(12345);
  EXPECT_EQ(R.stats().UnknownEnds, 2u);
  R.end(9);
  EXPECT_EQ(R.path(Worker), "backward");
}

TEST(NvtxRanges, UnbalancedPopsTolerated) {
  NvtxRanges R;
  R.pop(Main, 0);
  R.pop(Main, 0);
  R.push(Main, 0, text("a"));
  EXPECT_EQ(R.path(Main), "a");
  EXPECT_EQ(R.stats().UnbalancedPops, 2u);
}

TEST(NvtxRanges, DomainsHaveTheirOwnStacks) {
  NvtxRanges R;
  const uint64_t Lib = 0xabc;
  R.domainCreated(Lib, "cudnn");
  R.push(Main, 0, text("layer"));
  R.push(Main, Lib, text("conv"));
  R.push(Main, 0, text("inner"));
  EXPECT_EQ(R.path(Main), "layer/cudnn@conv/inner");
  // A pop of the library's domain closes its range, not the innermost one.
  R.pop(Main, Lib);
  EXPECT_EQ(R.path(Main), "layer/inner");
  R.pop(Main, Lib);
  EXPECT_EQ(R.stats().UnbalancedPops, 1u);
  R.push(Main, 0xdef, text("x")); // a domain never named
  EXPECT_EQ(R.path(Main), "layer/inner/<unnamed domain>@x");
}

TEST(NvtxRanges, RegisteredStrings) {
  NvtxRanges R;
  const uint64_t Dom = 0x10, Handle = 0x77;
  R.domainCreated(Dom, "app");
  R.stringRegistered(Dom, Handle, "forward");
  R.push(Main, Dom, NvtxMessage::registered(Handle));
  EXPECT_EQ(R.path(Main), "app@forward");
  R.push(Main, Dom, NvtxMessage::registered(0x99)); // never registered
  EXPECT_EQ(R.path(Main), "app@forward/app@<unregistered string>");
  EXPECT_EQ(R.stats().UnknownStrings, 1u);
  // Handles are per domain: the same handle in another domain is unknown.
  R.push(Main, 0, NvtxMessage::registered(Handle));
  EXPECT_EQ(R.stats().UnknownStrings, 2u);
}

TEST(NvtxRanges, SlashInAMessageKeepsThePathSplittable) {
  NvtxRanges R;
  R.push(Main, 0, text("model/conv1"));
  R.push(Main, 0, text("forward"));
  EXPECT_EQ(R.path(Main), "model|conv1/forward");
  EXPECT_EQ(splitRangePath(R.path(Main)).size(), 2u);
}

TEST(NvtxRanges, DepthIsBounded) {
  NvtxRanges R;
  for (size_t I = 0; I < NvtxRanges::MaxDepth + 3; ++I)
    R.push(Main, 0, text("r"));
  EXPECT_EQ(splitRangePath(R.path(Main)).size(), NvtxRanges::MaxDepth);
  EXPECT_EQ(R.stats().DroppedTooDeep, 3u);
  // The dropped pushes' pops are absorbed first.
  for (int I = 0; I < 3; ++I)
    R.pop(Main, 0);
  EXPECT_EQ(splitRangePath(R.path(Main)).size(), NvtxRanges::MaxDepth);
  R.pop(Main, 0);
  EXPECT_EQ(splitRangePath(R.path(Main)).size(), NvtxRanges::MaxDepth - 1);
}

TEST(RangePath, CutAndSplit) {
  EXPECT_EQ(cutRangePath("train/step 10/forward/conv1", 2), "train/step 10");
  EXPECT_EQ(cutRangePath("train/step 10", 5), "train/step 10");
  EXPECT_EQ(cutRangePath("a/b", 0), "a/b");
  EXPECT_EQ(splitRangePath("").size(), 0u);
  EXPECT_EQ(splitRangePath("a/b/c")[2], "c");
}

TEST(RangeFilter, SelectsByPath) {
  KernelFilter F;
  EXPECT_EQ(F.set("step 10(/|$)", "HROOF_RANGE"), "");
  EXPECT_TRUE(F.matches("train/step 10/forward", "train/step 10/forward"));
  EXPECT_TRUE(F.matches("train/step 10", "train/step 10"));
  EXPECT_FALSE(F.matches("train/step 100/forward", "train/step 100/forward"));
  EXPECT_FALSE(F.matches("", "")); // a launch outside any range
  std::string E = F.set("step (", "HROOF_RANGE");
  EXPECT_NE(E.find("HROOF_RANGE"), std::string::npos) << E;
}
