// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of the warp-level model's closed form over blocks (classes of
// blocks, common/src/WarpClasses.h) and of the interval arithmetic it decides
// with (common/src/ExprInterval.h): on randomized affine addresses and launch
// shapes (strides, negative coefficients, misaligned bases, 2D and 3D blocks,
// partial warps, guards, clamped trip counts, loops (grid-stride ones
// among them), a block index read through a remainder, extensions of indices
// that are negative at the edges) the model must give exactly what
// evaluating every lane of every block gives; intervals must contain every
// value of every thread; a launch far over the lane budget must be counted
// when its address is affine, and refused when it is not.
#include "../../common/src/ExprInterval.h"
#include "hroof/WarpModel.h"

#include <gtest/gtest.h>

#include <random>

using namespace hroof;
using nlohmann::json;

namespace {
json sreg(const std::string &S) { return json::array({"sreg", S}); }
json gid(char D) {
  return json::array({"add",
                      json::array({"mul", sreg(std::string("ctaid.") + D),
                                   sreg(std::string("ntid.") + D)}),
                      sreg(std::string("tid.") + D)});
}
json arg(int I) { return json::array({"arg", I}); }
json mul(json A, json B) { return json::array({"mul", A, B}); }
json add(json A, json B) { return json::array({"add", A, B}); }
json cmp(const char *P, json A, json B) { return json::array({"icmp", P, 32, A, B}); }
json ext(const char *Op, json A) { return json::array({Op, 32, A}); }

struct Case {
  LaunchShape L;
  EvalEnv Env;
  PointerValues Ptr;
  std::vector<WarpAccess> Accesses;
  std::string Text; ///< for failure messages
};

/// A random launch (up to 4 x 4 x 3 blocks of up to 128 threads) and
/// accesses whose addresses are affine in the global indices.
Case randomCase(std::mt19937 &Rng) {
  auto Pick = [&](int64_t N) { return int64_t(Rng() % uint64_t(N)); };
  Case C;
  int Dims = 1 + int(Pick(3));
  int64_t Left = 128;
  for (int D = 0; D < 3; ++D) {
    int64_t B = D < Dims ? 1 + Pick(std::min<int64_t>(Left, D == 0 ? 96 : 12)) : 1;
    C.L.Block[size_t(D)] = B;
    Left /= B;
    C.L.Grid[size_t(D)] = D < Dims ? 1 + Pick(D == 0 ? 4 : 3) : 1;
  }
  // arg0 = row length (elements), arg1 = n (x bound), arg2 = h (y bound)
  int64_t W = 1 + Pick(300), N = Pick(C.L.Grid[0] * C.L.Block[0] + 20);
  int64_t H = Pick(C.L.Grid[1] * C.L.Block[1] + 4);
  C.Env.Args = {W, N, H};
  C.Env.HasArg = {true, true, true};
  int Width = int(std::array<int64_t, 4>{1, 4, 8, 16}[size_t(Pick(4))]);
  C.Ptr = {uint64_t(0x7f0000000000 + Width * Pick(64))};
  int Count = 1 + int(Pick(3));
  for (int K = 0; K < Count; ++K) {
    // Elements: C0 + a * gx + b * gy * W + c * gz * W * 4, or tid and ctaid
    // apart with their own coefficients.
    int64_t A = Pick(7) - 3, B = Pick(5) - 2, Cz = Pick(3) - 1, C0 = Pick(41) - 20;
    json Idx = add(C0, mul(A, gid('x')));
    if (Pick(3) == 0)
      Idx = add(add(C0, mul(A, sreg("tid.x"))), mul(Pick(41) - 20, sreg("ctaid.x")));
    Idx = add(Idx, mul(mul(B, arg(0)), gid('y')));
    Idx = add(Idx, mul(mul(Cz * 4, arg(0)), gid('z')));
    if (Pick(4) == 0) // a block index the address reads through a remainder
      Idx = add(Idx, mul(arg(0), json::array({"urem", 32, sreg("ctaid.y"), 2})));
    const char *Ext = Pick(3) == 0 ? "zext" : "sext"; // zext: wraps where Idx < 0
    json Offset = mul(Width, ext(Ext, Idx));
    std::vector<json> Factors;
    if (Pick(2))
      Factors.push_back(cmp("slt", gid('x'), arg(1)));
    if (Pick(3) == 0)
      Factors.push_back(cmp("sgt", add(gid('x'), Pick(5) - 4), 0));
    if (Pick(2))
      Factors.push_back(cmp("slt", gid('y'), arg(2)));
    if (Pick(4) == 0) // a clamped trip count: rows left, at most 3
      Factors.push_back(json::array(
          {"max", 0, json::array({"min", 3, json::array({"sub", arg(2), gid('y')})})}));
    if (Pick(5) == 0) // a guard over two grid dimensions: no classes
      Factors.push_back(cmp("slt", add(mul(gid('y'), arg(0)), gid('x')), arg(1)));
    if (Pick(5) == 0) // a guard on the lane alone
      Factors.push_back(cmp("ne", json::array({"and", sreg("tid.x"), 3}), 1));
    json Loops = json::array();
    if (Pick(3) == 0)
      Loops.push_back({{"step", mul(Width * (Pick(9) - 4), arg(0))}, {"trips", 1 + Pick(4)}});
    else if (Pick(3) == 0) // a grid-stride loop's trip count: elements left, strided
      Loops.push_back(
          {{"step", mul(Width, mul(sreg("ntid.x"), sreg("nctaid.x")))},
           {"trips", json::array({"max", 0,
                                  json::array({"ceildiv", json::array({"sub", arg(1), gid('x')}),
                                               mul(sreg("ntid.x"), sreg("nctaid.x"))})})}});
    json J = {{"where", "k:%" + std::to_string(K)},
              {"space", Pick(4) == 0 ? "shared" : "global"},
              {"dir", Pick(2) ? "load" : "store"},
              {"width", Width},
              {"multiplicity", json::array({Factors})},
              {"loops", Loops},
              {"offset", Offset}};
    if (J["space"] == "shared")
      J["base"] = {{"object", "sm"}, {"align", 16}};
    else
      J["base"] = {{"param", 0}};
    C.Accesses.push_back(parseWarpAccess(J));
    C.Text += J.dump() + "\n";
  }
  C.Text += "grid " + std::to_string(C.L.Grid[0]) + "," + std::to_string(C.L.Grid[1]) + "," +
            std::to_string(C.L.Grid[2]) + " block " + std::to_string(C.L.Block[0]) + "," +
            std::to_string(C.L.Block[1]) + "," + std::to_string(C.L.Block[2]) + " args " +
            std::to_string(W) + "," + std::to_string(N) + "," + std::to_string(H);
  return C;
}

json traffic(const Case &C, bool ByShift) {
  WarpModelOptions O;
  O.ByShift = ByShift;
  O.MaxLaneEvaluations = uint64_t(1) << 26;
  try {
    WarpTraffic T = evaluateWarpTraffic(C.Accesses, C.L, C.Env, C.Ptr, {"p", "w", "n", "h"}, O);
    json J = warpTrafficToJson(T);
    J["inexact"] = !T.Inexact.empty(); // which reason comes first may differ
    return J;
  } catch (const ExprError &E) {
    return {{"error", E.what()}};
  }
}
} // namespace

