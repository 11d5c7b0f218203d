//===- WarpJson.cpp - the warp-level traffic as JSON ----------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hroof/WarpModel.h"

#include <algorithm>

namespace hroof {

bool WarpTraffic::exact() const {
  return Inexact.empty() && std::all_of(Counts.begin(), Counts.end(),
                                        [](const auto &KV) { return KV.second.exact(); });
}

nlohmann::json warpTrafficToJson(const WarpTraffic &T) {
  nlohmann::json Counts = nlohmann::json::object();
  auto Num = [](u128 V) -> nlohmann::json {
    if (V >> 64)
      return double(V);
    return uint64_t(V);
  };
  for (const auto &[Key, B] : T.Counts) {
    size_t P1 = Key.find('.'), P2 = Key.rfind('.');
    nlohmann::json V = B.exact() ? Num(B.Lo) : nlohmann::json{{"lo", Num(B.Lo)}, {"hi", Num(B.Hi)}};
    Counts[Key.substr(0, P1)][Key.substr(P1 + 1, P2 - P1 - 1)][Key.substr(P2 + 1)] = V;
  }
  nlohmann::json J = {
      {"exact", T.exact()}, {"counts", Counts}, {"inexact", T.Inexact}, {"assumes", T.Assumptions}};
  if (!T.FootprintNote.empty())
    J["footprint_note"] = T.FootprintNote;
  return J;
}

} // namespace hroof
