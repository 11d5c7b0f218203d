// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of sumOverThreads: every fast path is checked against a plain
// thread-by-thread sum of the same factors.
#include "hroof/ThreadSum.h"

#include <gtest/gtest.h>

using namespace hroof;
using nlohmann::json;

namespace {
json sreg(const char *S) { return json::array({"sreg", S}); }
json gid(char D) {
  std::string C = std::string("ctaid.") + D, N = std::string("ntid.") + D,
              T = std::string("tid.") + D;
  return json::array(
      {"add", json::array({"mul", sreg(C.c_str()), sreg(N.c_str())}), sreg(T.c_str())});
}
json arg(int I) { return json::array({"arg", I}); }
json cmp(const char *P, json A, json B) { return json::array({"icmp", P, 32, A, B}); }

std::vector<ExprPtr> parse(const std::vector<json> &Fs) {
  std::vector<ExprPtr> R;
  for (const json &F : Fs)
    R.push_back(Expr::parse(F));
  return R;
}

// Reference: every thread, one at a time.
u128 naive(const std::vector<ExprPtr> &Fs, const LaunchShape &L, EvalEnv Env) {
  for (int D = 0; D < 3; ++D) {
    Env.NTid[D] = L.Block[D];
    Env.NCtaId[D] = L.Grid[D];
  }
  u128 S = 0;
  for (int64_t bz = 0; bz < L.Grid[2]; ++bz)
    for (int64_t by = 0; by < L.Grid[1]; ++by)
      for (int64_t bx = 0; bx < L.Grid[0]; ++bx)
        for (int64_t tz = 0; tz < L.Block[2]; ++tz)
          for (int64_t ty = 0; ty < L.Block[1]; ++ty)
            for (int64_t tx = 0; tx < L.Block[0]; ++tx) {
              Env.CtaId = {bx, by, bz};
              Env.Tid = {tx, ty, tz};
              u128 P = 1;
              for (const ExprPtr &F : Fs)
                P *= u128(F->eval(Env));
              S += P;
            }
  return S;
}

EvalEnv args(std::vector<int64_t> A) {
  EvalEnv E;
  E.Args = A;
  E.HasArg.assign(A.size(), true);
  return E;
}
} // namespace

TEST(ThreadSum, NoFactorsCountsThreads) {
  LaunchShape L{{3, 2, 1}, {32, 4, 1}};
  EXPECT_EQ(uint64_t(sumOverThreads({}, L, EvalEnv{})), 3u * 2 * 32 * 4);
}

TEST(ThreadSum, GuardedElementwise) {
  auto Fs = parse({cmp("slt", gid('x'), arg(0))});
  for (int64_t N : {0, 1, 999, 1024, 1025, 5000, -3}) {
    LaunchShape L{{5, 1, 1}, {256, 1, 1}};
    EXPECT_EQ(uint64_t(sumOverThreads(Fs, L, args({N}))), uint64_t(std::clamp<int64_t>(N, 0, 1280)))
        << N;
  }
}

TEST(ThreadSum, UnsignedWideCompareOfNegativeIndex) {
  // (size_t)(int)(base + gid) < n with base < 0: a negative index reads as
  // 2^64 + i and fails the test (found in review: the interval path read
  // the 64-bit unsigned compare as signed and counted every thread).
  json Idx = json::array({"sext", 32, json::array({"add", arg(0), gid('x')})});
  auto Fs = parse({json::array({"icmp", "ult", 64, Idx, arg(1)})});
  LaunchShape L{{3, 1, 1}, {100, 1, 1}};
  for (int64_t Base : {-150, -1, 0, 5})
    EXPECT_EQ(sumOverThreads(Fs, L, args({Base, 100000})), naive(Fs, L, args({Base, 100000})))
        << Base;
  EXPECT_EQ(uint64_t(sumOverThreads(Fs, L, args({-150, 100000}))), 150u);
  // A bound of 2^63 or more reads negative in int64: every index passes.
  EXPECT_EQ(uint64_t(sumOverThreads(Fs, L, args({0, INT64_MIN + 5}))), 300u);
}

TEST(ThreadSum, UnsignedGuardFromOptimizer) {
  // (unsigned)(gid - 1) < n - 2  <=>  1 <= gid < n - 1 (for n >= 2)
  auto Fs =
      parse({cmp("ult", json::array({"add", gid('x'), -1}), json::array({"add", arg(0), -2}))});
  LaunchShape L{{4, 1, 1}, {64, 1, 1}};
  for (int64_t N : {2, 3, 100, 256, 400})
    EXPECT_EQ(sumOverThreads(Fs, L, args({N})), naive(Fs, L, args({N}))) << N;
}