// The closed form over blocks equals evaluating every lane of every block:
// counts, bounds, footprint and whether it is exact.
TEST(WarpClasses, ClosedFormEqualsEveryLaneOnRandomAffineLaunches) {
  std::mt19937 Rng(2026);
  int Exact = 0, Errors = 0;
  for (int Trial = 0; Trial < 600; ++Trial) {
    Case C = randomCase(Rng);
    json Fast = traffic(C, true), Slow = traffic(C, false);
    ASSERT_EQ(Fast, Slow) << C.Text;
    Exact += Fast.value("exact", false);
    Errors += Fast.contains("error");
  }
  EXPECT_GT(Exact, 100); // the cases are not all bounds
  EXPECT_LT(Errors, 10) << "cases not evaluated";
}

// Every value of every thread of a box lies in the interval; a point
// interval is the value of every thread.
TEST(WarpClasses, IntervalsContainEveryThreadsValue) {
  std::mt19937 Rng(5);
  for (int Trial = 0; Trial < 300; ++Trial) {
    Case C = randomCase(Rng);
    EvalEnv E = C.Env;
    E.NTid = C.L.Block;
    E.NCtaId = C.L.Grid;
    IndexBox Box;
    for (size_t D = 0; D < 3; ++D) {
      Box.TidHi[D] = C.L.Block[D] - 1;
      Box.CtaLo[D] = int64_t(Rng() % uint64_t(C.L.Grid[D]));
      Box.CtaHi[D] = Box.CtaLo[D] + int64_t(Rng() % uint64_t(C.L.Grid[D] - Box.CtaLo[D]));
    }
    for (const WarpAccess &A : C.Accesses) {
      std::vector<const Expr *> Es = {A.Offset.get()};
      for (const ExprPtr &F : A.Alternatives[0])
        Es.push_back(F.get());
      for (const Expr *X : Es) {
        auto R = intervalOf(*X, Box, E);
        auto F = affineFormOver(*X, Box, E);
        for (int64_t Z = Box.CtaLo[2]; Z <= Box.CtaHi[2]; ++Z)
          for (int64_t Y = Box.CtaLo[1]; Y <= Box.CtaHi[1]; ++Y)
            for (int64_t Bx = Box.CtaLo[0]; Bx <= Box.CtaHi[0]; ++Bx)
              for (int64_t T = 0; T < C.L.Block[0] * C.L.Block[1] * C.L.Block[2]; ++T) {
                E.CtaId = {Bx, Y, Z};
                E.Tid = {T % C.L.Block[0], (T / C.L.Block[0]) % C.L.Block[1],
                         T / (C.L.Block[0] * C.L.Block[1])};
                int64_t V = X->eval(E);
                if (R) {
                  ASSERT_GE(V, int64_t(R->Lo)) << X->str();
                  ASSERT_LE(V, int64_t(R->Hi)) << X->str();
                }
                if (F) {
                  i128 Form = F->C0;
                  for (size_t I = 0; I < 3; ++I)
                    Form += F->Coef[I] * E.Tid[I] + F->Coef[3 + I] * E.CtaId[I];
                  ASSERT_EQ(i128(V), Form) << X->str();
                }
              }
      }
    }
  }
}

