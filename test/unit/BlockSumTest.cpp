// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of the closed-form sums over a dimension's blocks (BlockSum.h):
// floorSum and sumDimensionClosedForm against plain loops on small, random
// launches; sumOverThreads with and without the closed form.
#include "../../common/src/BlockSum.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace hroof;
using nlohmann::json;

namespace {

json sreg(const std::string &S) { return json::array({"sreg", S}); }
/// Random affine form a*tid.x + b*ctaid.x + c*ntid.x*ctaid.x + d (+ arg 0).
json randomAffine(std::mt19937_64 &R, bool WithArg) {
  std::uniform_int_distribution<int> Coef(-3, 3), Const(-60, 60);
  json E = Const(R);
  auto Add = [&](json Term) { E = json::array({"add", E, Term}); };
  Add(json::array({"mul", Coef(R), sreg("tid.x")}));
  Add(json::array({"mul", Coef(R), sreg("ctaid.x")}));
  if (R() % 2)
    Add(json::array({"mul", Coef(R), json::array({"mul", sreg("ctaid.x"), sreg("ntid.x")})}));
  if (WithArg)
    Add(json::array({"arg", 0}));
  return E;
}
json globalIndex() {
  return json::array({"add", json::array({"mul", sreg("ctaid.x"), sreg("ntid.x")}), sreg("tid.x")});
}
/// A compare of two affine forms; with \p OnlyGlobalIndex, forms of
/// g = ctaid*ntid + tid only (the shape the closed form sums counts over).
json randomCompare(std::mt19937_64 &R, bool OnlyGlobalIndex) {
  static const char *Preds[] = {"slt", "sle", "sgt", "sge", "eq", "ne", "ult", "uge"};
  std::string P = Preds[R() % 8];
  bool Unsigned = P[0] == 'u';
  // Unsigned compares of possibly negative values wrap: kept to the
  // global index and a non-negative bound, where they do not.
  json Scaled = json::array({"add", json::array({"mul", int64_t(R() % 5) - 2, globalIndex()}),
                             int64_t(R() % 80) - 40});
  json A = Unsigned ? globalIndex() : OnlyGlobalIndex ? Scaled : randomAffine(R, R() % 2);
  json B = Unsigned || (OnlyGlobalIndex && R() % 2) ? json(int64_t(R() % 200))
           : OnlyGlobalIndex                          ? json::array({"arg", 0})
                                                      : randomAffine(R, false);
  json C = json::array({"icmp", P, 64, A, B});
  return R() % 4 == 0 ? json::array({"not", C}) : C;
}
/// A trip count of g = ctaid*ntid + tid: max(K, ceildiv(n - g, S)), the
/// 64-bit grid-stride form LLVM's ScalarEvolution gives, or an affine one.
json randomCount(std::mt19937_64 &R) {
  json G = globalIndex(), N = json::array({"arg", 0});
  json Stride = json::array({"mul", sreg("nctaid.x"), sreg("ntid.x")});
  switch (R() % 3) {
  case 0:
    return json::array({"max", int64_t(R() % 3),
                        json::array({"ceildiv", json::array({"sub", N, G}), int64_t(1 + R() % 7)})});
  case 1: { // (udiv(smax(g+S, n) - (g+S) - umin(1, d), S) + umin(1, d)) + 1
    json Start = json::array({"add", G, Stride});
    json D = json::array({"sub", json::array({"smax", 64, Start, N}), Start});
    json U = json::array({"umin", 64, 1, D});
    json Q = json::array({"udiv", 64, json::array({"sub", D, U}), Stride});
    return json::array({"add", json::array({"add", Q, U}), 1});
  }
  default:
    return json::array({"sub", json::array({"mul", 2, G}), int64_t(R() % 50)}); // < 0 for small g
  }
}

/// Every thread of the x dimension; nullopt where a multiplicity is negative.
std::optional<u128> bruteForce(const std::vector<ExprPtr> &Fs, const LaunchShape &L, EvalEnv Env) {
  Env.NTid = L.Block;
  Env.NCtaId = L.Grid;
  u128 S = 0;
  for (int64_t B = 0; B < L.Grid[0]; ++B)
    for (int64_t T = 0; T < L.Block[0]; ++T) {
      Env.CtaId = {B, 0, 0};
      Env.Tid = {T, 0, 0};
      __int128 P = 1;
      for (const ExprPtr &F : Fs)
        P *= F->eval(Env);
      if (P < 0)
        return std::nullopt;
      S += u128(P);
    }
  return S;
}

} // namespace

TEST(BlockSum, FloorSumMatchesLoop) {
  std::mt19937_64 R(7);
  for (int I = 0; I < 2000; ++I) {
    i128 N = R() % 60, M = 1 + R() % 40, A = int64_t(R() % 200) - 100, B = int64_t(R() % 400) - 200;
    i128 Want = 0;
    for (i128 K = 0; K < N; ++K) {
      i128 X = A * K + B, Q = X / M;
      Want += (X % M != 0 && X < 0) ? Q - 1 : Q;
    }
    ASSERT_EQ(int64_t(floorSum(N, M, A, B)), int64_t(Want))
        << int64_t(N) << " " << int64_t(M) << " " << int64_t(A) << " " << int64_t(B);
  }
}

