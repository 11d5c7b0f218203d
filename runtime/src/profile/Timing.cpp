//===- Timing.cpp - kernel time of launches outside the profiled range ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See Timing.h.
//===----------------------------------------------------------------------===//
#include "profile/Timing.h"

#include <algorithm>

namespace hroof {
namespace rt {

void TimingAggregate::add(const TimingLaunch &L) {
  auto Key = std::make_tuple(L.Range, L.Kernel, L.Device);
  auto It = Entries.find(Key);
  if (It == Entries.end()) {
    if (Entries.size() >= EntryLimit) {
      ++Dropped;
      return;
    }
    It = Entries.emplace(Key, Entry{}).first;
    It->second.FirstStartNs = L.StartNs;
  }
  Entry &E = It->second;
  ++E.Launches;
  E.Replayed += L.Replayed;
  E.TotalNs += L.DurationNs;
  E.FirstStartNs = std::min(E.FirstStartNs, L.StartNs);
  E.LastEndNs = std::max(E.LastEndNs, L.StartNs + L.DurationNs);
  E.Communication |= L.Communication;
}

nlohmann::json TimingAggregate::toJson() const {
  nlohmann::json Out = nlohmann::json::array();
  for (const auto &[Key, E] : Entries)
    Out.push_back({{"range", std::get<0>(Key)},
                   {"kernel", std::get<1>(Key)},
                   {"device", std::get<2>(Key)},
                   {"launches", E.Launches},
                   {"replayed", E.Replayed},
                   {"total_ns", E.TotalNs},
                   {"first_start_ns", E.FirstStartNs},
                   {"last_end_ns", E.LastEndNs},
                   {"communication", E.Communication}});
  return {{"range_filter", Filter}, {"entries", Out}, {"dropped", Dropped}};
}

} // namespace rt
} // namespace hroof
