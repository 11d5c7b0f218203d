// Unit tests of hroof-ert's sweep analysis (plateau detection, ridge) on synthetic and on
// recorded sweeps (ert/test/data/, copied from the H100 run in docs/machines/).
#include <gtest/gtest.h>

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
  std::vector<Point> s = {{1, 980}, {2, 1010}, {4, 1000}, {8, 995}, {16, 700}, {32, 420},
                          {64, 310}, {128, 300}, {256, 295}, {512, 305}};
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
  EXPECT_EQ(p[0].first, 4u);  // 95/80 > 1.1: the ramp point 80 is a transition
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
  auto p = find_plateaus(s, 0.10, 3);  // 111/100 > 1.1: the run starting at 100 stops at 109
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
