// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of the static-model expression evaluator (common/Expr).
#include "hroof/Expr.h"

#include <gtest/gtest.h>

using namespace hroof;
using nlohmann::json;

static int64_t ev(const json &J, std::vector<int64_t> Args = {}) {
  EvalEnv Env;
  Env.Args = Args;
  Env.HasArg.assign(Args.size(), true);
  return Expr::parse(J)->eval(Env);
}

TEST(Expr, ConstantsAndArithmetic) {
  EXPECT_EQ(ev(7), 7);
  EXPECT_EQ(ev(json::array({"add", 2, 3})), 5);
  EXPECT_EQ(ev(json::array({"sub", 2, 3})), -1);
  EXPECT_EQ(ev(json::array({"mul", json::array({"arg", 0}), 4}), {6}), 24);
  EXPECT_EQ(ev(json::array({"shl", 1, 10})), 1024);
}

TEST(Expr, WidthSensitiveOperations) {
  // -1 as i32 is 4294967295 unsigned.
  EXPECT_EQ(ev(json::array({"udiv", 32, -1, 2})), 2147483647);
  EXPECT_EQ(ev(json::array({"sdiv", 32, -7, 2})), -3);
  EXPECT_EQ(ev(json::array({"srem", 32, -7, 2})), -1);
  EXPECT_EQ(ev(json::array({"zext", 32, -1})), 4294967295LL);
  EXPECT_EQ(ev(json::array({"sext", 32, 4294967295LL})), -1);
  EXPECT_EQ(ev(json::array({"lshr", 32, -1, 28})), 15);
  EXPECT_EQ(ev(json::array({"ashr", 32, -16, 2})), -4);
  EXPECT_EQ(ev(json::array({"smax", 32, -1, 1})), 1);
  EXPECT_EQ(ev(json::array({"umax", 32, -1, 1})), -1);
}

TEST(Expr, ComparesReadTheirWidth) {
  EXPECT_EQ(ev(json::array({"icmp", "slt", 32, -1, 0})), 1);
  EXPECT_EQ(ev(json::array({"icmp", "ult", 32, -1, 0})), 0);
  // 2^32 + 1 truncated to i32 is 1.
  EXPECT_EQ(ev(json::array({"icmp", "eq", 32, 4294967297LL, 1})), 1);
  EXPECT_EQ(ev(json::array({"not", json::array({"icmp", "sgt", 32, 3, 2})})), 0);
}

TEST(Expr, CeilDivAndMax) {
  EXPECT_EQ(ev(json::array({"ceildiv", 10, 3})), 4);
  EXPECT_EQ(ev(json::array({"ceildiv", -10, 3})), -3);
  EXPECT_EQ(ev(json::array({"ceildiv", 9, 3})), 3);
  EXPECT_EQ(ev(json::array({"max", 1, json::array({"ceildiv", -5, 4})})), 1);
  EXPECT_THROW(ev(json::array({"ceildiv", 1, 0})), ExprError);
}

TEST(Expr, SpecialRegistersAndSelect) {
  EvalEnv Env;
  Env.Tid = {5, 0, 0};
  Env.NTid = {128, 1, 1};
  Env.CtaId = {3, 0, 0};
  auto E = Expr::parse(json::array(
      {"add",
       json::array({"mul", json::array({"sreg", "ctaid.x"}), json::array({"sreg", "ntid.x"})}),
       json::array({"sreg", "tid.x"})}));
  EXPECT_EQ(E->eval(Env), 3 * 128 + 5);
  EXPECT_EQ(E->threadVarMask(), 1u | (1u << 3));
  EXPECT_EQ(Expr::parse(json::array({"select", 0, 1, 2}))->eval(Env), 2);
}

TEST(Expr, RoundTripsThroughJson) {
  json J = json::array({"icmp", "sle", 32, json::array({"arg", 1}),
                        json::array({"udiv", 32, json::array({"sreg", "nctaid.y"}), 3})});
  EXPECT_EQ(Expr::parse(J)->toJson(), J);
}

