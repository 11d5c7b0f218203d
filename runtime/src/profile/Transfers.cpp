//===- Transfers.cpp - copy and memset records, JSON ----------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "profile/Transfers.h"

namespace hroof {
namespace rt {

nlohmann::json transferToJson(const TransferRecord &R) {
  nlohmann::json J = {{"kind", R.Kind},
                      {"bytes", R.Bytes},
                      {"start_ns", R.StartNs},
                      {"duration_ns", R.DurationNs},
                      {"gbytes_per_s", achievedGBps(R.Bytes, R.DurationNs)},
                      {"device", R.Device},
                      {"stream", R.Stream},
                      {"correlation", R.Correlation},
                      {"range", R.Range}};
  if (R.Kind == "PtoP") {
    J["src_device"] = R.SrcDevice;
    J["dst_device"] = R.DstDevice;
  }
  return J;
}

nlohmann::json TransferAggregate::toJson(const std::string &Kind) const {
  return {{"kind", Kind},
          {"count", Count},
          {"bytes", Bytes},
          {"duration_ns", TotalNs},
          {"gbytes_per_s", achievedGBps(Bytes, TotalNs)}};
}

} // namespace rt
} // namespace hroof
