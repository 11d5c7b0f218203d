//===- Insights.cpp - deep-learning insight lines of kernels and ranges ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Insights.h"

namespace hroof {
namespace report {

namespace {

double bytesAt(const std::map<std::string, double> &Bytes, const char *Level) {
  auto It = Bytes.find(Level);
  return It == Bytes.end() ? 0 : It->second;
}

/// The share of \p Upper's bytes that did not reach the next level; -1 when
/// either is unknown or the next moved more (no hierarchy to read).
double servedShare(double Upper, double Next) {
  return Upper > 0 && Next > 0 && Next <= Upper ? 1 - Next / Upper : -1;
}

/// The Tensor Core opportunity of \p I: CUDA-core FLOPs only, above their
/// ridge point at HBM.
void tensorCoreOpportunity(Insight &I, const std::map<std::string, double> &Flops,
                           const std::map<std::string, double> &Bytes, const Machine &M) {
  double Total = 0, Secs = 0;
  for (const auto &[P, V] : Flops) {
    if (V <= 0)
      continue;
    if (P != "f32" && P != "f16" && P != "bf16")
      return; // Tensor Core FLOPs already, or f64
    auto It = M.Flops.find(P);
    if (It == M.Flops.end())
      return;
    Total += V, Secs += V / It->second;
    I.CudaCorePrecisions += (I.CudaCorePrecisions.empty() ? "" : "+") + P;
  }
  auto Hbm = M.Bandwidth.find("hbm");
  double B =
      bytesAt(Bytes, "HBM") > 0 ? bytesAt(Bytes, "HBM") : bytesAt(Bytes, "global (requested)");
  if (Total <= 0 || Secs <= 0 || B <= 0 || Hbm == M.Bandwidth.end())
    return;
  double Ridge = Total / Secs / Hbm->second; // FLOP/s over bytes/s at HBM
  I.AI = Total / B;
  if (I.AI > Ridge)
    I.RidgeAI = Ridge;
}

std::string pct(double Share) { return fmtFixed(100 * Share, 1) + "%"; }

} // namespace

Insight insightOf(const std::map<std::string, double> &FlopsByPrecision,
                  const std::map<std::string, double> &BytesByLevel, const Machine *M) {
  Insight I;
  double L1 = bytesAt(BytesByLevel, "L1"), L2 = bytesAt(BytesByLevel, "L2"),
         Hbm = bytesAt(BytesByLevel, "HBM");
  I.L1HitShare = servedShare(L1, L2);
  I.L2HitShare = servedShare(L2, Hbm);
  I.PoorL1Locality = I.L1HitShare >= 0 && I.L1HitShare < PoorL1Share && I.L2HitShare >= HighL2Share;
  if (M)
    tensorCoreOpportunity(I, FlopsByPrecision, BytesByLevel, *M);
  return I;
}

std::map<std::string, double> levelBytes(const std::vector<LevelPoint> &Levels) {
  std::map<std::string, double> Out;
  for (const LevelPoint &L : Levels)
    Out[L.Level] += L.Bytes;
  return Out;
}

std::string insightLabel(const Insight &I) {
  std::string L = I.RidgeAI > 0 ? "TC opportunity" : "";
  if (I.PoorL1Locality)
    L += (L.empty() ? "" : ", ") + std::string("poor L1 locality");
  return L;
}

std::string insightNote(const Insight &I, const std::string &Time) {
  std::string N;
  if (I.RidgeAI > 0)
    N = "Tensor Core opportunity: its FLOPs are all on CUDA cores (" + I.CudaCorePrecisions +
        ") at AI " + fmtNum(I.AI) + ", above their ridge point " + fmtNum(I.RidgeAI) +
        " FLOP/B, where Tensor Cores would raise its compute roof";
  if (I.PoorL1Locality)
    N += (N.empty() ? "" : "; ") + std::string("cache locality: L1 served ") + pct(I.L1HitShare) +
         " of its L1 bytes, L2 " + pct(I.L2HitShare) +
         " of its L2 bytes: data reused from L2 that L1 does not keep";
  return N.empty() ? N : N + " (" + Time + ")";
}

nlohmann::json insightJson(const Insight &I) {
  auto Share = [](double S) { return S < 0 ? nlohmann::json(nullptr) : nlohmann::json(S); };
  return {
      {"l1_hit_share", Share(I.L1HitShare)},
      {"l2_hit_share", Share(I.L2HitShare)},
      {"poor_l1_locality", I.PoorL1Locality},
      {"tensor_core_opportunity", I.RidgeAI > 0},
      {"cuda_core_ridge_ai", I.RidgeAI > 0 ? nlohmann::json(I.RidgeAI) : nlohmann::json(nullptr)},
      {"ai", I.AI > 0 ? nlohmann::json(I.AI) : nlohmann::json(nullptr)},
      {"label", insightLabel(I)}};
}

} // namespace report
} // namespace hroof
