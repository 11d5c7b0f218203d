//===- CounterLaunch.h - a launch in flight, as the hardware counters see it ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The part of a launch in flight that the hardware counters own: the kernel,
// stream and context, the launch record the counters fill, and the state of
// the range or replay group the launch runs in, from launch enter to launch
// exit. The launch hooks' own state (Injection.h, CounterLaunch) extends it, so
// the counters never see the rest of the runtime.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_REPLAY_COUNTERLAUNCH_H
#define HROOF_RUNTIME_REPLAY_COUNTERLAUNCH_H

#include "launches/KernelInfo.h"
#include "metrics/TypeCache.h"
#include "profile/Profile.h"
#include "replay/ApplicationReplay.h"

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace hroof {
namespace rt {

struct HwContext;
struct HwConfig;
class CounterReplay;

struct CounterLaunch {
  std::shared_ptr<FuncInfo> F;
  /// The replay mode that entered the launch (CounterReplay::enter), which
  /// closes its range at exit, whatever the process's mode is by then.
  CounterReplay *Replay = nullptr;
  CUstream Stream = nullptr;
  CUcontext Ctx = nullptr;
  HwContext *Hw = nullptr; ///< a range is open on this context
  int Device = -1;         ///< the context's device (hardware counters)
  std::unique_lock<std::mutex> HwLock;
  HwConfig *HwCfg = nullptr;                   ///< the metric list of the open range
  bool HwLearning = false;                     ///< it collects every tensor type
  std::shared_ptr<const LearnedTypes> HwTypes; ///< else: the kernel's learned types
  uint64_t HwCode = 0;                         ///< learning: the kernel's code hash (0: unknown)
  size_t HwPasses = 0;                         ///< passes the range is replayed with
  uint64_t HwT = 0;                            ///< when the range was started
  bool HwSession = false;                      ///< its range is in a batched session
  long PassEntry = -1; ///< HROOF_REPLAY=passes: the record whose range it is in
  /// HROOF_REPLAY=application: the group this launch collects, for which
  /// record; AppShape: its shape key; NoRecord: a replay launch outside
  /// HROOF_RANGE (counters only); AppTimeNs: its group's duration;
  /// AppDone: a record its group completed, to write after the range.
  std::optional<AppTicket> App;
  bool AppNewRecord = false, NoRecord = false;
  std::string AppShape;
  std::optional<uint64_t> AppTimeNs;
  std::optional<LaunchRecord> AppDone;
  LaunchRecord R;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_REPLAY_COUNTERLAUNCH_H
