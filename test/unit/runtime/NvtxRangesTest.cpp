//===- NvtxRangesTest.cpp - the range tracker on a fake NVTX event stream -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The events are what CUPTI's NVTX callbacks hand the tracker (directly, and
// as fake CUPTI callback data through dispatchNvtx); threads are plain ids,
// so ranges "across threads" need no real threads.
#include "nvtx/NvtxRanges.h"
#include "nvtx/NvtxCallbacks.h"
#include "profile/Profile.h"

#include "hroof/RangePath.h"

#include <generated_nvtx_meta.h>
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
  // "backward" opened before "step 3" began: it spans the step's start and
  // is left out while the step is open (never inside a later range).
  EXPECT_EQ(R.path(Worker), "epoch 0/step 3");
  R.push(Worker, 0, text("layer1"));
  EXPECT_EQ(R.path(Worker), "epoch 0/step 3/layer1");
  R.pop(Worker, 0);
  R.end(7); // ended on another thread than it started: fine
  EXPECT_EQ(R.path(Main), "step 3");
  R.end(7); // twice: counted
  R.end(12345);
  EXPECT_EQ(R.stats().UnknownEnds, 2u);
  R.end(9);
  EXPECT_EQ(R.path(Worker), "backward");
}

// NCCL's sequence (src/include/nvtx.h, NVTX3_RANGE in ncclCommInitRankConfig):
// nvtxDomainCreateA("NCCL"), nvtxDomainRegisterStringA(__func__), then
// nvtxDomainRangePushEx on the calling thread, and at return
// nvtxRangePopPayload (the payload extension; CUPTI reports no pop). PyTorch
// DDP then runs steps as start/end ranges and layers as push/pop ranges on
// the same thread.
TEST(NvtxRanges, NcclInitRangeOpenAcrossStepsStaysOutOfTheirPaths) {
  NvtxRanges R;
  const uint64_t Nccl = 0xabc, FuncName = 0x77;
  R.domainCreated(Nccl, "NCCL");
  R.stringRegistered(Nccl, FuncName, "ncclCommInitRankConfig");
  R.push(Main, Nccl, NvtxMessage::registered(FuncName));
  EXPECT_EQ(R.path(Main), "NCCL@ncclCommInitRankConfig");
  // no pop reaches the tracker
  R.start(1, 0, text("step 3"));
  R.start(2, 0, text("forward"));
  R.push(Main, 0, text("layer0"));
  EXPECT_EQ(R.path(Main), "step 3/forward/layer0");
  R.pop(Main, 0);
  R.end(2);
  R.start(3, 0, text("optimizer"));
  EXPECT_EQ(R.path(Main), "step 3/optimizer");
  R.end(3);
  R.end(1);
  // Outside every step the range is still open on its thread.
  EXPECT_EQ(R.path(Main), "NCCL@ncclCommInitRankConfig");
}

