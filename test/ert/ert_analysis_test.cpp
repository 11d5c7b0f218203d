// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of hroof-ert's sweep analysis (plateau detection, ridge) on synthetic and on
// recorded sweeps (the H100 run committed in docs/machines/).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "analysis.h"

using namespace ert;

TEST(ErtMedian, OddEvenEmpty) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0);
}

TEST(ErtPlateau, TwoLevelsWithTransition) {
  // a cache level at ~1000, a transition, memory at ~300
  std::vector<Point> s = {{1, 980},  {2, 1010}, {4, 1000},  {8, 995},   {16, 700},
                          {32, 420}, {64, 310}, {128, 300}, {256, 295}, {512, 305}};
  auto p = find_plateaus(s, 0.10, 3);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].first, 0u);
  EXPECT_EQ(p[0].last, 3u);
  EXPECT_NEAR(p[0].value, 997.5, 1e-9);
  EXPECT_EQ(p[1].first, 6u);
  EXPECT_EQ(p[1].last, 9u);
  EXPECT_NEAR(p[1].value, 302.5, 1e-9);
  Plateau hi, last;
  ASSERT_TRUE(highest_plateau(p, &hi));
  ASSERT_TRUE(last_plateau(p, &last));
  EXPECT_NEAR(hi.value, 997.5, 1e-9);
  EXPECT_NEAR(last.value, 302.5, 1e-9);
}

TEST(ErtPlateau, RampUpThenPlateau) {
  // launch-overhead limited small sizes (rising), then a flat level
  std::vector<Point> s = {{1, 10}, {2, 20}, {4, 40}, {8, 80}, {16, 95}, {32, 100}, {64, 98}};
  auto p = find_plateaus(s, 0.10, 3);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].first, 4u); // 95/80 > 1.1: the ramp point 80 is a transition
  EXPECT_EQ(p[0].last, 6u);
  EXPECT_NEAR(p[0].value, 98, 1e-9);
}

TEST(ErtPlateau, NoPlateauTooFewPoints) {
  std::vector<Point> s = {{1, 100}, {2, 50}, {4, 25}, {8, 12}};
  EXPECT_TRUE(find_plateaus(s, 0.10, 3).empty());
  Plateau p;
  EXPECT_FALSE(highest_plateau({}, &p));
  EXPECT_TRUE(find_plateaus({}, 0.1, 3).empty());
}

TEST(ErtPlateau, ToleranceIsMaxOverMin) {
  std::vector<Point> s = {{1, 100}, {2, 109}, {4, 111}, {8, 104}};
  auto p = find_plateaus(s, 0.10, 3); // 111/100 > 1.1: the run starting at 100 stops at 109
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].first, 1u);
  EXPECT_EQ(p[0].last, 3u);
}

TEST(ErtRidge, Synthetic) {
  // roofline min(1000 GB/s * ai, 50000 GFLOP/s): ridge at 50 FLOP/B
  std::vector<double> ai = {0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512}, gf, gb;
  for (double a : ai) {
    double f = std::min(1000 * a, 50000.0);
    gf.push_back(f);
    gb.push_back(f / a);
  }
  RidgeResult r = find_ridge(ai, gf, gb);
  EXPECT_NEAR(r.bw_plateau, 1000, 1e-6);
  EXPECT_NEAR(r.flops_plateau, 50000, 1e-6);
  EXPECT_NEAR(r.ridge_ai, 50, 1e-6);
  EXPECT_DOUBLE_EQ(r.knee_ai, 64);
}

TEST(ErtPlateau, MemoryPlateauTrimsSmallWorkingSets) {
  // the last plateau starts at 64 (still partly cached); only x >= 100 counts
  std::vector<Point> s = {{16, 7000},  {32, 7100},  {48, 7050}, {64, 3300},
                          {128, 3100}, {256, 3090}, {512, 3095}};
  double v = 0;
  size_t n = 0;
  Plateau p;
  ASSERT_TRUE(memory_plateau(s, 100, &v, &p, &n));
  EXPECT_EQ(p.first, 3u);
  EXPECT_EQ(n, 3u);
  EXPECT_DOUBLE_EQ(v, 3095);
  EXPECT_FALSE(memory_plateau(s, 1000, &v, &p, &n)); // no point beyond 1000
}

// ---- Recorded sweeps: the H100 run committed in docs/machines/ (2026-11-22) ----
#include <nlohmann/json.hpp>

namespace {
const std::string kDir = std::string(ERT_MACHINES_DIR) + "/h100-80gb-hbm3";
nlohmann::json machine() {
  std::ifstream in(std::string(ERT_MACHINES_DIR) + "/h100-80gb-hbm3.json");
  return nlohmann::json::parse(in);
}
double ceiling(const nlohmann::json &m, const char *group, const char *key) {
  return m["ceilings"][group][key]["value"].get<double>();
}
} // namespace

