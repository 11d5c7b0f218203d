//===- Activity.cpp - CUPTI activity records: kernel durations ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CONCURRENT_KERNEL activity records give every kernel's duration, grid and
// block (instrumented or not). Each is matched by correlation id to the
// launch the callbacks saw (Launches.cpp); a launch the callbacks did not
// count (filtered, captured, graph) is reported from its record alone.
// MEMCPY, MEMCPY2 (between devices) and MEMSET records are the application's
// transfers (Transfers.h), with the range path noted at their API call.
//===----------------------------------------------------------------------===//
#include "kernels/CounterSumPtx.h"
#include "Injection.h"
#include "kernels/L2FlushPtx.h"


#include <cstdlib>

namespace hroof {
namespace rt {

//===--- Activity records ----------------------------------------------------===//

constexpr size_t ActivityBufferSize = 8 << 20;

void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size, size_t *MaxRecords) {
  *Buffer = static_cast<uint8_t *>(aligned_alloc(8, ActivityBufferSize));
  *Size = *Buffer ? ActivityBufferSize : 0;
  *MaxRecords = 0;
}

/// A launch of HROOF_TIMING_RANGE: its time into the profile's "timing".
void timingRecord(const CUpti_ActivityKernel10 &K, const std::string &Mangled, const Issued &I) {
  Runtime &T = rt();
  if (!T.P || K.end < K.start || K.start == 0)
    return;
  TimingLaunch L;
  L.Range = I.Range;
  L.Kernel = Mangled;
  L.Device = K.deviceId;
  L.StartNs = K.start;
  L.DurationNs = K.end - K.start;
  L.Replayed = I.Replayed;
  T.P->addTiming(L);
}

void timingUntimed(uint32_t Correlation, const std::string &Mangled, CUcontext Ctx) {
  std::optional<Issued> I = takeIssued(Correlation, {IssueKind::Launch});
  Runtime &T = rt();
  if (!I || !I->Timing || !T.P)
    return;
  TimingLaunch L;
  L.Range = I->Range;
  L.Kernel = Mangled;
  CUdevice Dev = 0;
  CUcontext Old = nullptr;
  if (cuCtxPushCurrent(Ctx) == CUDA_SUCCESS) {
    if (cuCtxGetDevice(&Dev) == CUDA_SUCCESS)
      L.Device = int64_t(Dev);
    cuCtxPopCurrent(&Old);
  }
  L.Replayed = true; // a round's step: not the program's time (Timing.h)
  T.P->addTiming(L);
}

void kernelRecord(const CUpti_ActivityKernel10 *K) {
  Runtime &T = rt();
  std::string Mangled = K->name ? K->name : "<unknown>";
  if (Mangled == L2FlushKernelName || Mangled == CounterSumKernelName)
    return; // the runtime's own kernels (L2 flush of HROOF_CACHE_CONTROL=all, counter sums)
  if (!selectedName(Mangled))
    return;
  std::optional<Issued> I = takeIssued(K->correlationId, {IssueKind::Launch, IssueKind::Graph});
  if (I && !I->Selected && I->Timing) {
    timingRecord(*K, Mangled, *I);
    return;
  }
  if ((I && !I->Selected) || (!I && !T.RangeFilter.empty()))
    return; // outside the ranges HROOF_RANGE selects
  LaunchRecord R;
  R.Range = I ? I->Range : "";
  R.Mangled = Mangled;
  R.Name = demangle(Mangled);
  R.Api = K->graphId ? "cuGraphLaunch" : "";
  R.Correlation = K->correlationId;
  R.Device = K->deviceId;
  R.Stream = K->streamId;
  R.Grid = {uint32_t(K->gridX), uint32_t(K->gridY), uint32_t(K->gridZ)};
  R.Block = {uint32_t(K->blockX), uint32_t(K->blockY), uint32_t(K->blockZ)};
  R.SharedMem = uint32_t(K->dynamicSharedMemory);
  R.Timed = K->end >= K->start && K->start != 0;
  R.StartNs = K->start;
  R.DurationNs = R.Timed ? K->end - K->start : 0;
  R.Graph = K->graphId != 0;
  PendingLaunch Done;
  {
    std::lock_guard<std::mutex> L(T.M);
    auto It = R.Graph ? T.Pending.end() : T.Pending.find(K->correlationId);
    if (It == T.Pending.end() && !R.Graph && T.Hw.Done.count(K->correlationId))
      return; // a further record of a replayed launch (kernel replay)
    if (It == T.Pending.end()) {
      // Not counted by the callbacks: uninstrumented, filtered, captured or
      // graph launch. Report what the activity record says.
      if (T.InstrumentedNames.count(Mangled)) {
        R.Instrumented = true;
        R.DynamicProblem = R.Graph ? "graph launch: counts not attributed"
                                   : "not counted (stream capture, counting off "
                                     "or stopped)";
        R.StaticProblem = R.DynamicProblem;
      }
      Done.R = std::move(R);
    } else if (It->second.HaveCallback) {
      Done = std::move(It->second);
      T.Pending.erase(It);
      Done.R.Timed = R.Timed;
      Done.R.StartNs = R.StartNs;
      Done.R.DurationNs = R.DurationNs;
      Done.R.Device = R.Device;
      Done.R.Stream = R.Stream;
      if (Done.R.HwTried)
        T.Hw.Done.insert(K->correlationId);
    } else if (It->second.HaveActivity) {
      return; // a further record of a replayed launch: the first one counts
    } else {
      It->second.R = std::move(R);
      It->second.HaveActivity = true;
      return;
    }
  }
  finalize(std::move(Done));
}

const char *copyKindName(uint8_t Kind) {
  switch (Kind) {
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    return "HtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    return "DtoH";
  case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    return "DtoD";
  case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
    return "HtoH";
  case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
    return "PtoP";
  default:
    return "array"; // a CUDA array on one side (HtoA, AtoD, ...) or unknown
  }
}

/// A copy or memset record: kept when the application's own call issued it
/// (its correlation id was noted at the call) inside the selected ranges.
void transferRecord(TransferRecord &&R) {
  Runtime &T = rt();
  std::optional<Issued> I = takeIssued(R.Correlation, {IssueKind::Transfer, IssueKind::Graph});
  if (!I) {
    std::lock_guard<std::mutex> L(T.M);
    ++T.TransfersNotAttributed;
    return;
  }
  if (!I->Selected)
    return;
  R.Range = I->Range;
  if (T.P)
    T.P->addTransfer(R);
}

template <typename Rec> TransferRecord transferFields(const Rec *A, const char *Kind) {
  TransferRecord R;
  R.Kind = Kind;
  R.Bytes = A->bytes;
  R.StartNs = A->start;
  R.DurationNs = A->end >= A->start ? A->end - A->start : 0;
  R.Device = A->deviceId;
  R.Stream = A->streamId;
  R.Correlation = A->correlationId;
  return R;
}

void activityRecord(const CUpti_Activity *Rec) {
  switch (Rec->kind) {
  case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
  case CUPTI_ACTIVITY_KIND_KERNEL:
    kernelRecord(reinterpret_cast<const CUpti_ActivityKernel10 *>(Rec));
    break;
  case CUPTI_ACTIVITY_KIND_MEMCPY: {
    auto *A = reinterpret_cast<const CUpti_ActivityMemcpy6 *>(Rec);
    transferRecord(transferFields(A, copyKindName(A->copyKind)));
    break;
  }
  case CUPTI_ACTIVITY_KIND_MEMCPY2: {
    auto *A = reinterpret_cast<const CUpti_ActivityMemcpyPtoP4 *>(Rec);
    TransferRecord R = transferFields(A, "PtoP");
    R.SrcDevice = A->srcDeviceId;
    R.DstDevice = A->dstDeviceId;
    transferRecord(std::move(R));
    break;
  }
  case CUPTI_ACTIVITY_KIND_MEMSET:
    transferRecord(transferFields(reinterpret_cast<const CUpti_ActivityMemset4 *>(Rec), "memset"));
    break;
  default:
    break;
  }
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t, size_t Valid) {
  Runtime &T = rt();
  try {
    CUpti_Activity *Rec = nullptr;
    while (Valid && cuptiActivityGetNextRecord(Buffer, Valid, &Rec) == CUPTI_SUCCESS) {
      if (!T.Finished)
        activityRecord(Rec);
    }
  } catch (const std::exception &E) {
    T.disable(std::string("internal error reading activity records: ") + E.what());
  }
  free(Buffer);
}

} // namespace rt
} // namespace hroof
