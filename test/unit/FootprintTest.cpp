// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of the launch footprint (footprint.global.{load,store} of the
// warp-level model, common/src/Footprint.{h,cpp}): the interval set and the
// loop closed form against brute force, hand-derived footprints (copy,
// stencil, broadcast, strided, grid-stride tail, rows of a 2D launch), and
// the whole evaluator against enumerating every byte of every thread.
#include "../../common/src/Footprint.h"
#include "hroof/WarpModel.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

using namespace hroof;
using nlohmann::json;

namespace {
json sreg(const char *S) { return json::array({"sreg", S}); }
json gid() {
  return json::array({"add", json::array({"mul", sreg("ctaid.x"), sreg("ntid.x")}), sreg("tid.x")});
}
json arg(int I) { return json::array({"arg", I}); }
json mul(json A, json B) { return json::array({"mul", A, B}); }
json add(json A, json B) { return json::array({"add", A, B}); }
json cmp(const char *P, json A, json B) { return json::array({"icmp", P, 64, A, B}); }

WarpAccess access(const char *Dir, int Width, json Offset, std::vector<json> Factors,
                  json Loops = json::array(), int Param = 0) {
  json J = {{"where", "k:%1"},
            {"space", "global"},
            {"dir", Dir},
            {"width", Width},
            {"loops", Loops},
            {"offset", Offset},
            {"base", {{"param", Param}}},
            {"multiplicity", json::array({Factors})}};
  return parseWarpAccess(J);
}

struct Launch {
  LaunchShape L;
  EvalEnv Env;
};
Launch launch(int64_t Grid, int64_t Block, std::vector<int64_t> Args) {
  Launch R;
  R.L.Grid = {Grid, 1, 1};
  R.L.Block = {Block, 1, 1};
  R.Env.Args = Args;
  R.Env.HasArg.assign(Args.size(), true);
  return R;
}

Bounds footprint(const std::vector<WarpAccess> &A, const Launch &X, const char *Dir,
                 PointerValues Ptr = {}, bool ByShift = true) {
  WarpModelOptions O;
  O.ByShift = ByShift;
  WarpTraffic T = evaluateWarpTraffic(A, X.L, X.Env, Ptr, {"a", "b"}, O);
  EXPECT_EQ(T.FootprintNote, "");
  auto It = T.Counts.find(std::string("footprint.global.") + Dir);
  return It == T.Counts.end() ? Bounds{} : It->second;
}

/// Every byte of every execution of \p A by every thread, counted once.
std::set<int64_t> bruteBytes(const WarpAccess &A, const Launch &X) {
  std::set<int64_t> Bytes;
  EvalEnv E = X.Env;
  E.NTid = X.L.Block;
  E.NCtaId = X.L.Grid;
  for (int64_t B = 0; B < X.L.Grid[0]; ++B)
    for (int64_t T = 0; T < X.L.Block[0]; ++T) {
      E.CtaId = {B, 0, 0};
      E.Tid = {T, 0, 0};
      bool Runs = false;
      for (const auto &P : A.Alternatives) {
        bool All = true;
        for (const ExprPtr &F : P)
          All &= F->eval(E) > 0;
        Runs |= All;
      }
      if (!Runs)
        continue;
      int64_t Addr = A.Offset->eval(E);
      std::vector<int64_t> Steps, Trips;
      for (const WarpLoop &Lp : A.Loops) {
        Steps.push_back(Lp.Step->eval(E));
        Trips.push_back(Lp.Trips->eval(E));
      }
      std::vector<int64_t> K(Steps.size(), 0);
      bool Empty = false;
      for (int64_t Tr : Trips)
        Empty |= Tr <= 0;
      while (!Empty) {
        int64_t At = Addr;
        for (size_t J = 0; J < K.size(); ++J)
          At += K[J] * Steps[J];
        for (int64_t Y = 0; Y < int64_t(A.Width); ++Y)
          Bytes.insert(At + Y);
        size_t J = 0;
        while (J < K.size() && ++K[J] == Trips[J])
          K[J++] = 0;
        if (J >= K.size())
          break;
      }
    }
  return Bytes;
}
} // namespace

TEST(Footprint, IntervalSetMergesOverlapsAndNeighbours) {
  IntervalSet S;
  S.add(10, 20);
  S.add(30, 40);
  EXPECT_EQ(S.bytes(), u128(20));
  S.add(20, 30); // closes the gap exactly
  EXPECT_EQ(S.intervals(), 1u);
  EXPECT_EQ(S.bytes(), u128(30));
  S.add(5, 12);
  S.add(38, 41);
  S.add(15, 16); // inside
  S.add(50, 50); // empty
  EXPECT_EQ(S.intervals(), 1u);
  EXPECT_EQ(S.bytes(), u128(36));
  IntervalSet T;
  T.addShifted(S, 100);
  T.addShifted(S, 136); // adjacent to the first copy
  EXPECT_EQ(T.intervals(), 1u);
  EXPECT_EQ(T.bytes(), u128(72));
}

