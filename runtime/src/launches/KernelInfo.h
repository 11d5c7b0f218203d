//===- KernelInfo.h - what the runtime knows of a module and a kernel -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One module's embedded static model, one kernel's counter array and what
// the runtime learns of a CUfunction at its first launch (name, filter,
// instrumentation, static model, parameter layout). Kept by the process
// state (Injection.h) and read by the launch hooks and the hardware
// counters (replay/), which is why it sits below both.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_LAUNCHES_KERNELINFO_H
#define HROOF_RUNTIME_LAUNCHES_KERNELINFO_H

#include "kernels/CounterSum.h"

#include "hroof/CounterLayout.h"
#include "hroof/StaticModel.h"

#include <cuda.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

constexpr size_t CounterBytes = sizeof(uint64_t) * NumCounters;

/// One module's embedded static model, read once.
struct ModuleInfo {
  std::shared_ptr<StaticModule> Model; ///< null when absent or unreadable
  std::string Problem;                 ///< why there is no model
};

/// One counter array (__hroof_counters_<mangled>) and whether its slots
/// are known to be zero, so that a counted launch needs no memset first:
/// true after the sum kernel (CounterSum.h) read and zeroed them; never
/// again once a launch of the kernel ran uncounted (outside HROOF_RANGE,
/// captured, counting off...): that kernel may still be adding to the
/// array when a later launch is counted, so every counted launch zeroes it
/// first, as before the sum kernel existed.
/// The sum kernel and result buffers of the array's context are prepared
/// at its first counted launch (under Lock; kept across module unloads,
/// reset when that context is destroyed); SumProblem: why not (a memset
/// before each launch and a copy of the whole array after).
struct CounterArray {
  std::mutex Lock;     ///< held from a counted launch's enter to its exit
  bool Zeroed = false; ///< under Lock
  std::atomic<bool> Uncounted{false};
  CUcontext SumCtx = nullptr; ///< the context Sum belongs to (null: not prepared)
  CounterSummer::Buffers Sum;
  std::string SumProblem;
};

/// What the runtime knows about one CUfunction, computed at its first launch.
struct FuncInfo {
  std::string Mangled, Name;
  bool Selected = true;      ///< passes the kernel filter
  bool Instrumented = false; ///< has a counter array, or ByModel
  /// Compiled by hroof but not instrumented: its static model is exact, so
  /// each launch's counts are the model evaluated at the launch.
  bool ByModel = false;
  /// "NCCL AllReduce" for a communication kernel (hroof/Communication.h):
  /// no hardware counters, since its replay would wait for the other ranks.
  std::string Communication;
  CUdeviceptr Counters = 0;
  /// Copies of the counter array (the pass spreads warps' atomics over
  /// slots by SM to avoid contention); the counts are their sum.
  size_t CounterSlots = 1;
  CUmodule Module = nullptr;
  std::shared_ptr<ModuleInfo> Mod;
  const KernelModel *Model = nullptr; ///< in Mod->Model
  std::string ModelProblem;
  std::vector<std::pair<size_t, size_t>> Params; ///< offset, size (ABI)
  std::string ParamProblem;
  /// Pointer parameters whose value the model's counts use (compared with
  /// null: `if (bias != nullptr)`): their values join the evaluation's
  /// arguments (and its cache key); the others only give alignments.
  std::vector<bool> PointerInModel;
  CounterArray *Array = nullptr; ///< in Runtime::Arrays (instrumented only)
  /// Static totals already evaluated, by launch shape and integer arguments:
  /// training loops repeat the same launches, and a thread-by-thread
  /// evaluation can take seconds. Bounded (StaticCacheLimit entries).
  std::mutex StaticCacheLock;
  struct StaticResult {
    std::optional<TotalVector> Total;
    std::optional<TotalBounds> Bounds; ///< when the model is not exact
    std::string Problem;
  };
  std::map<std::string, StaticResult> StaticCache;
  /// Warp-level traffic by the same key plus the pointers modulo 128.
  std::map<std::string, std::pair<std::optional<WarpTraffic>, std::string>> WarpCache;
};
constexpr size_t StaticCacheLimit = 1024;

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_LAUNCHES_KERNELINFO_H
