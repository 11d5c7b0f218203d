// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of the warp-level model's evaluator (hroof/WarpModel.h): the fast
// path that counts full blocks by address shift must give exactly what
// evaluating every block lane by lane gives, on launches with edge blocks,
// 2D grids, misaligned pointers and loops; and a few costs derived by hand.
#include "hroof/WarpModel.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

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
json sext(json A) { return json::array({"sext", 32, A}); }
json mul(json A, json B) { return json::array({"mul", A, B}); }
json add(json A, json B) { return json::array({"add", A, B}); }
json cmp(const char *P, json A, json B) { return json::array({"icmp", P, 32, A, B}); }

/// One access: base parameter 0, the given offset (bytes), guards, loops.
WarpAccess access(const char *Space, int Width, json Offset, std::vector<json> Factors,
                  json Loops = json::array()) {
  json J = {{"where", "k:%1"},
            {"space", Space},
            {"dir", "load"},
            {"width", Width},
            {"multiplicity", json::array({Factors})},
            {"loops", Loops},
            {"offset", Offset}};
  if (std::string(Space) == "shared")
    J["base"] = {{"object", "sm"}, {"align", 16}};
  else
    J["base"] = {{"param", 0}};
  return parseWarpAccess(J);
}

struct Launch {
  LaunchShape L;
  EvalEnv Env;
  PointerValues Ptr;
};

Launch launch(std::array<int64_t, 3> G, std::array<int64_t, 3> B, std::vector<int64_t> Args,
              uint64_t Pointer) {
  Launch R;
  R.L.Grid = G;
  R.L.Block = B;
  R.Env.Args = Args;
  R.Env.HasArg.assign(Args.size(), true);
  R.Ptr = {Pointer};
  return R;
}

void expectSame(const WarpAccess &A, const Launch &X) {
  WarpModelOptions Fast, Slow;
  Slow.ByShift = false;
  WarpTraffic F = evaluateWarpTraffic({A}, X.L, X.Env, X.Ptr, {"p"}, Fast);
  WarpTraffic S = evaluateWarpTraffic({A}, X.L, X.Env, X.Ptr, {"p"}, Slow);
  ASSERT_EQ(F.Counts.size(), S.Counts.size());
  for (const auto &[K, B] : S.Counts) {
    EXPECT_TRUE(F.Counts.at(K).Lo == B.Lo && F.Counts.at(K).Hi == B.Hi) << K;
  }
}

u128 count(const WarpAccess &A, const Launch &X, const std::string &Key) {
  WarpTraffic T = evaluateWarpTraffic({A}, X.L, X.Env, X.Ptr, {"p"});
  EXPECT_TRUE(T.Counts.at(Key).exact()) << Key;
  return T.Counts.at(Key).Lo;
}
} // namespace

// in[i] for i < n, 4 bytes: the tail block is an edge block.
TEST(WarpModel, ShiftPathEqualsEveryBlockOnGuardedCopies) {
  std::mt19937 Rng(7);
  for (int Trial = 0; Trial < 40; ++Trial) {
    int64_t Block = 32 * (1 + Rng() % 8) + (Trial % 3 == 0 ? 16 : 0);
    int64_t Grid = 1 + Rng() % 50, N = 1 + Rng() % (Grid * Block + 40);
    int64_t Stride = 1 + Rng() % 5, Width = Trial % 2 ? 4 : 16;
    uint64_t Ptr = 0x7f0000000000 + 4 * (Rng() % 64) * (Width == 16 ? 4 : 1);
    WarpAccess A = access("global", int(Width), mul(Width * Stride, sext(gid('x'))),
                          {cmp("slt", gid('x'), arg(0))});
    expectSame(A, launch({Grid, 1, 1}, {Block, 1, 1}, {N}, Ptr));
  }
}

// A 2D launch with guards in both dimensions and rows w elements apart.
TEST(WarpModel, ShiftPathEqualsEveryBlockIn2D) {
  std::mt19937 Rng(11);
  for (int Trial = 0; Trial < 30; ++Trial) {
    int64_t BX = int64_t(1) << (Rng() % 6), BY = 1 + Rng() % (256 / BX);
    int64_t GX = 1 + Rng() % 9, GY = 1 + Rng() % 9, W = 1 + Rng() % 100, H = 1 + Rng() % 70;
    json Idx = add(mul(gid('y'), arg(0)), gid('x'));
    WarpAccess A = access("global", 4, mul(4, sext(Idx)),
                          {cmp("slt", gid('x'), arg(0)), cmp("slt", gid('y'), arg(1))});
    expectSame(A, launch({GX, GY, 1}, {BX, BY, 1}, {W, H}, 0x7f0000000100 + 4 * (Rng() % 32)));
  }
}

