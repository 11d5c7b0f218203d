//===- Activity.cpp - CUPTI activity records: kernel durations ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// CONCURRENT_KERNEL activity records give every kernel's duration, grid and
// block (instrumented or not). Each is matched by correlation id to the
// launch the callbacks saw (Launches.cpp); a launch the callbacks did not
// count (filtered, captured, graph) is reported from its record alone.
//===----------------------------------------------------------------------===//
#include "Injection.h"

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

void kernelRecord(const CUpti_ActivityKernel10 *K) {
  Runtime &T = rt();
  std::string Mangled = K->name ? K->name : "<unknown>";
  if (!selectedName(Mangled))
    return;
  LaunchRecord R;
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

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t, size_t Valid) {
  Runtime &T = rt();
  try {
    CUpti_Activity *Rec = nullptr;
    while (Valid && cuptiActivityGetNextRecord(Buffer, Valid, &Rec) == CUPTI_SUCCESS) {
      if (!T.Finished && (Rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
                          Rec->kind == CUPTI_ACTIVITY_KIND_KERNEL))
        kernelRecord(reinterpret_cast<const CUpti_ActivityKernel10 *>(Rec));
    }
  } catch (const std::exception &E) {
    T.disable(std::string("internal error reading activity records: ") + E.what());
  }
  free(Buffer);
}

} // namespace rt
} // namespace hroof
