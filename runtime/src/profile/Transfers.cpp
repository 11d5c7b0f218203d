//===- Transfers.cpp - copy and memset records, JSON ----------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "profile/Transfers.h"

#include "hroof/ProfileKeys.h"

namespace hroof {
namespace rt {

namespace pk = hroof::profile_keys;

nlohmann::json transferToJson(const TransferRecord &R) {
  nlohmann::json J = {{pk::Kind, R.Kind},
                      {pk::Bytes, R.Bytes},
                      {pk::StartNs, R.StartNs},
                      {pk::DurationNs, R.DurationNs},
                      {pk::GBytesPerS, achievedGBps(R.Bytes, R.DurationNs)},
                      {pk::Device, R.Device},
                      {pk::Stream, R.Stream},
                      {pk::Correlation, R.Correlation},
                      {pk::Range, R.Range}};
  if (R.Kind == "PtoP") {
    J[pk::SrcDevice] = R.SrcDevice;
    J[pk::DstDevice] = R.DstDevice;
  }
  return J;
}

nlohmann::json TransferAggregate::toJson(const std::string &Kind) const {
  return {{pk::Kind, Kind},
          {pk::Count, Count},
          {pk::Bytes, Bytes},
          {pk::DurationNs, TotalNs},
          {pk::GBytesPerS, achievedGBps(Bytes, TotalNs)}};
}

} // namespace rt
} // namespace hroof
