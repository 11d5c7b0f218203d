//===- CounterSum.h - read a launch's counts: sum on the GPU, copy 456 B ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// After a counted launch, the kernel of CounterSumPtx.h runs on the
// launch's stream: it sums the counter array's slots into NumCounters u64
// and zeroes the slots it read. Those u64 are copied into pinned host
// memory on the same stream, and the stream is synchronized. The array is
// then zero for the kernel's next counted launch, which needs no memset
// (Launches.cpp decides when one is still needed: CounterArray).
//
// Per context: the module (loaded with cuModuleLoadData at the context's
// first counted launch) and arenas of result buffers, a device one and a
// pinned host one (cuMemAllocHost) per counter array, handed out once and never
// freed (they go with the context; at exit the driver may be gone). When
// the module cannot be loaded or a buffer allocated, prepare() says why and
// the caller falls back to a memset before each launch and a copy of the
// whole array after it. The caller marks its driver calls as the runtime's
// own (InOwnDriverCalls), so the sum's launch is not taken for the
// application's, and holds the counter array's lock.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_COUNTERSUM_H
#define HROOF_RUNTIME_COUNTERSUM_H

#include <cuda.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

class CounterSummer {
public:
  /// One counter array's sum kernel and result buffers: NumCounters u64 on the
  /// device and in pinned host memory.
  struct Buffers {
    CUfunction Kernel = nullptr; ///< the sum kernel of the array's context
    CUdeviceptr Dev = 0;
    uint64_t *Host = nullptr;
  };
  /// Makes \p B ready in context \p Ctx (the current context): "" or why
  /// not (then, and for every later call in this context, the caller falls
  /// back to copying the whole array).
  std::string prepare(CUcontext Ctx, Buffers &B);
  /// Launches on \p Stream the sum of \p Slots copies of \p NumCounters u64
  /// at \p Counters into B.Dev, which zeroes the slots; the caller copies
  /// B.Dev to B.Host on the same stream and synchronizes it.
  static CUresult launch(CUdeviceptr Counters, size_t Slots, size_t NumCounters,
                         const Buffers &B, CUstream Stream);
  /// A context being destroyed: its module and buffers go with it.
  void forget(CUcontext Ctx) {
    std::lock_guard<std::mutex> Lock(M);
    Contexts.erase(Ctx);
  }

private:
  struct Arena {
    CUdeviceptr Dev = 0;
    uint64_t *Host = nullptr;
    size_t Used = 0; ///< entries handed out
  };
  struct PerContext {
    CUmodule Module = nullptr;
    CUfunction Kernel = nullptr;
    std::vector<Arena> Arenas;
    std::string Problem; ///< set once: the context falls back for good
  };
  std::string load(PerContext &P);
  std::string allocate(PerContext &P, Buffers &B);
  std::mutex M;
  std::map<CUcontext, PerContext> Contexts;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_COUNTERSUM_H