// The closed form for a contiguous span and the enumeration agree with adding
// every iteration one by one.
TEST(Footprint, LoopSpansEqualEveryIteration) {
  std::mt19937 Rng(5);
  for (int Trial = 0; Trial < 300; ++Trial) {
    int NSpans = 1 + int(Rng() % 3);
    std::vector<Span> Spans;
    for (int I = 0; I < NSpans; ++I) {
      int64_t A = int64_t(Rng() % 200);
      Spans.push_back({A, A + 1 + int64_t(Rng() % 40)});
    }
    Spans = mergeSpans(Spans);
    int Loops = int(Rng() % 3);
    std::vector<int64_t> Steps, Trips;
    for (int J = 0; J < Loops; ++J) {
      Steps.push_back(int64_t(Rng() % 90) - 30);
      Trips.push_back(1 + int64_t(Rng() % 6));
    }
    int64_t From = Loops ? int64_t(Rng() % Trips[0]) : 0, To = Loops ? Trips[0] : 1;
    IntervalSet Model, Brute;
    uint64_t Budget = 1u << 20;
    ASSERT_TRUE(addLoopSpans(Model, Spans, Steps, Trips, From, To, Budget));
    std::vector<int64_t> K(size_t(Loops), 0);
    if (Loops)
      K[0] = From;
    while (true) {
      int64_t Base = 0;
      for (int J = 0; J < Loops; ++J)
        Base += K[size_t(J)] * Steps[size_t(J)];
      for (const Span &S : Spans)
        Brute.add(S.first + Base, S.second + Base);
      int J = 0;
      while (J < Loops && ++K[size_t(J)] == Trips[size_t(J)])
        K[size_t(J++)] = J == 0 ? From : 0;
      if (J >= Loops)
        break;
    }
    EXPECT_EQ(Model.bytes(), Brute.bytes()) << "trial " << Trial;
  }
}

// out[i] = in[i-1] + in[i] + in[i+1] for 1 <= i < n-1: reads n floats, writes n-2.
TEST(Footprint, HandDerivedStencil) {
  json I = gid();
  std::vector<json> Guard = {cmp("sge", I, 1), cmp("slt", I, add(arg(0), -1))};
  std::vector<WarpAccess> A;
  for (int D : {-1, 0, 1})
    A.push_back(access("load", 4, mul(4, add(I, D)), Guard));
  A.push_back(access("store", 4, mul(4, I), Guard, json::array(), 1));
  for (int64_t N : {3, 100, 1000, 4099}) {
    Launch X = launch((N + 255) / 256, 256, {N});
    Bounds L = footprint(A, X, "load"), S = footprint(A, X, "store");
    EXPECT_TRUE(L.exact() && S.exact());
    EXPECT_EQ(L.Lo, u128(4 * N)) << N;
    EXPECT_EQ(S.Lo, u128(4 * (N - 2))) << N;
  }
}

// Every thread reads x[0] (broadcast), and x[2 i] (stride 2): 4 and 4 n bytes.
TEST(Footprint, HandDerivedBroadcastAndStride) {
  Launch X = launch(8, 128, {1000});
  std::vector<json> Guard = {cmp("slt", gid(), arg(0))};
  EXPECT_EQ(footprint({access("load", 4, 0, Guard)}, X, "load").Lo, u128(4));
  EXPECT_EQ(footprint({access("load", 4, mul(8, gid()), Guard)}, X, "load").Lo, u128(4000));
  // 16-byte loads of a float4 array: 16 n bytes.
  EXPECT_EQ(footprint({access("load", 16, mul(16, gid()), Guard)}, X, "load").Lo, u128(16000));
}

// A grid-stride loop: thread t reads i = t + k * (grid * block) for i < n.
// The last iteration is partial; every element is read once: 4 n bytes.
TEST(Footprint, HandDerivedGridStrideTail) {
  json Total = mul(sreg("nctaid.x"), sreg("ntid.x"));
  json Trips = json::array({"ceildiv", add(arg(0), mul(-1, gid())), Total});
  json Loops = json::array({{{"step", mul(4, Total)}, {"trips", Trips}}});
  // The multiplicity holds the trip count, as the pass writes it.
  WarpAccess A = access("load", 4, mul(4, gid()), {cmp("slt", gid(), arg(0)), Trips}, Loops);
  for (int64_t N : {1, 100, 5000, 65536 + 17}) {
    Launch X = launch(16, 128, {N});
    EXPECT_EQ(footprint({A}, X, "load").Lo, u128(4 * N)) << N;
    EXPECT_EQ(footprint({A}, X, "load", {}, false).Lo, u128(4 * N)) << N;
  }
}