TEST(Expr, MissingArgumentIsAnError) {
  EvalEnv Env;
  Env.ArgNames = {"n"};
  try {
    Expr::parse(json::array({"arg", 0}))->eval(Env);
    FAIL() << "no error";
  } catch (const ExprError &E) {
    EXPECT_NE(std::string(E.what()).find("'n'"), std::string::npos);
  }
}

TEST(Expr, MalformedInputIsRejected) {
  EXPECT_THROW(Expr::parse(json::array({"frobnicate", 1, 2})), ExprError);
  EXPECT_THROW(Expr::parse(json::array({"add", 1})), ExprError);
  EXPECT_THROW(Expr::parse(json::array({"sreg", "tid.w"})), ExprError);
  EXPECT_THROW(Expr::parse(json::array({"icmp", "lt", 32, 1, 2})), ExprError);
  EXPECT_THROW(Expr::parse("x"), ExprError);
  EXPECT_THROW(Expr::parse(json::array({"udiv", 99, 1, 2})), ExprError);
}

namespace {
json ivar(int I) { return json::array({"ivar", I}); }
json sum(int I, json Lo, json Hi, json Body) { return json::array({"sum", I, Lo, Hi, Body}); }
} // namespace

TEST(Expr, SumOverAnIterationIndex) {
  // Triangular: sum over i in [0, n) of i = n(n-1)/2.
  for (int64_t N : {0, 1, 2, 10, 1000})
    EXPECT_EQ(ev(sum(0, 0, json::array({"arg", 0}), ivar(0)), {N}), N * (N - 1) / 2) << N;
  // An empty or reversed range sums to 0.
  EXPECT_EQ(ev(sum(0, 5, 5, 1)), 0);
  EXPECT_EQ(ev(sum(0, 5, -3, 1)), 0);
  // Nested, the inner range from the outer index: sum over i < 4 of
  // sum over j in [i, 4) of 1 = 4 + 3 + 2 + 1.
  EXPECT_EQ(ev(sum(0, 0, 4, sum(1, ivar(0), 4, 1))), 10);
  // A remainder test of the index: k % 3 == 0 for k < 10: 0, 3, 6, 9.
  EXPECT_EQ(ev(sum(2, 0, 10,
                   json::array({"icmp", "eq", 32, json::array({"srem", 32, ivar(2), 3}), 0}))),
            4);
}

TEST(Expr, SumReadsAndRestoresItsIndex) {
  // The same id twice in a row, and a sum inside a sum of another id.
  json J = json::array({"add", sum(0, 0, 3, ivar(0)), sum(0, 10, 12, ivar(0))});
  EXPECT_EQ(ev(J), 0 + 1 + 2 + 10 + 11);
  ExprPtr E = Expr::parse(J);
  EXPECT_EQ(E->toJson(), J);
  EXPECT_TRUE(E->containsSum());
  EXPECT_FALSE(Expr::parse(json::array({"add", 1, 2}))->containsSum());
  EXPECT_EQ(E->str(), "(sum(k0 in [0, 3): k0) + sum(k0 in [10, 12): k0))");
}

TEST(Expr, IterationIndexOutsideItsSumIsRejected) {
  EXPECT_THROW(Expr::parse(ivar(0)), ExprError);
  EXPECT_THROW(Expr::parse(sum(0, 0, 3, ivar(1))), ExprError);
  // The range is outside the sum's own scope.
  EXPECT_THROW(Expr::parse(sum(0, 0, ivar(0), 1)), ExprError);
  EXPECT_THROW(Expr::parse(json::array({"sum", 0, 0, 3})), ExprError);
  EXPECT_THROW(Expr::parse(json::array({"sum", -1, 0, 3, 1})), ExprError);
  EXPECT_THROW(Expr::parse(json::array({"ivar", "k"})), ExprError);
}