// A loop over rows with a step of n floats, and shared memory.
TEST(WarpModel, ShiftPathEqualsEveryBlockWithLoopsAndShared) {
  for (int64_t N : {1, 3, 8, 33}) {
    json Loops = json::array({{{"step", mul(4, arg(0))}, {"trips", arg(0)}}});
    WarpAccess G = access("global", 4, mul(4, sext(gid('x'))), {arg(0)}, Loops);
    expectSame(G, launch({7, 1, 1}, {96, 1, 1}, {N}, 0x7f0000000000));
    WarpAccess S = access("shared", 4, mul(4, mul(sreg("tid.x"), arg(0))),
                          {cmp("slt", gid('x'), mul(arg(0), 100))});
    expectSame(S, launch({9, 1, 1}, {128, 1, 1}, {N}, 0));
  }
}

// Hand-derived: 1000 threads of 4 bytes, coalesced, from a base 4 bytes past
// a 32-byte boundary: each full warp spans 5 sectors (31 warps = 155), the
// last warp's 8 lanes (32 B) span 2: 157.
TEST(WarpModel, HandDerivedMisalignedTail) {
  WarpAccess A = access("global", 4, mul(4, sext(gid('x'))), {cmp("slt", gid('x'), arg(0))});
  Launch X = launch({40, 1, 1}, {128, 1, 1}, {1000}, 0x7f0000000004);
  EXPECT_EQ(count(A, X, "sectors.global.load"), u128(157));
  EXPECT_EQ(count(A, X, "warp_bytes.global.load"), u128(4000));
}

// An address that is not affine in the block index is evaluated thread by
// thread: a launch that needs more evaluations than allowed is refused at
// once (before any work), one that needs fewer is counted.
TEST(WarpModel, LaunchOverTheLaneBudgetIsRefusedUpFront) {
  json Pos = json::array({"and", gid('x'), arg(0)}); // not affine: a mask
  WarpAccess A = access("global", 4, mul(4, Pos), {});
  Launch X = launch({64, 1, 1}, {256, 1, 1}, {1023}, 0x7f0000000000);
  WarpModelOptions Small;
  Small.MaxLaneEvaluations = 2 * 64 * 256 - 1; // two accesses of 16384 threads
  try {
    evaluateWarpTraffic({A, A}, X.L, X.Env, X.Ptr, {"p"}, Small);
    FAIL() << "not refused";
  } catch (const ExprError &E) {
    EXPECT_NE(std::string(E.what()).find("32768"), std::string::npos) << E.what();
  }
  Small.MaxLaneEvaluations = 2 * 64 * 256 + 64 * 2; // + one visit per block and access
  WarpTraffic T = evaluateWarpTraffic({A, A}, X.L, X.Env, X.Ptr, {"p"}, Small);
  EXPECT_TRUE(T.Counts.at("warp_bytes.global.load").exact());
}

// An offset that reads its loop's index ["ivar", 0] other than by a step,
// s[ctaid * stride + (i % G) * K + i / G] for i = tid + k * ntid, k < trips
// (each lane's own count, (C - tid) / ntid rounded up): each iteration is a
// request of the lanes still in the loop. Sectors and bytes against a count
// of distinct sectors and lanes per (block, warp, iteration) done here.
TEST(WarpModel, EnumeratedLoopEqualsDistinctSectorsPerIteration) {
  std::mt19937 Rng(5);
  json K = json::array({"ivar", 0}), Ntid = sreg("ntid.x"), Tid = sreg("tid.x");
  json I = add(Tid, mul(K, Ntid));
  json Elem = add(add(mul(sreg("ctaid.x"), arg(2)),
                      mul(json::array({"urem", 64, I, arg(0)}), arg(1))),
                  json::array({"udiv", 64, I, arg(0)}));
  json C = mul(arg(0), arg(1));
  json Trips = json::array({"ceildiv", json::array({"sub", C, Tid}), Ntid});
  json Loops = json::array({{{"step", 0}, {"trips", Trips}, {"ivar", 0}}});
  WarpAccess A = access("global", 4, mul(4, Elem), {Trips}, Loops);
  for (int Trial = 0; Trial < 25; ++Trial) {
    int64_t G = 1 + Rng() % 6, Kc = 1 + Rng() % 40, Stride = Rng() % 300;
    int64_t Block = 32 * (1 + Rng() % 4) - (Trial % 4 == 0 ? 7 : 0), Grid = 1 + Rng() % 5;
    uint64_t Ptr = 0x7f0000000000 + 4 * (Rng() % 64);
    int64_t Cn = G * Kc;
    u128 Sectors = 0, Bytes = 0;
    for (int64_t B = 0; B < Grid; ++B)
      for (int64_t W = 0; W < Block; W += 32)
        for (int64_t It = 0; It * Block < Cn; ++It) {
          std::set<uint64_t> S;
          for (int64_t T = W; T < std::min(W + 32, Block); ++T) {
            int64_t Idx = T + It * Block;
            if (Idx >= Cn)
              continue;
            uint64_t Addr = Ptr + 4 * uint64_t(B * Stride + (Idx % G) * Kc + Idx / G);
            S.insert(Addr / 32);
            Bytes += 4;
          }
          Sectors += S.size();
        }
    Launch X = launch({Grid, 1, 1}, {Block, 1, 1}, {G, Kc, Stride}, Ptr);
    EXPECT_EQ(count(A, X, "sectors.global.load"), Sectors) << G << " " << Kc << " " << Block;
    EXPECT_EQ(count(A, X, "warp_bytes.global.load"), Bytes) << G << " " << Kc << " " << Block;
    expectSame(A, X);
  }
}