TEST(BlockSum, RandomGuardsAndCountsMatchBruteForce) {
  std::mt19937_64 R(20261125);
  int Closed = 0, WithCount = 0, Negative = 0;
  std::map<std::string, std::string> WhyNot; // shown when too few cases had a closed form
  for (int Case = 0; Case < 3000; ++Case) {
    LaunchShape L;
    L.Grid = {int64_t(1 + R() % 23), 1, 1};
    L.Block = {int64_t(1 + R() % 37), 1, 1};
    EvalEnv Env;
    Env.Args = {int64_t(R() % 400) - 50};
    Env.HasArg = {true};
    std::vector<ExprPtr> Fs;
    bool Count = R() % 2;
    for (int K = int(R() % 4); K > 0; --K)
      Fs.push_back(Expr::parse(randomCompare(R, Count)));
    if (Count)
      Fs.push_back(Expr::parse(randomCount(R)));
    auto Want = bruteForce(Fs, L, Env);
    std::string Why;
    std::optional<u128> Got;
    try {
      Got = sumDimensionClosedForm(0, Fs, L, Env, Why);
    } catch (const ExprError &) {
      ASSERT_FALSE(Want) << "closed form refused a launch without negative counts";
      ++Negative;
      continue;
    }
    if (!Got) {
      std::string &Example = WhyNot[Why.substr(0, 60)];
      if (Example.empty())
        for (const ExprPtr &F : Fs)
          Example += " * " + F->str();
      continue;
    }
    ++Closed;
    WithCount += Count;
    ASSERT_TRUE(Want) << "closed form summed negative multiplicities, case " << Case;
    std::string Shown;
    for (const ExprPtr &F : Fs)
      Shown += " * " + F->str();
    ASSERT_EQ(u128ToString(*Got), u128ToString(*Want))
        << "case " << Case << ": grid " << L.Grid[0] << " block " << L.Block[0] << " arg "
        << Env.Args[0] << Shown;
  }
  // The closed form must actually apply to most of these shapes.
  std::string Reasons;
  for (const auto &[Why, N] : WhyNot)
    Reasons += "\n  " + Why + ", e.g." + N;
  EXPECT_GT(Closed, 2000) << Reasons;
  EXPECT_GT(WithCount, 800) << Reasons;
  EXPECT_GT(Negative, 0);
}

TEST(BlockSum, SumOverThreadsWithAndWithoutClosedForm) {
  std::mt19937_64 R(99);
  for (int Case = 0; Case < 300; ++Case) {
    LaunchShape L;
    L.Grid = {int64_t(1 + R() % 30), int64_t(1 + R() % 3), 1};
    L.Block = {int64_t(1 + R() % 40), 1, 1};
    EvalEnv Env;
    Env.Args = {int64_t(R() % 500)};
    Env.HasArg = {true};
    std::vector<ExprPtr> Fs{Expr::parse(randomCompare(R, R() % 2)), Expr::parse(randomCount(R))};
    ThreadSumOptions Walk;
    Walk.ClosedForm = false;
    std::string A, B;
    try {
      A = u128ToString(sumOverThreads(Fs, L, Env));
    } catch (const ExprError &E) {
      A = std::string("error");
    }
    try {
      B = u128ToString(sumOverThreads(Fs, L, Env, Walk));
    } catch (const ExprError &E) {
      B = std::string("error");
    }
    ASSERT_EQ(A, B) << "case " << Case;
  }
}