TEST(Expr, SumTooLongIsAnErrorNotAHang) {
  EvalEnv Env;
  Env.MaxSumSteps = 1000;
  ExprPtr E = Expr::parse(sum(0, 0, 1001, 1));
  EXPECT_THROW(E->eval(Env), ExprError);
  // A zero factor before it keeps the sum from running at all.
  EXPECT_EQ(Expr::parse(json::array({"mul", 0, sum(0, 0, int64_t(1) << 40, 1)}))->eval(Env), 0);
}

// Folding a launch's uniform parts changes no value and no error: every
// thread of a small launch evaluates the folded and the original expression
// alike, a sum's bounds fold and its body does not, and a division by zero
// or an argument not given stays in the folded form (and still fails).
TEST(Expr, FoldLaunchUniformKeepsValuesAndErrors) {
  json Tid = json::array({"sreg", "tid.x"}), NTid = json::array({"sreg", "ntid.x"});
  json Uniform = json::array({"mul", json::array({"add", json::array({"arg", 0}), NTid}), 3});
  json E = json::array(
      {"add", json::array({"udiv", 32, Tid, json::array({"add", json::array({"arg", 1}), 1})}),
       sum(0, 0, Uniform, json::array({"mul", ivar(0), Tid}))});
  ExprPtr P = Expr::parse(E);
  EvalEnv Env;
  Env.Args = {5, 2};
  Env.HasArg = {true, true};
  Env.NTid = {64, 1, 1};
  ExprPtr F = foldLaunchUniform(P, Env);
  EXPECT_NE(F->str(), P->str());
  EXPECT_NE(F->str().find("207"), std::string::npos) << F->str(); // (5 + 64) * 3
  for (int64_t T = 0; T < 64; ++T) {
    Env.Tid = {T, 0, 0};
    EXPECT_EQ(F->eval(Env), P->eval(Env)) << T;
  }
  Env.Args = {5, -1}; // the divisor arg1 + 1 is 0: kept, fails in the thread
  ExprPtr Z = foldLaunchUniform(P, Env);
  EXPECT_THROW(Z->eval(Env), ExprError);
  Env.HasArg = {false, true}; // arg0 not given: kept, fails in the thread
  EXPECT_THROW(foldLaunchUniform(P, Env)->eval(Env), ExprError);
}

// ["field", I, OFF, W]: a field of a by-value struct argument, a launch
// parameter read from the argument's bytes (common/include/hroof/Expr.h).
TEST(Expr, FieldsOfByValueArguments) {
  json J = json::array({"field", 1, 4, 16});
  ExprPtr E = Expr::parse(J);
  EXPECT_EQ(E->toJson(), J);
  std::vector<std::string> Names = {"n", "p"};
  EXPECT_EQ(E->str(&Names), "p+4");
  EvalEnv Env;
  EXPECT_THROW(E->eval(Env), ExprError); // not given
  // Bytes 4..5 of the argument, little-endian, sign-extended from 16 bits.
  const unsigned char Bytes[8] = {1, 2, 3, 4, 0xfe, 0xff, 7, 8};
  std::optional<int64_t> V = readField(E->fieldRef(), Bytes, sizeof Bytes);
  ASSERT_TRUE(V);
  EXPECT_EQ(*V, -2);
  Env.FieldVals[E->fieldRef()] = *V;
  EXPECT_EQ(Expr::parse(json::array({"mul", J, 3}))->eval(Env), -6);
  // A launch-uniform value: folded once per launch.
  EXPECT_TRUE(foldLaunchUniform(E, Env)->isConst());
  // Outside the argument's bytes: no value.
  EXPECT_FALSE(readField(FieldRef{0, 6, 32}, Bytes, sizeof Bytes));
  for (const json &Bad : {json::array({"field", 1, 4}), json::array({"field", 1, 4, 12}),
                          json::array({"field", -1, 4, 32}), json::array({"field", 1, -4, 32})})
    EXPECT_THROW(Expr::parse(Bad), ExprError) << Bad.dump();
}