// The index of an enumerated loop only: another free one, or an enumerated
// loop beside a second loop, is a malformed model.
TEST(WarpModel, EnumeratedLoopIndexMustBeTheAccessOwn) {
  json K1 = json::array({"ivar", 1});
  json One = json::array({{{"step", 0}, {"trips", 4}, {"ivar", 0}}});
  EXPECT_THROW(access("global", 4, mul(4, K1), {4}, One), std::exception);
  json Two = json::array({{{"step", 0}, {"trips", 4}, {"ivar", 0}}, {{"step", 4}, {"trips", 2}}});
  EXPECT_THROW(access("global", 4, mul(4, json::array({"ivar", 0})), {8}, Two), std::exception);
  EXPECT_NO_THROW(access("global", 4, mul(4, json::array({"ivar", 0})), {4}, One));
}

// A loop whose iterations [first, trips) run the access (a condition on the
// loop variable): rows k of 33 floats for first <= k < trips, against the
// distinct sectors of each (warp, row) counted here, and the same through
// the every-block path. first = tid / 8 (lanes leave the window at
// different rows) and trips = arg 0.
TEST(WarpModel, LoopWindowEqualsDistinctSectorsPerIteration) {
  json First = json::array({"udiv", 32, sreg("tid.x"), 8});
  json Loops = json::array({{{"step", 4 * 33}, {"trips", arg(0)}, {"first", First}}});
  json Count = json::array({"max", 0, json::array({"sub", arg(0), First})});
  WarpAccess A = access("global", 4, mul(4, sext(gid('x'))), {Count}, Loops);
  for (int64_t Trips : {0, 1, 3, 6}) {
    for (int64_t Block : {32, 64, 40}) {
      uint64_t Ptr = 0x7f0000000000 + 12;
      u128 Sectors = 0, Bytes = 0;
      for (int64_t B = 0; B < 3; ++B)
        for (int64_t W = 0; W < Block; W += 32)
          for (int64_t K = 0; K < Trips; ++K) {
            std::set<uint64_t> S;
            for (int64_t T = W; T < std::min(W + 32, Block); ++T)
              if (T / 8 <= K) {
                S.insert((Ptr + 4 * uint64_t(B * Block + T) + uint64_t(K) * 4 * 33) / 32);
                Bytes += 4;
              }
            Sectors += S.size();
          }
      Launch X = launch({3, 1, 1}, {Block, 1, 1}, {Trips}, Ptr);
      if (Bytes == 0)
        continue; // no request: the quantities are not listed
      EXPECT_EQ(count(A, X, "sectors.global.load"), Sectors) << Trips << " " << Block;
      EXPECT_EQ(count(A, X, "warp_bytes.global.load"), Bytes) << Trips << " " << Block;
      expectSame(A, X);
    }
  }
  json Two = json::array({{{"step", 4}, {"trips", 2}}, {{"step", 8}, {"trips", 2}, {"first", 1}}});
  EXPECT_THROW(access("global", 4, 0, {4}, Two), std::exception);
}

// Enumerated iterations over the lane budget: the access gets the bounds of
// its multiplicity alone, with the reason, instead of the launch losing its
// numbers.
TEST(WarpModel, EnumeratedLoopOverTheBudgetFallsBackToBounds) {
  json K = json::array({"ivar", 0});
  json Loops = json::array({{{"step", 0}, {"trips", arg(0)}, {"ivar", 0}}});
  json Elem = json::array({"urem", 64, add(gid('x'), mul(K, 4096)), 1000});
  WarpAccess A = access("global", 4, mul(4, Elem), {arg(0)}, Loops);
  Launch X = launch({16, 1, 1}, {256, 1, 1}, {8}, 0x7f0000000000);
  WarpModelOptions Small;
  Small.MaxLaneEvaluations = 16 * 256 * 4; // fewer than 8 iterations of every lane
  WarpTraffic T = evaluateWarpTraffic({A}, X.L, X.Env, X.Ptr, {"p"}, Small);
  EXPECT_FALSE(T.exact());
  ASSERT_FALSE(T.Inexact.empty());
  EXPECT_NE(T.Inexact[0].find("one by one needs more lane evaluations"), std::string::npos)
      << T.Inexact[0];
  const Bounds &B = T.Counts.at("warp_bytes.global.load");
  EXPECT_LE(B.Lo, u128(16 * 256 * 8 * 4));
  EXPECT_EQ(B.Hi, u128(16 * 256 * 8 * 4));
  WarpTraffic Full = evaluateWarpTraffic({A}, X.L, X.Env, X.Ptr, {"p"});
  EXPECT_TRUE(Full.exact());
}
