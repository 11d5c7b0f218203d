//===- StaticPlacement.cpp - a kernel on the roofline before it runs -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "StaticPlacement.h"

#include "report/Format.h"

#include <iomanip>

namespace hroof {

namespace {

double toDouble(u128 V) { return double(V); }

/// Sum of the bounds of \p Keys in the warp-level traffic.
Bounds sumOf(const WarpTraffic &W, std::initializer_list<const char *> Keys) {
  Bounds B;
  for (const char *K : Keys)
    if (auto It = W.Counts.find(K); It != W.Counts.end()) {
      B.Lo += It->second.Lo;
      B.Hi += It->second.Hi;
    }
  return B;
}

/// Seconds the FLOPs of \p T need at the machine's ceilings (each precision
/// at its own), or -1 with \p Missing naming a precision without a ceiling.
double computeSeconds(const TotalVector &T, const report::Machine &M, std::string &Missing) {
  double S = 0;
  auto Add = [&](u128 Flops, const std::string &Key) {
    if (!Flops)
      return;
    auto It = M.Flops.find(Key);
    if (It == M.Flops.end() || It->second <= 0) {
      Missing += (Missing.empty() ? "" : ", ") + Key;
      return;
    }
    S += toDouble(Flops) / (It->second * 1e9);
  };
  for (int P = 0; P < NumPrecisions; ++P)
    Add(T[flopsIndex(Precision(P))], PrecisionNames[P]);
  for (int X = 0; X < NumTensorTypes; ++X)
    Add(T[tensorIndex(TensorType(X))], std::string("tensor_") + TensorTypeNames[X]);
  return S;
}

} // namespace

nlohmann::json staticPlacement(const KernelResult &R, const report::Machine &M) {
  if (!R.Total)
    return {{"problem", R.Problem.empty() ? "no launch" : R.Problem}};
  // A kernel that is not exact: its FLOPs' lower bound bounds the time from
  // below, and an AI is bounded by [lo FLOPs / hi bytes, hi FLOPs / lo
  // bytes] (no upper one where the FLOPs have none).
  const TotalVector &LoT = R.Bounds ? R.Bounds->Lo : *R.Total;
  u128 Flops = totalFlops(LoT);
  std::optional<u128> FlopsHi = Flops;
  if (R.Bounds) {
    FlopsHi = totalFlops(R.Bounds->Hi);
    for (int I = FlopsBase; I < SpecialBase; ++I)
      if (!R.Bounds->HasHi[I])
        FlopsHi.reset();
  }
  std::string Missing;
  double Compute = computeSeconds(LoT, M, Missing);
  nlohmann::json FlopsJ = toDouble(Flops);
  if (FlopsHi != Flops)
    FlopsJ = {toDouble(Flops), FlopsHi ? nlohmann::json(toDouble(*FlopsHi)) : nlohmann::json()};
  nlohmann::json P = {{"machine", M.Path}, {"flops", FlopsJ}, {"compute_seconds", Compute}};
  if (!Missing.empty())
    P["compute_note"] = "no ceiling in the machine file for: " + Missing;
  nlohmann::json Levels = nlohmann::json::object();
  double Bound = Compute;
  std::string Limit = "compute";
  if (R.Warp) {
    // L1: every global request moves whole 32-byte sectors; shared: every
    // wavefront is one 128-byte pass of the banks.
    // HBM: the footprint, each distinct byte read or written once.
    Bounds L1 = sumOf(*R.Warp, {"sectors.global.load", "sectors.global.store"});
    Bounds Sh = sumOf(*R.Warp, {"wavefronts.shared.load", "wavefronts.shared.store"});
    Bounds Hbm = sumOf(*R.Warp, {"footprint.global.load", "footprint.global.store"});
    for (auto [Level, B, Unit] :
         {std::tuple{"l1", L1, 32.0}, {"shared", Sh, 128.0}, {"hbm", Hbm, 1.0}}) {
      auto BW = M.Bandwidth.find(Level);
      if (B.Hi == 0 || BW == M.Bandwidth.end() || BW->second <= 0)
        continue;
      double Lo = toDouble(B.Lo) * Unit, Hi = toDouble(B.Hi) * Unit;
      double Seconds = Lo / (BW->second * 1e9);
      nlohmann::json L = {{"bytes", Lo == Hi ? nlohmann::json(Lo) : nlohmann::json({Lo, Hi})},
                          {"seconds_at_ceiling", Seconds},
                          {"ceiling_gb_s", BW->second}};
      if (FlopsHi && *FlopsHi && Lo > 0)
        L["ai"] = toDouble(*FlopsHi) / Lo;
      if (Lo != Hi || FlopsHi != Flops)
        L["ai_low"] = toDouble(Flops) / Hi;
      Levels[Level] = L;
      if (Seconds > Bound) {
        Bound = Seconds;
        Limit = Level;
      }
    }
    if (!R.Warp->FootprintNote.empty())
      P["hbm"] = "not placed: " + R.Warp->FootprintNote;
  } else {
    P["levels_note"] = "no warp-level traffic: " + R.WarpProblem;
  }
  P["levels"] = Levels;
  P["lower_bound_seconds"] = Bound;
  P["limited_by"] = Limit;
  return P;
}

void printStaticPlacement(std::ostream &OS, const nlohmann::json &P) {
  if (P.contains("problem")) {
    OS << "  roofline placement: not evaluated: " << P["problem"].get<std::string>() << "\n";
    return;
  }
  OS << "  roofline placement (static, " << P["machine"].get<std::string>() << "):\n";
  auto N = [&](const nlohmann::json &V) { return report::fmtNum(V.get<double>(), 4); };
  OS << "    compute  " << report::fmtNum(P["compute_seconds"].get<double>() * 1e6, 4)
     << " us at the FLOP ceilings\n";
  for (auto It = P["levels"].begin(); It != P["levels"].end(); ++It) {
    const auto &L = It.value();
    OS << "    " << std::left << std::setw(7) << It.key() << std::right << " bytes ";
    if (L["bytes"].is_array())
      OS << N(L["bytes"][0]) << ".." << N(L["bytes"][1]);
    else
      OS << N(L["bytes"]);
    if (L.contains("ai_low")) // bounds: [lo, hi], or no upper one
      OS << "  AI " << N(L["ai_low"]) << ".." << (L.contains("ai") ? N(L["ai"]) : "no bound");
    else if (L.contains("ai"))
      OS << "  AI " << N(L["ai"]);
    OS << "  " << report::fmtNum(L["seconds_at_ceiling"].get<double>() * 1e6, 4) << " us at "
       << N(L["ceiling_gb_s"]) << " GB/s\n";
  }
  for (const char *Note : {"compute_note", "levels_note", "hbm"})
    if (P.contains(Note))
      OS << "    " << P[Note].get<std::string>() << "\n";
  OS << "    lower bound on the time: "
     << report::fmtNum(P["lower_bound_seconds"].get<double>() * 1e6, 4) << " us (limited by "
     << P["limited_by"].get<std::string>() << ")\n";
}

} // namespace hroof
