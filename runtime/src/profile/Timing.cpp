//===- Timing.cpp - kernel time of launches outside the profiled range ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See Timing.h.
//===----------------------------------------------------------------------===//
#include "profile/Timing.h"

#include "hroof/Communication.h"
#include "hroof/ProfileKeys.h"

#include <algorithm>

namespace hroof {
namespace rt {

namespace pk = hroof::profile_keys;

void TimingAggregate::add(const TimingLaunch &L) {
  auto Key = std::make_tuple(L.Range, L.Kernel, L.Device);
  auto It = Entries.find(Key);
  if (It == Entries.end()) {
    if (Entries.size() >= EntryLimit) {
      ++Dropped;
      return;
    }
    It = Entries.emplace(Key, Entry{}).first;
    // Once per entry, not per launch: a search of the kernel's name.
    It->second.Communication = bool(communicationKernel(L.Kernel));
  }
  Entry &E = It->second;
  ++E.Launches;
  E.Replayed += L.Replayed;
  if (L.StartNs == 0)
    return; // not timed (a launch while no activity records came)
  E.TotalNs += L.DurationNs;
  E.FirstStartNs = E.FirstStartNs ? std::min(E.FirstStartNs, L.StartNs) : L.StartNs;
  E.LastEndNs = std::max(E.LastEndNs, L.StartNs + L.DurationNs);
}

nlohmann::json TimingAggregate::toJson() const {
  nlohmann::json Out = nlohmann::json::array();
  for (const auto &[Key, E] : Entries)
    Out.push_back({{pk::Range, std::get<0>(Key)},
                   {pk::Kernel, std::get<1>(Key)},
                   {pk::Device, std::get<2>(Key)},
                   {pk::Launches, E.Launches},
                   {pk::Replayed, E.Replayed},
                   {pk::TotalNs, E.TotalNs},
                   {pk::FirstStartNs, E.FirstStartNs},
                   {pk::LastEndNs, E.LastEndNs},
                   {pk::Communication, E.Communication}});
  return {{pk::RangeFilter, Filter}, {pk::Entries, Out}, {pk::Dropped, Dropped}};
}

} // namespace rt
} // namespace hroof
