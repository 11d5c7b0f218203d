// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Unit tests of the static-model reader (common/StaticModel).
#include "hroof/StaticModel.h"

#include <gtest/gtest.h>

#include <set>

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
  // The warp-level counters: after the thread-level ones, with the keys of
  // the static warp model (WarpModel.h), each index once.
  EXPECT_EQ(counterName(warpBytesIndex(MemSpace::Global, MemDir::Load)), "warp_bytes.global.load");
  EXPECT_EQ(counterName(warpBytesIndex(MemSpace::Shared, MemDir::Store)),
            "warp_bytes.shared.store");
  EXPECT_EQ(counterName(sectorsIndex(MemDir::Store)), "sectors.global.store");
  EXPECT_EQ(counterName(wavefrontsIndex(MemDir::Load)), "wavefronts.shared.load");
  std::set<int> Warp;
  for (MemDir D : {MemDir::Load, MemDir::Store})
    for (int I : {warpBytesIndex(MemSpace::Global, D), warpBytesIndex(MemSpace::Shared, D),
                  sectorsIndex(D), wavefrontsIndex(D)}) {
      EXPECT_TRUE(isWarpCounter(I)) << I;
      EXPECT_GE(I, NumThreadCounters);
      Warp.insert(I);
    }
  EXPECT_EQ(int(Warp.size()), NumWarpCounters);
  EXPECT_EQ(NumCounters, NumThreadCounters + NumWarpCounters);
  EXPECT_FALSE(isWarpCounter(bytesIndex(MemSpace::Generic, MemDir::Atomic)));
  // Static count objects stop at the thread-level counters.
  nlohmann::json J = countsToJson(TotalVector{}, NumThreadCounters);
  EXPECT_FALSE(J.contains("warp_bytes"));
  EXPECT_TRUE(countsToJson(TotalVector{}).contains("wavefronts"));
}

// "counted_by_model" (the plugin left the kernel uninstrumented) is read,
// and only an exact model can stand for the counts.
TEST(StaticModel, CountedByModelOnlyWhenExact) {
  json J = saxpyModel();
  EXPECT_FALSE(parseStaticModel(J).Kernels[0].CountedByModel);
  J["kernels"][0]["counted_by_model"] = true;
  EXPECT_TRUE(parseStaticModel(J).Kernels[0].CountedByModel);
  J["kernels"][0]["exact"] = false;
  EXPECT_FALSE(parseStaticModel(J).Kernels[0].CountedByModel);
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

// Totals of a model that is not exact as bounds: a known term (2 FLOPs per
// thread), a guarded one (5 FLOPs and 12 B, under a condition on data) and a
// loop without a trip count (4 B per entry): lo counts the first only, hi
// the first two, and the loop's loads have no upper bound.
TEST(StaticModel, BoundsOfAModelThatIsNotExact) {
  json J = saxpyModel();
  json &K = J["kernels"][0];
  K["exact"] = false;
  K["unknown"] = {"branch on data", "loop with no trip count"};
  K["terms"] = json::parse(R"JSON([
    {"where": "k:a", "counts": {"flops.f32": 2}, "factors": []},
    {"where": "k:b", "counts": {"flops.f32": 5, "bytes.global.load": 12}, "factors": [],
     "guarded": true},
    {"where": "k:c", "counts": {"bytes.global.load": 4}, "factors": [], "unbounded": true}])JSON");
  StaticModule M = parseStaticModel(J);
  EvalEnv E;
  TotalBounds B = evaluateKernelBounds(M.Kernels[0], LaunchShape{{2, 1, 1}, {64, 1, 1}}, E);
  int F32 = flopsIndex(Precision::F32), Ld = bytesIndex(MemSpace::Global, MemDir::Load);
  EXPECT_EQ(uint64_t(B.Lo[F32]), 256u);
  EXPECT_EQ(uint64_t(B.Hi[F32]), 896u);
  EXPECT_TRUE(B.HasHi[F32]);
  EXPECT_EQ(uint64_t(B.Lo[Ld]), 0u);
  EXPECT_FALSE(B.HasHi[Ld]);
  EXPECT_NE(B.NoHiBecause.find("k:c"), std::string::npos);
  json Out = totalBoundsToJson(B);
  EXPECT_TRUE(Out["hi"]["bytes"]["global"]["load"].is_null());
  EXPECT_EQ(Out["hi"]["flops"]["f32"], 896);
  // Counts left out altogether (an unknown call): no counter has an upper bound.
  J["kernels"][0]["no_upper_bound"] = {"indirect call"};
  TotalBounds C =
      evaluateKernelBounds(parseStaticModel(J).Kernels[0], LaunchShape{{2, 1, 1}, {64, 1, 1}}, E);
  EXPECT_FALSE(C.HasHi[F32]);
  EXPECT_EQ(C.NoHiBecause, "indirect call");
}