// The CSVs carry values rounded to 0.1, the JSON the plateau of unrounded values: 0.2 apart at
// most.
TEST(ErtRecordedH100, L1Plateau) {
  auto m = machine();
  auto pts = read_csv_columns(kDir + "/l1_sweep.csv", "ws_bytes", "gbs");
  ASSERT_GE(pts.size(), 10u);
  Plateau p;
  ASSERT_TRUE(highest_plateau(find_plateaus(pts, 0.10, 3), &p));
  EXPECT_NEAR(p.value, ceiling(m, "bandwidth", "l1"), 0.2);
  EXPECT_EQ(p.x_begin, 64 * 1024); // below 64 KiB per SM the sweep is latency/occupancy bound
  EXPECT_EQ(p.x_end, 384 * 1024);  // above, the working set spills out of L1
}

TEST(ErtRecordedH100, SharedPlateau) {
  auto m = machine();
  auto pts = read_csv_columns(kDir + "/shared_sweep.csv", "smem_bytes_per_block", "gbs");
  Plateau p;
  ASSERT_TRUE(highest_plateau(find_plateaus(pts, 0.10, 3), &p));
  EXPECT_NEAR(p.value, ceiling(m, "bandwidth", "shared"), 0.2);
}

TEST(ErtRecordedH100, L2AndHbmPlateaus) {
  auto m = machine();
  auto pts = read_csv_columns(kDir + "/global_sweep.csv", "ws_bytes", "gbs");
  auto pl = find_plateaus(pts, 0.10, 3);
  ASSERT_GE(pl.size(), 2u);
  Plateau l2;
  ASSERT_TRUE(highest_plateau(pl, &l2));
  // The L2 ceiling is the best point of the slice sweep (L2SliceSweepBest);
  // the grid-stride sweep's plateau must not exceed it.
  EXPECT_LE(l2.value, ceiling(m, "bandwidth", "l2") + 0.2);
  EXPECT_LE(l2.x_end, m["device"]["l2_bytes"].get<double>()); // the L2 plateau ends inside L2
  double hbm = 0;
  size_t n = 0;
  Plateau ph;
  ASSERT_TRUE(memory_plateau(pts, 2.0 * m["device"]["l2_bytes"].get<double>(), &hbm, &ph, &n));
  EXPECT_NEAR(hbm, ceiling(m, "bandwidth", "hbm"), 0.2);
  EXPECT_GT(ph.x_begin, l2.x_end);
  // the levels are ordered
  EXPECT_GT(ceiling(m, "bandwidth", "l1"), l2.value);
  EXPECT_GT(l2.value, 2 * hbm);
}

TEST(ErtRecordedH100, Ridge) {
  auto m = machine();
  auto f = read_csv_columns(kDir + "/ridge_sweep.csv", "flop_per_byte", "gflops");
  auto b = read_csv_columns(kDir + "/ridge_sweep.csv", "flop_per_byte", "gbs");
  std::vector<double> ai, gf, gb;
  for (size_t i = 0; i < f.size(); ++i) {
    ai.push_back(f[i].x);
    gf.push_back(f[i].y);
    gb.push_back(b[i].y);
  }
  RidgeResult r = find_ridge(ai, gf, gb);
  EXPECT_NEAR(r.ridge_ai, m["ridge"]["ridge_flop_per_byte"].get<double>(), 0.01);
  EXPECT_NEAR(r.bw_plateau, m["ridge"]["bandwidth_plateau_gbs"].get<double>(), 1.0);
  EXPECT_NEAR(r.flops_plateau, m["ridge"]["flops_plateau_gflops"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r.knee_ai, m["ridge"]["knee_flop_per_byte"].get<double>());
}

// The L2 ceiling: the best verified point of the slice sweep with L1 bypassed
// (l2_sweep.csv, recorded 2026-11-25, docs/validation/ert.md).
TEST(ErtRecordedH100, L2SliceSweepBest) {
  std::ifstream in(kDir + "/l2_sweep.csv");
  ASSERT_TRUE(in.good());
  std::string line;
  std::getline(in, line);
  auto split = [](const std::string &l) {
    std::vector<std::string> out;
    std::string cell;
    for (char c : l + ",")
      if (c == ',') {
        out.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    return out;
  };
  std::vector<std::string> head = split(line);
  auto col = [&](const char *name) {
    return size_t(std::find(head.begin(), head.end(), name) - head.begin());
  };
  size_t gbs = col("gbs"), bypass = col("l1_bypass"), verified = col("verified");
  ASSERT_LT(std::max({gbs, bypass, verified}), head.size());
  double best = 0;
  size_t rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> r = split(line);
    if (r.size() != head.size())
      continue;
    ++rows;
    if (r[bypass] == "1" && r[verified] == "1")
      best = std::max(best, std::stod(r[gbs]));
  }
  EXPECT_GE(rows, 10u);
  EXPECT_NEAR(best, ceiling(machine(), "bandwidth", "l2"), 0.2);
}