// With the payload extension's pop followed (Nvtx.cpp,
// InitializeInjectionNvtxExtension), the range closes at its return.
TEST(NvtxRanges, NcclInitRangeClosedByItsPayloadPop) {
  NvtxRanges R;
  const uint64_t Nccl = 0xabc;
  R.domainCreated(Nccl, "NCCL");
  R.push(Main, Nccl, text("ncclCommInitRankConfig"));
  payloadRangePop(R, Main, Nccl);
  R.push(Main, 0, text("layer0"));
  EXPECT_EQ(R.path(Main), "layer0");
  EXPECT_EQ(R.stats().UnbalancedPops, 0u);
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

//===--- The CUPTI side: fake NVTX callback data through dispatchNvtx -----===//

namespace {

/// Feeds one fake CUPTI NVTX callback (parameters as generated_nvtx_meta.h
/// lays them out, the NVTX function's return value when it has one).
struct FakeCupti {
  NvtxRanges R;
  bool fire(uint64_t Thread, CUpti_CallbackId Id, const void *Params,
            const void *Returned = nullptr) {
    CUpti_NvtxData D{"fake", Params, Returned};
    return dispatchNvtx(R, Thread, Id, &D);
  }
};

} // namespace

TEST(NvtxCallbacks, FakeCuptiStream) {
  FakeCupti C;
  auto Dom = reinterpret_cast<nvtxDomainHandle_t>(uintptr_t(0x1000));
  nvtxDomainCreateA_params Create{"cudnn"};
  C.fire(Main, CUPTI_CBID_NVTX_nvtxDomainCreateA, &Create, &Dom);
  auto Str = reinterpret_cast<nvtxStringHandle_t>(uintptr_t(0x2000));
  nvtxDomainRegisterStringA_params Reg{Dom, "conv"};
  C.fire(Main, CUPTI_CBID_NVTX_nvtxDomainRegisterStringA, &Reg, &Str);

  nvtxRangeId_t Step = 42;
  nvtxRangeStartA_params Start{"step 10"};
  EXPECT_TRUE(C.fire(Main, CUPTI_CBID_NVTX_nvtxRangeStartA, &Start, &Step));
  nvtxRangePushA_params Fwd{"forward"};
  C.fire(Main, CUPTI_CBID_NVTX_nvtxRangePushA, &Fwd);
  nvtxEventAttributes_t A{};
  A.version = NVTX_VERSION;
  A.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  A.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  A.message.registered = Str;
  nvtxDomainRangePushEx_params DomPush{Dom, {&A}};
  C.fire(Worker, CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &DomPush);
  EXPECT_EQ(C.R.path(Main), "step 10/forward");
  EXPECT_EQ(C.R.path(Worker), "step 10/cudnn@conv");

  nvtxDomainRangePop_params DomPop{Dom};
  C.fire(Worker, CUPTI_CBID_NVTX_nvtxDomainRangePop, &DomPop);
  EXPECT_EQ(C.R.path(Worker), "step 10");
  nvtxRangePop_params Pop{};
  C.fire(Main, CUPTI_CBID_NVTX_nvtxRangePop, &Pop);
  C.fire(Main, CUPTI_CBID_NVTX_nvtxRangePop, &Pop); // unbalanced
  EXPECT_EQ(C.R.stats().UnbalancedPops, 1u);
  nvtxRangeEnd_params End{Step}; // ended on another thread
  C.fire(Worker, CUPTI_CBID_NVTX_nvtxRangeEnd, &End);
  EXPECT_EQ(C.R.path(Main), "");

  // A start without the returned id cannot be followed: said, not applied.
  EXPECT_FALSE(C.fire(Main, CUPTI_CBID_NVTX_nvtxRangeStartA, &Start, nullptr));
  EXPECT_EQ(C.R.path(Main), "");
  // NULL and wide messages, an Ex range start in a domain.
  nvtxRangePushA_params Null{nullptr};
  C.fire(Main, CUPTI_CBID_NVTX_nvtxRangePushA, &Null);
  nvtxRangePushW_params Wide{L"lstm"};
  C.fire(Main, CUPTI_CBID_NVTX_nvtxRangePushW, &Wide);
  EXPECT_EQ(C.R.path(Main), "(empty)/lstm");
  nvtxEventAttributes_t Ascii = A;
  Ascii.messageType = NVTX_MESSAGE_TYPE_ASCII;
  Ascii.message.ascii = "epoch 0";
  nvtxRangeId_t Epoch = 7;
  nvtxDomainRangeStartEx_params DomStart{Dom, {&Ascii}};
  EXPECT_TRUE(C.fire(Worker, CUPTI_CBID_NVTX_nvtxDomainRangeStartEx, &DomStart, &Epoch));
  EXPECT_EQ(C.R.path(Worker), "cudnn@epoch 0");
  nvtxDomainRangeEnd_params DomEnd{Dom, {Epoch}};
  C.fire(Main, CUPTI_CBID_NVTX_nvtxDomainRangeEnd, &DomEnd);
  EXPECT_EQ(C.R.path(Worker), "");
  EXPECT_EQ(C.R.stats().UnknownEnds, 0u);
}