// Two parameters given the same pointer are one array: counted once.
TEST(Footprint, GivenPointersMergeAliases) {
  std::vector<json> Guard = {cmp("slt", gid(), arg(0))};
  std::vector<WarpAccess> A = {access("load", 4, mul(4, gid()), Guard, json::array(), 0),
                               access("load", 4, mul(4, gid()), Guard, json::array(), 1)};
  Launch X = launch(4, 256, {1024});
  EXPECT_EQ(footprint(A, X, "load").Lo, u128(8192)); // not given: apart
  EXPECT_EQ(footprint(A, X, "load", {0x7f0000000000, 0x7f0000000000}).Lo, u128(4096));
  EXPECT_EQ(footprint(A, X, "load", {0x7f0000000000, 0x7f0000000800}).Lo, u128(6144));
}

// A condition the model cannot express: [0, every modelled lane].
TEST(Footprint, GuardedAccessIsBounded) {
  json J = {{"where", "k:%2"},
            {"space", "global"},
            {"dir", "store"},
            {"width", 4},
            {"guarded", "a branch on data"},
            {"base", {{"param", 0}}},
            {"offset", mul(4, gid())},
            {"multiplicity", json::array({json::array({cmp("slt", gid(), arg(0))})})}};
  Launch X = launch(4, 256, {1000});
  Bounds B = footprint({parseWarpAccess(J)}, X, "store");
  EXPECT_EQ(B.Lo, u128(0));
  EXPECT_EQ(B.Hi, u128(4000));
}

// The evaluator against enumerating every byte of every thread, on random
// strided, offset and looped accesses, with the shift path and without.
TEST(Footprint, EqualsEveryByteOfEveryThread) {
  std::mt19937 Rng(3);
  for (int Trial = 0; Trial < 60; ++Trial) {
    int64_t Block = 32 * (1 + Rng() % 4) + (Trial % 4 == 0 ? 8 : 0), Grid = 1 + Rng() % 12;
    int64_t N = 1 + Rng() % (Grid * Block + 50), Stride = int64_t(Rng() % 5) - 1;
    int64_t Width = int64_t(1) << (Rng() % 5), Off = int64_t(Rng() % 64);
    json Loops = json::array();
    std::vector<json> Factors = {cmp("slt", gid(), arg(0))};
    if (Trial % 3 == 0) {
      int64_t Trips = 1 + int64_t(Rng() % 5);
      Loops.push_back({{"step", int64_t(Rng() % 700) - 100}, {"trips", Trips}});
      Factors.push_back(Trips); // the multiplicity holds the trip count, as the pass writes it
    }
    WarpAccess A = access("load", int(Width), add(Off, mul(Width * Stride, gid())), Factors, Loops);
    Launch X = launch(Grid, Block, {N});
    u128 Want = bruteBytes(A, X).size();
    for (bool Shift : {true, false}) {
      Bounds B = footprint({A}, X, "load", {0x7f0000001000}, Shift);
      EXPECT_TRUE(B.exact());
      EXPECT_EQ(B.Lo, Want) << "trial " << Trial << (Shift ? " by shift" : " every block");
    }
  }
}

// Over the interval budget: no footprint, and the reason.
TEST(Footprint, OverBudgetSaysWhy) {
  WarpAccess A = access("load", 4, mul(64, gid()), {cmp("slt", gid(), arg(0))});
  Launch X = launch(64, 256, {64 * 256});
  WarpModelOptions O;
  O.MaxFootprintIntervals = 100;
  WarpTraffic T = evaluateWarpTraffic({A}, X.L, X.Env, {}, {"a"}, O);
  EXPECT_FALSE(T.Counts.count("footprint.global.load"));
  EXPECT_NE(T.FootprintNote.find("more intervals than allowed"), std::string::npos);
  EXPECT_TRUE(T.Counts.count("warp_bytes.global.load")); // the rest is still given
}

// A loop unrolled by 4 over each thread's row of m floats: four accesses
// (elements j, j+1, j+2, j+3) with a step of 16 bytes. Each alone leaves
// 12-byte gaps; together they cover the row. The spans of the copies are
// merged before the loop expands them: one interval per row, within a budget
// far below one interval per iteration.
TEST(Footprint, UnrolledLoopCopiesFillEachOther) {
  const int64_t M = 784;
  json Trips = M / 4;
  json Loops = json::array({{{"step", 16}, {"trips", Trips}}});
  std::vector<WarpAccess> A;
  for (int U = 0; U < 4; ++U)
    A.push_back(access("load", 4, mul(4, add(mul(gid(), M), U)), {cmp("slt", gid(), arg(0)), Trips},
                       Loops));
  Launch X = launch(40, 256, {10000});
  WarpModelOptions O;
  O.MaxFootprintIntervals = 200000; // 10000 rows x 196 iterations would need 1.96M
  for (bool Shift : {true, false}) {
    O.ByShift = Shift;
    WarpTraffic T = evaluateWarpTraffic(A, X.L, X.Env, {}, {"a"}, O);
    EXPECT_EQ(T.FootprintNote, "");
    ASSERT_TRUE(T.Counts.count("footprint.global.load"));
    EXPECT_EQ(T.Counts.at("footprint.global.load").Lo, u128(10000 * M * 4));
  }
}
