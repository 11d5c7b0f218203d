//===- L2Flush.h - flush the L2 before a counter range (cache-control) ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Nsight Compute flushes the caches before each profiled kernel by default
// (--cache-control all); CUPTI's range profiler has no such option, so with
// HROOF_CACHE_CONTROL=all the runtime does it itself: before a launch's
// counter range starts (outside the range, so not counted), the kernel of
// L2FlushPtx.h reads a buffer twice the size of the device's L2
// (CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE) on the launch's stream, and the stream
// is synchronized. Earlier kernels' lines leave the L2 (dirty ones are
// written back) before the range, and the launch's DRAM reads are its
// compulsory traffic. One module and buffer per context, made at its first
// flush and never freed (at exit the driver may be gone). Not yet validated
// on a GPU (docs/runtime.md).
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_L2FLUSH_H
#define HROOF_RUNTIME_L2FLUSH_H

#include <cuda.h>

#include <map>
#include <mutex>
#include <string>

namespace hroof {
namespace rt {

class L2Flusher {
public:
  /// Flushes the L2 of \p Ctx's device on \p Stream and waits for it: ""
  /// or why not (the caller then records the launch's counters without it).
  /// The caller marks its driver calls as the runtime's own.
  std::string flush(CUcontext Ctx, CUstream Stream);
  /// A context being destroyed: its module and buffers go with it, and a
  /// new context at the same address must prepare its own.
  void forget(CUcontext Ctx) {
    std::lock_guard<std::mutex> Lock(M);
    Contexts.erase(Ctx);
  }

private:
  struct PerContext {
    CUmodule Module = nullptr;
    CUfunction Kernel = nullptr;
    CUdeviceptr Buffer = 0, Sink = 0;
    size_t Words = 0;
    unsigned Blocks = 0;
    std::string Problem; ///< set once: later flushes of the context fail at once
  };
  std::string prepare(CUcontext Ctx, PerContext &P);
  std::mutex M;
  std::map<CUcontext, PerContext> Contexts;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_L2FLUSH_H
