//===- GroupSession.h - application replay's batched sessions: the list ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU side of a batched session (GroupSession.cpp has the CUPTI side):
// the launches it saw, in order, and the delivery of its ranges' values to
// the groups they collect (SessionDelivery.cpp, unit-tested in
// test/unit/runtime/GroupSessionTest.cpp).
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_GROUPSESSION_H
#define HROOF_RUNTIME_GROUPSESSION_H

#include "replay/ApplicationReplay.h"
#include "profile/Profile.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

struct HwConfig;

/// Application replay's batched range (GroupSession.cpp): the profiler of a
/// context started once with a one-pass group in user replay, every kernel
/// launched meanwhile one auto range (CUPTI neither replays nor saves
/// memory), stopped and decoded once. A Start/Stop/Decode with the L2 and
/// DRAM counters costs the same whatever the replay mode, and many times
/// what a launch inside a started session adds (measured:
/// docs/validation/deep-learning.md, "what a counter range costs;
/// application replay in batched sessions").
struct HwSession {
  HwConfig *Cfg = nullptr; ///< the group it collects; null: no session open
  struct Entry {
    uint32_t Corr = 0;                ///< the launch's correlation id (0: the runtime's own)
    std::optional<AppTicket> Ticket; ///< the group this launch collects, if any
  };
  std::vector<Entry> Entries; ///< every kernel launched since Start, in order
  /// Drops launch \p Corr's entry (one that collects a group too, unless
  /// \p KeepTicketed): it runs in no session after all.
  void forget(uint32_t Corr, bool KeepTicketed = false) {
    Entries.erase(std::remove_if(Entries.begin(), Entries.end(),
                                 [&](const Entry &En) {
                                   return En.Corr == Corr && !(KeepTicketed && En.Ticket);
                                 }),
                  Entries.end());
  }
  std::vector<uint8_t> Data;  ///< the counter-data image of up to Capacity ranges
  size_t Idle = 0;            ///< launches in a row without a ticket
  /// Records that a closed session completed, to be written (finalize)
  /// once M is released.
  std::vector<LaunchRecord> Completed;
};

/// A decoded range's values \p V of \p Metrics (in their order): the
/// evaluated ones into \p Values, the NaN ones named in \p NotEvaluated.
void splitValues(const std::vector<std::string> &Metrics, const std::vector<double> &V,
                 std::map<std::string, double> &Values, std::string &NotEvaluated);

/// Range \p I of a decoded session image evaluated into \p V ("" or why not).
using RangeEvaluator = std::function<std::string(size_t I, std::vector<double> &V)>;

struct SessionDelivery {
  uint64_t Delivered = 0; ///< groups whose values went to their record
  uint64_t Retried = 0;   ///< groups given back to be collected again
};

/// Entry i's ticket gets range i's values when \p Match (the session's
/// ranges are its entries' launches, one each, in order); otherwise, or
/// when range i does not evaluate, the group is retried (ApplicationReplay::
/// retry: the launch ran, so its record stays). Records this completes are
/// appended to \p Done.
SessionDelivery deliverSession(const std::vector<HwSession::Entry> &Entries, bool Match,
                               const std::vector<std::string> &Metrics,
                               const RangeEvaluator &Evaluate, ApplicationReplay &App,
                               std::vector<LaunchRecord> &Done);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_GROUPSESSION_H
