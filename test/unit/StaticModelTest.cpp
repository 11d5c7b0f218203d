// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of the static-model reader (common/StaticModel).
#include "hroof/StaticModel.h"

#include <gtest/gtest.h>

using namespace hroof;
using nlohmann::json;

static json saxpyModel() {
  return json::parse(R"JSON({
    "hroof_static_model": 1, "source": "s.cu", "arch": "sm_90",
    "kernels": [{
      "name": "saxpy(int, float, float const*, float*)", "mangled": "_Z5saxpy",
      "exact": true, "unknown": [], "functions": [],
      "params": [{"name": "n", "type": "i32"}, {"name": "a", "type": "float"},
                 {"name": "x", "type": "ptr"}, {"name": "y", "type": "ptr"}],
      "terms": [{"where": "b", "counts": {"flops.f32": 2, "bytes.global.load": 8,
                                          "bytes.global.store": 4},
                 "factors": [["icmp", "slt", 32,
                   ["add", ["mul", ["sreg", "ctaid.x"], ["sreg", "ntid.x"]], ["sreg", "tid.x"]],
                   ["arg", 0]]]}]
    }]})JSON");
}

TEST(StaticModel, EvaluatesALaunch) {
  StaticModule M = parseStaticModel(saxpyModel());
  ASSERT_EQ(M.Kernels.size(), 1u);
  const KernelModel &K = M.Kernels[0];
  EXPECT_EQ(findParam(K, "n"), 0);
  EXPECT_EQ(findParam(K, "arg3"), 3);
  EXPECT_EQ(findParam(K, "zz"), -1);
  EXPECT_EQ(neededArgs(K), std::vector<int>{0});
  EvalEnv E;
  E.Args = {1000, 0, 0, 0};
  E.HasArg = {true, false, false, false};
  TotalVector T = evaluateKernel(K, LaunchShape{{4, 1, 1}, {256, 1, 1}}, E);
  EXPECT_EQ(uint64_t(T[flopsIndex(Precision::F32)]), 2000u);
  EXPECT_EQ(uint64_t(T[bytesIndex(MemSpace::Global, MemDir::Load)]), 8000u);
  EXPECT_EQ(uint64_t(T[bytesIndex(MemSpace::Global, MemDir::Store)]), 4000u);
}

TEST(StaticModel, CounterNamesRoundTrip) {
  for (int I = 0; I < NumCounters; ++I)
    EXPECT_EQ(counterIndex(counterName(I)), I) << counterName(I);
  EXPECT_EQ(counterName(specialIndex(Precision::F32, SpecialOp::Rsqrt)), "special.f32.rsqrt");
  EXPECT_EQ(counterName(tensorIndex(TensorType::FP8)), "tensor_flops.fp8");
}

TEST(StaticModel, RejectsForeignJson) {
  EXPECT_THROW(parseStaticModel(json::object()), std::runtime_error);
  json J = saxpyModel();
  J["kernels"][0]["terms"][0]["counts"]["flops.f128"] = 1;
  EXPECT_THROW(parseStaticModel(J), std::runtime_error);
  J = saxpyModel();
  J["hroof_static_model"] = 99;
  EXPECT_THROW(parseStaticModel(J), std::runtime_error);
}