// A 4096 x 4096 launch of 16 x 16 blocks (16M threads) whose address is
// affine and whose guards read one grid dimension each is counted within a
// budget of 1M lane evaluations (the runtime's default); the same launch
// with an address that is not affine is refused before any work. Counts
// derived by hand: a warp is two rows of a block, 16 floats each (64 B, 64-
// byte aligned: 2 sectors), 4096 floats apart: 128 B in 4 sectors; 16M
// threads are 512K warps: 64 MiB of warp bytes, 2M sectors.
TEST(WarpClasses, LargeAffineLaunchWithinTheDefaultBudget) {
  json Idx = add(mul(gid('y'), arg(0)), gid('x'));
  std::vector<json> Guards = {cmp("slt", gid('x'), arg(0)), cmp("slt", gid('y'), arg(0))};
  json J = {{"where", "k:%1"},        {"space", "global"},
            {"dir", "load"},          {"width", 4},
            {"base", {{"param", 0}}}, {"multiplicity", json::array({Guards})},
            {"loops", json::array()}, {"offset", mul(4, ext("sext", Idx))}};
  WarpAccess A = parseWarpAccess(J);
  LaunchShape L;
  L.Grid = {256, 256, 1};
  L.Block = {16, 16, 1};
  EvalEnv Env;
  Env.Args = {4096};
  Env.HasArg = {true};
  WarpModelOptions O;
  O.MaxLaneEvaluations = uint64_t(1) << 20;
  WarpTraffic T = evaluateWarpTraffic({A}, L, Env, {0x7f0000000000}, {"w"}, O);
  EXPECT_TRUE(T.exact());
  EXPECT_EQ(T.Counts.at("warp_bytes.global.load").Lo, u128(4096) * 4096 * 4);
  EXPECT_EQ(T.Counts.at("sectors.global.load").Lo, u128(4096) * 4096 / 32 * 4);
  J["offset"] = mul(4, json::array({"and", ext("sext", Idx), 0xFFFFFF})); // not affine
  WarpAccess Masked = parseWarpAccess(J);
  EXPECT_THROW(evaluateWarpTraffic({Masked}, L, Env, {0x7f0000000000}, {"w"}, O), ExprError);
}