// The largest legal grid: count of g < n over 2^31 - 1 blocks of 1024,
// n = 10^12 (64-bit index): min(n, threads) = 10^12, derived by hand; and a
// grid-stride loop visits each of n = 10^13 elements once.
TEST(BlockSum, LargestGridInClosedForm) {
  LaunchShape L;
  L.Grid = {2147483647, 65535, 65535};
  L.Block = {1024, 1, 1};
  EvalEnv Env;
  Env.Args = {1000000000000};
  Env.HasArg = {true};
  json Guard = json::array({"icmp", "slt", 64, globalIndex(), json::array({"arg", 0})});
  std::vector<ExprPtr> Fs{Expr::parse(Guard)};
  ThreadSumOptions NoWalk;
  NoWalk.MaxBlockWalk = 0;
  EXPECT_EQ(u128ToString(sumOverThreads(Fs, L, Env, NoWalk)),
            u128ToString(u128(1000000000000) * 65535 * 65535));
  Env.Args = {10000000000000};
  std::mt19937_64 R(1);
  json Count;
  while (true) { // the ScalarEvolution form (case 1 of randomCount)
    Count = randomCount(R);
    if (Count[0] == "add" && Count[1][0] == "add")
      break;
  }
  Fs.push_back(Expr::parse(Count));
  L.Grid = {2147483647, 1, 1};
  EXPECT_EQ(u128ToString(sumOverThreads(Fs, L, Env, NoWalk)), "10000000000000");
  // A 32-bit index wraps in this launch: its blocks repeat every 2^22. Over
  // 2^41 - 1024 threads it runs 511 times through its 2^32 values, then
  // through all but the last 1024 (-1024..-1); i < 1000 holds for the 2^31
  // negative values and 0..999 of each run.
  json Narrow = json::array({"icmp", "slt", 32, globalIndex(), json::array({"arg", 0})});
  Env.Args = {1000};
  u128 Run = (u128(1) << 31) + 1000;
  EXPECT_EQ(u128ToString(sumOverThreads({Expr::parse(Narrow)}, L, Env)),
            u128ToString(511 * Run + Run - 1024));
  // With a trip count that grows with the wrapped index (the 32-bit
  // grid-stride loop) nothing repeats: refused at once, not walked.
  json Stride = json::array({"mul", sreg("nctaid.x"), sreg("ntid.x")});
  json Trips = json::array(
      {"max", 1, json::array({"ceildiv", json::array({"sub", json::array({"arg", 0}), globalIndex()}),
                              Stride})});
  EXPECT_THROW(sumOverThreads({Expr::parse(Narrow), Expr::parse(Trips)}, L, Env), ExprError);
}

// Narrow compares whose index wraps (8 bits here, as a 32-bit index does in
// a large grid): the walk reduces each block's part modulo 2^W instead of
// evaluating thread by thread; the sums must match the plain loop.
TEST(BlockSum, WrappedNarrowIndexWalkMatchesBruteForce) {
  std::mt19937_64 R(5);
  static const char *Preds[] = {"slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  for (int Case = 0; Case < 400; ++Case) {
    LaunchShape L;
    L.Grid = {int64_t(1 + R() % 40), 1, 1};
    L.Block = {int64_t(1 + R() % 48), 1, 1};
    EvalEnv Env;
    Env.Args = {int64_t(R() % 256) - 128};
    Env.HasArg = {true};
    json Cmp = json::array({"icmp", Preds[R() % 8], 8, globalIndex(), json::array({"arg", 0})});
    std::vector<ExprPtr> Fs{Expr::parse(Cmp)};
    ThreadSumOptions Walk;
    Walk.ClosedForm = R() % 2;
    auto Want = bruteForce(Fs, L, Env);
    ASSERT_TRUE(Want);
    ASSERT_EQ(u128ToString(sumOverThreads(Fs, L, Env, Walk)), u128ToString(*Want))
        << "case " << Case << ": " << Fs[0]->str() << " grid " << L.Grid[0] << " block "
        << L.Block[0] << " arg " << Env.Args[0];
  }
}

// Blocks that repeat: an 8-bit compare of ctaid*ntid + tid repeats every
// 2^(8 - log2 ntid) blocks (ntid a power of two) or 2^8 blocks; with the walk
// limited below the grid, one period is walked and scaled. Against the loop.
TEST(BlockSum, PeriodicBlocksMatchBruteForce) {
  std::mt19937_64 R(11);
  static const char *Preds[] = {"slt", "sge", "ult", "uge"};
  int Scaled = 0;
  for (int Case = 0; Case < 200; ++Case) {
    LaunchShape L;
    L.Grid = {int64_t(300 + R() % 700), 1, 1};
    L.Block = {int64_t(1) << (R() % 6), 1, 1};
    if (R() % 3 == 0)
      L.Block[0] += 1; // not a power of two: period 2^8
    EvalEnv Env;
    Env.Args = {int64_t(R() % 256) - 128};
    Env.HasArg = {true};
    json Cmp = json::array({"icmp", Preds[R() % 4], 8, globalIndex(), json::array({"arg", 0})});
    std::vector<ExprPtr> Fs{Expr::parse(Cmp)};
    auto Period = blockPeriodLog2(0, Fs, Env);
    ASSERT_TRUE(Period);
    ThreadSumOptions Walk;
    Walk.ClosedForm = false;
    Walk.MaxBlockWalk = 256; // below every grid here: only one period is walked
    Scaled += (int64_t(1) << *Period) < L.Grid[0];
    ASSERT_EQ(u128ToString(sumOverThreads(Fs, L, Env, Walk)), u128ToString(*bruteForce(Fs, L, Env)))
        << "case " << Case << ": grid " << L.Grid[0] << " block " << L.Block[0] << " "
        << Fs[0]->str();
  }
  EXPECT_EQ(Scaled, 200);
  // ceildiv of a value that grows with ctaid repeats nowhere.
  json Count = json::array({"ceildiv", globalIndex(), 3});
  EXPECT_FALSE(blockPeriodLog2(0, {Expr::parse(Count)}, EvalEnv{}));
}
