//===- ParamBytesTest.cpp - fields of by-value arguments from launch bytes ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime reads the fields of by-value struct arguments that a static
// model uses (["field", I, OFF, W]) from each launch's argument bytes, given
// as per-argument pointers (kernelParams) or as one packed buffer (extra):
// both give the same values, padding and sign extension included.
//
// Run: build/bin/hroof-rt-tests --gtest_filter='ParamBytes*'
//===----------------------------------------------------------------------===//
#include "launches/ParamBytes.h"

#include <gtest/gtest.h>

#include <cuda.h>

#include <cstring>

using namespace hroof;
using namespace hroof::rt;

namespace {

// The host's view of the by-value argument: padding after c (lo is 8-byte
// aligned) and after m.
struct Params {
  char c;
  long long lo; // offset 8
  short s;      // offset 16
  int m;        // offset 20
};
static_assert(sizeof(Params) == 24, "the layout the model's offsets assume");

/// kernel(int n, Params p): 1 f32 FLOP per thread with tid.x < p.m, and
/// p.lo f64 FLOPs per thread.
KernelModel model() {
  auto J = nlohmann::json::parse(R"({"hroof_static_model": 1, "kernels": [{
      "name": "k", "mangled": "k", "exact": true,
      "params": [{"name": "n", "type": "i32"}, {"name": "p", "type": "ptr"}],
      "terms": [
        {"counts": {"flops.f32": 1},
         "factors": [["icmp", "slt", 32, ["sreg", "tid.x"], ["field", 1, 20, 32]]]},
        {"counts": {"flops.f64": 1}, "factors": [["field", 1, 8, 64]]},
        {"counts": {"flops.f16": 1},
         "factors": [["icmp", "slt", 16, ["field", 1, 16, 16], 0]]}]}]})");
  return parseStaticModel(J).Kernels.at(0);
}

// n at offset 0, p at 8 (its alignment), as cuFuncGetParamInfo gives them.
const ParamLayout Layout = {{0, 4}, {8, 24}};

Params params() {
  Params P;
  std::memset(&P, 0xAB, sizeof P); // padding bytes are never read
  P.c = 1;
  P.lo = 5;
  P.s = -3;
  P.m = 20;
  return P;
}

void expectFields(const KernelModel &K, const EvalEnv &Env) {
  ASSERT_EQ(K.Fields.size(), 3u);
  EXPECT_EQ(Env.FieldVals.at(FieldRef{1, 8, 64}), 5);
  EXPECT_EQ(Env.FieldVals.at(FieldRef{1, 16, 16}), -3); // sign-extended
  EXPECT_EQ(Env.FieldVals.at(FieldRef{1, 20, 32}), 20);
  TotalVector T = evaluateKernel(K, LaunchShape{{1, 1, 1}, {64, 1, 1}}, Env);
  EXPECT_EQ(uint64_t(T[counterIndex("flops.f32")]), 20u);
  EXPECT_EQ(uint64_t(T[counterIndex("flops.f64")]), 5u * 64);
  EXPECT_EQ(uint64_t(T[counterIndex("flops.f16")]), 64u);
}

} // namespace

TEST(ParamBytes, FieldsFromKernelParams) {
  KernelModel K = model();
  int N = 7;
  Params P = params();
  void *Args[] = {&N, &P};
  EvalEnv Env;
  std::vector<std::pair<std::string, int64_t>> Record;
  EXPECT_EQ(readModelFields(K, Args, nullptr, Layout, Env, Record), "");
  expectFields(K, Env);
  ASSERT_EQ(Record.size(), 3u);
  EXPECT_EQ(Record[0].first, "p+8");
  EXPECT_EQ(Record[0].second, 5);
}

TEST(ParamBytes, FieldsFromExtraBuffer) {
  KernelModel K = model();
  unsigned char Buf[32];
  std::memset(Buf, 0xCD, sizeof Buf);
  int N = 7;
  Params P = params();
  std::memcpy(Buf, &N, 4);
  std::memcpy(Buf + 8, &P, sizeof P);
  size_t Size = sizeof Buf;
  void *Extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, Buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &Size,
                   CU_LAUNCH_PARAM_END};
  EvalEnv Env;
  std::vector<std::pair<std::string, int64_t>> Record;
  EXPECT_EQ(readModelFields(K, nullptr, Extra, Layout, Env, Record), "");
  expectFields(K, Env);
}

TEST(ParamBytes, FieldOutsideTheArgumentIsAProblem) {
  KernelModel K = model();
  // An ABI size smaller than the model's offsets (a model of another build).
  ParamLayout Short = {{0, 4}, {8, 16}};
  int N = 7;
  Params P = params();
  void *Args[] = {&N, &P};
  EvalEnv Env;
  std::vector<std::pair<std::string, int64_t>> Record;
  EXPECT_NE(readModelFields(K, Args, nullptr, Short, Env, Record).find("cannot read field p+16"),
            std::string::npos);
}

TEST(ParamBytes, MissingFieldIsNamedByTheEvaluator) {
  KernelModel K = model();
  EvalEnv Env;
  try {
    evaluateKernel(K, LaunchShape{{1, 1, 1}, {64, 1, 1}}, Env);
    FAIL() << "evaluated without the field values";
  } catch (const ExprError &E) {
    EXPECT_NE(std::string(E.what()).find("field 'p+"), std::string::npos) << E.what();
  }
}