TEST(ThreadSum, InteriorPoints2D) {
  auto Fs = parse({cmp("sgt", gid('x'), 0), cmp("sgt", gid('y'), 0),
                   cmp("slt", gid('x'), json::array({"add", arg(1), -1})),
                   cmp("slt", gid('y'), json::array({"add", arg(0), -1})), cmp("ne", gid('y'), 5)});
  LaunchShape L{{3, 5, 1}, {16, 8, 1}};
  EvalEnv E = args({37, 41});
  EXPECT_EQ(sumOverThreads(Fs, L, E), naive(Fs, L, E));
  EXPECT_EQ(uint64_t(sumOverThreads(Fs, L, E)), uint64_t(34 * 39));
}

TEST(ThreadSum, GridStrideLoopVisitsEveryElementOnce) {
  // trip(t) = max(1, ceildiv(n - gid, stride)) for threads with gid < n.
  json Stride = json::array({"mul", sreg("ntid.x"), sreg("nctaid.x")});
  auto Fs = parse(
      {cmp("slt", gid('x'), arg(0)),
       json::array(
           {"max", 1, json::array({"ceildiv", json::array({"sub", arg(0), gid('x')}), Stride})})});
  LaunchShape L{{7, 1, 1}, {96, 1, 1}};
  for (int64_t N : {1, 500, 672, 673, 100000})
    EXPECT_EQ(uint64_t(sumOverThreads(Fs, L, args({N}))), uint64_t(N)) << N;
}

TEST(ThreadSum, MixedDimensionsFallBackToBruteForce) {
  auto Fs = parse({cmp("slt", json::array({"add", gid('x'), gid('y')}), arg(0))});
  LaunchShape L{{2, 3, 1}, {8, 4, 1}};
  EvalEnv E = args({11});
  EXPECT_EQ(sumOverThreads(Fs, L, E), naive(Fs, L, E));
}

TEST(ThreadSum, WrappingIndexIsExact) {
  // gid*2^28 wraps at 32 bits: the interval path must notice and not guess.
  auto Fs = parse({cmp("slt", json::array({"mul", gid('x'), 268435456}), 0)});
  LaunchShape L{{1, 1, 1}, {64, 1, 1}};
  EXPECT_EQ(sumOverThreads(Fs, L, EvalEnv{}), naive(Fs, L, EvalEnv{}));
}

TEST(ThreadSum, BlockStrideLoop) {
  // for (k = tid; k < K; k += blockDim) : trips max(1, ceildiv(K - tid, ntid)) when tid < K
  auto Fs = parse({cmp("slt", sreg("tid.x"), arg(0)),
                   json::array({"max", 1,
                                json::array({"ceildiv", json::array({"sub", arg(0), sreg("tid.x")}),
                                             sreg("ntid.x")})})});
  LaunchShape L{{9, 1, 1}, {128, 1, 1}};
  EXPECT_EQ(uint64_t(sumOverThreads(Fs, L, args({1000}))), 9u * 1000);
}

TEST(ThreadSum, NegativeMultiplicityIsAnError) {
  auto Fs = parse({json::array({"sub", 0, sreg("tid.x")})});
  LaunchShape L{{1, 1, 1}, {4, 1, 1}};
  EXPECT_THROW(sumOverThreads(Fs, L, EvalEnv{}), ExprError);
}

TEST(ThreadSum, SumOverLoopIterationsPerThread) {
  // scalarProd's nest: i = tid + ntid*k for k < ceildiv(64 - tid, ntid), and
  // inside, ceildiv(n - i, 64) iterations: the sum is per thread.
  json I = json::array({"add", sreg("tid.x"), json::array({"mul", sreg("ntid.x"),
                                                           json::array({"ivar", 0})})});
  json Outer = json::array({"max", 1, json::array({"ceildiv", json::array({"sub", 64, sreg("tid.x")}),
                                                   sreg("ntid.x")})});
  json Inner = json::array(
      {"max", 0, json::array({"ceildiv", json::array({"sub", arg(0), I}), 64})});
  auto Fs = parse({json::array({"sum", 0, 0, Outer, Inner})});
  for (int64_t N : {0, 1, 63, 64, 65, 300})
    for (int64_t B : {1, 32, 64, 96}) {
      LaunchShape L{{2, 1, 1}, {B, 1, 1}};
      EXPECT_EQ(sumOverThreads(Fs, L, args({N})), naive(Fs, L, args({N}))) << N << " " << B;
    }
}

TEST(ThreadSum, UniformSumSkippedWhenNoThreadRuns) {
  // A loop no thread enters (tid.x < 0 never holds) with a range that would
  // take 2^40 steps: the sum must not be walked.
  auto Fs = parse({cmp("slt", sreg("tid.x"), 0),
                   json::array({"sum", 0, 0, int64_t(1) << 40, 1})});
  LaunchShape L{{2, 1, 1}, {32, 1, 1}};
  EXPECT_EQ(uint64_t(sumOverThreads(Fs, L, EvalEnv{})), 0u);
}
