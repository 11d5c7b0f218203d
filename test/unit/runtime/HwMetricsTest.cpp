//===- HwMetricsTest.cpp - hardware-counter metric lists and keys, no GPU --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "metrics/HwMetrics.h"
#include "profile/Profile.h"
#include "replay/ReplayPolicy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <algorithm>
#include <cstdlib>

using namespace hroof::rt;

namespace {

bool has(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}

TEST(HwMetrics, RooflineSet) {
  const auto &M = rooflineMetrics();
  for (const char *N :
       {"gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second",
        "sm__sass_thread_inst_executed_op_dfma_pred_on.sum",
        "sm__sass_thread_inst_executed_op_hmul_pred_on.sum", "sm__ops_path_tensor_src_fp16.sum",
        "sm__ops_path_tensor_src_fp8_sparsity_off.sum", "sm__sass_data_bytes_mem_global_op_ld.sum",
        "sm__sass_data_bytes_mem_global_op_red.sum", "sm__sass_data_bytes_mem_local_op_st.sum",
        "l1tex__t_bytes.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "lts__t_bytes.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",
        "dram__bytes.sum.peak_sustained", "dram__cycles_elapsed.avg.per_second"})
    EXPECT_TRUE(has(M, N)) << N;
  std::vector<std::string> S = M;
  std::sort(S.begin(), S.end());
  EXPECT_EQ(std::unique(S.begin(), S.end()), S.end()) << "duplicates";
}

TEST(HwMetrics, Setting) {
  EXPECT_FALSE(parseCountersSetting("none").Enabled);
  EXPECT_FALSE(parseCountersSetting("").Enabled);
  EXPECT_FALSE(parseCountersSetting("OFF").Enabled);
  CountersSetting R = parseCountersSetting("roofline");
  EXPECT_TRUE(R.Enabled);
  EXPECT_EQ(R.Metrics, rooflineMetrics());
  CountersSetting L =
      parseCountersSetting(" dram__bytes_read.sum, lts__t_bytes.sum,dram__bytes_read.sum");
  EXPECT_TRUE(L.Enabled);
  EXPECT_EQ(L.Metrics, (std::vector<std::string>{"dram__bytes_read.sum", "lts__t_bytes.sum"}));
  CountersSetting X = parseCountersSetting("roofline,smsp__inst_executed.sum");
  EXPECT_EQ(X.Metrics.size(), rooflineMetrics().size() + 1);
  EXPECT_EQ(X.Metrics.back(), "smsp__inst_executed.sum");
  CountersSetting B = parseCountersSetting("lts__t_bytes.sum,rm -rf");
  EXPECT_FALSE(B.Problem.empty());
  EXPECT_EQ(B.Metrics, std::vector<std::string>{"lts__t_bytes.sum"});
}

TEST(HwMetrics, RooflineFullTurnsLearningOff) {
  CountersSetting R = parseCountersSetting("roofline");
  EXPECT_TRUE(R.LearnTensorTypes);
  CountersSetting F = parseCountersSetting("Roofline-Full");
  EXPECT_TRUE(F.Enabled);
  EXPECT_TRUE(F.Problem.empty()) << F.Problem;
  EXPECT_EQ(F.Metrics, rooflineMetrics());
  EXPECT_FALSE(F.LearnTensorTypes);
  // A custom list without the pipe counters cannot check learned types.
  EXPECT_FALSE(parseCountersSetting("sm__ops_path_tensor_src_fp16.sum").LearnTensorTypes);
  for (const std::string &M : tensorTypeMetrics())
    EXPECT_TRUE(has(rooflineMetrics(), M)) << M;
  for (const std::string &M : tensorPipeMetrics())
    EXPECT_TRUE(has(rooflineMetrics(), M)) << M;
}

TEST(HwMetrics, LearnedTensorTypes) {
  const std::string F16 = "sm__ops_path_tensor_src_fp16.sum",
                    TF32 = "sm__ops_path_tensor_src_tf32_dst_fp32.sum",
                    F64 = "sm__ops_path_tensor_src_fp64.sum",
                    Hmma = "sm__inst_executed_pipe_tensor_op_hmma.sum",
                    Dmma = "sm__inst_executed_pipe_tensor_op_dmma.sum";
  std::map<std::string, double> First;
  for (const std::string &M : tensorTypeMetrics())
    First[M] = 0;
  for (const std::string &M : tensorPipeMetrics())
    First[M] = 0;
  First[F16] = 8192;
  First[Hmma] = 2;
  TensorTypes L = learnTensorTypes(First);
  EXPECT_EQ(L.Types, std::set<std::string>{F16});
  EXPECT_EQ(L.Pipes, std::set<std::string>{Hmma});
  // Later launches: the base metrics and fp16 only.
  std::vector<std::string> Later = metricsForTypes(rooflineMetrics(), L);
  EXPECT_TRUE(has(Later, F16));
  EXPECT_FALSE(has(Later, TF32));
  EXPECT_FALSE(has(Later, F64));
  EXPECT_TRUE(has(Later, Hmma));
  EXPECT_TRUE(has(Later, "dram__bytes_read.sum"));
  EXPECT_EQ(Later.size(), rooflineMetrics().size() - tensorTypeMetrics().size() + 1);
  // Consistent: the same pipe busy -> the omitted types are zero.
  std::map<std::string, double> V;
  for (const std::string &M : tensorPipeMetrics())
    V[M] = 0;
  V[Hmma] = 4;
  V[F16] = 16384;
  EXPECT_EQ(checkTensorTypes(L, V), "");
  std::vector<std::string> Zero;
  for (const std::string &M : tensorTypeMetrics())
    if (M != F16)
      Zero.push_back(M);
  nlohmann::json J = countersToJson(V, Zero);
  EXPECT_EQ(J["tensor_flops"]["f16"], 16384);
  EXPECT_EQ(J["tensor_flops"]["tf32"], 0);
  EXPECT_EQ(J["tensor_flops"]["f64"], 0);
  EXPECT_EQ(J["tensor_flops_inferred"].size(), tensorTypeMetrics().size() - 1);
  EXPECT_FALSE(J["raw"].contains(TF32)); // raw holds measured values only
  EXPECT_TRUE(J["raw"].contains(F16));
  // A pipe idle when learned is busy now: the check fails.
  V[Dmma] = 1;
  EXPECT_NE(checkTensorTypes(L, V).find("dmma"), std::string::npos);
  // Missing pipe counters cannot be checked.
  V.erase(Dmma);
  EXPECT_NE(checkTensorTypes(L, V), "");
  // A kernel with no tensor work: no type metric at all later.
  std::map<std::string, double> Idle;
  for (const std::string &M : tensorTypeMetrics())
    Idle[M] = 0;
  TensorTypes None = learnTensorTypes(Idle);
  for (const std::string &M : tensorTypeMetrics())
    EXPECT_FALSE(has(metricsForTypes(rooflineMetrics(), None), M)) << M;
  // A type metric that was not measured stays in the list.
  Idle.erase(TF32);
  EXPECT_TRUE(has(metricsForTypes(rooflineMetrics(), learnTensorTypes(Idle)), TF32));
}

TEST(HwMetrics, TypesIdleByPipesFollowTheIssuingPipes) {
  auto Pipes = [](std::map<std::string, double> Busy) {
    std::map<std::string, double> V;
    for (const char *P : {"hmma", "gmma", "dmma", "imma"})
      V[std::string("sm__inst_executed_pipe_tensor_op_") + P + ".sum"] = Busy[P];
    return V;
  };
  auto Has = [](const std::vector<std::string> &V, const std::string &Suffix) {
    return std::count(V.begin(), V.end(), "sm__ops_path_tensor_src_" + Suffix + ".sum") == 1;
  };
  // No pipe issued: no type ran.
  EXPECT_EQ(typesIdleByPipes(Pipes({})).size(), tensorTypeMetrics().size());
  // mma.sync f16/bf16/tf32 (hmma): f64 and int8 are known zero, the hmma
  // types and fp8 are not.
  std::vector<std::string> H = typesIdleByPipes(Pipes({{"hmma", 5}}));
  EXPECT_TRUE(Has(H, "fp64") && Has(H, "int8"));
  EXPECT_FALSE(Has(H, "fp16") || Has(H, "bf16_dst_fp32") || Has(H, "tf32_dst_fp32"));
  EXPECT_FALSE(Has(H, "fp8_sparsity_off"));
  // wgmma (gmma) may issue every type but f64.
  std::vector<std::string> G = typesIdleByPipes(Pipes({{"gmma", 1}}));
  EXPECT_EQ(G, std::vector<std::string>{"sm__ops_path_tensor_src_fp64.sum"});
  // s8 mma.sync (imma): int8 is not known zero.
  EXPECT_FALSE(Has(typesIdleByPipes(Pipes({{"imma", 1}})), "int8"));
  EXPECT_FALSE(Has(typesIdleByPipes(Pipes({{"dmma", 1}})), "fp64"));
  EXPECT_TRUE(typesIdleByPipes({}).empty()) << "no pipe measured: nothing known";
  // HFMA2.MMA on the hmma pipe (a constant moved by ptxas) is no tensor
  // instruction; an HMMA beside it is.
  std::map<std::string, double> M = Pipes({{"hmma", 528}});
  M[hfma2PipeMetric()] = 528;
  EXPECT_EQ(typesIdleByPipes(M).size(), tensorTypeMetrics().size());
  M["sm__inst_executed_pipe_tensor_op_hmma.sum"] = 529;
  EXPECT_FALSE(Has(typesIdleByPipes(M), "fp16"));
  // A pipe not measured (or NaN) counts as busy: imma may issue int8 and
  // fp8, dmma fp64; those are not inferred, the others are.
  std::map<std::string, double> V = Pipes({});
  V.erase("sm__inst_executed_pipe_tensor_op_imma.sum");
  std::vector<std::string> NI = typesIdleByPipes(V);
  EXPECT_FALSE(Has(NI, "int8") || Has(NI, "fp8_sparsity_off"));
  EXPECT_TRUE(Has(NI, "fp16") && Has(NI, "fp64"));
  V = Pipes({});
  V["sm__inst_executed_pipe_tensor_op_dmma.sum"] = std::nan("");
  EXPECT_EQ(typesIdleByPipes(V).size(), tensorTypeMetrics().size() - 1);
  EXPECT_FALSE(Has(typesIdleByPipes(V), "fp64"));
}

TEST(HwMetrics, FlopFormulasAndKeys) {
  std::map<std::string, double> V;
  auto Op = [&](const char *O, double N) {
    V[std::string("sm__sass_thread_inst_executed_op_") + O + "_pred_on.sum"] = N;
  };
  Op("dadd", 1), Op("dmul", 2), Op("dfma", 3);    // 1+2+2*3 = 9
  Op("fadd", 10), Op("fmul", 20), Op("ffma", 30); // 10+20+60 = 90
  Op("hadd", 1), Op("hmul", 1), Op("hfma", 1);    // 2+2+4 = 8
  V["sm__ops_path_tensor_src_fp16.sum"] = 4096;
  V["sm__ops_path_tensor_src_tf32_dst_fp32.sum"] = 512;
  V["sm__sass_data_bytes_mem_global_op_ld.sum"] = 800;
  V["sm__sass_data_bytes_mem_global_op_st.sum"] = 400;
  V["sm__sass_data_bytes_mem_global_op_atom.sum"] = 8;
  V["sm__sass_data_bytes_mem_global_op_red.sum"] = 4;
  V["sm__sass_data_bytes_mem_shared_op_ld.sum"] = 64;
  V["sm__sass_data_bytes_mem_shared_op_st.sum"] = 32;
  V["l1tex__t_bytes.sum"] = 1000;
  V["lts__t_bytes.sum"] = 2000;
  V["dram__bytes_read.sum"] = 300;
  V["dram__bytes_write.sum"] = 200;
  V["gpu__time_duration.sum"] = 1536;
  V["sm__cycles_elapsed.avg.per_second"] = 1.5e9;
  V["sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"] = 16896;
  V["dram__bytes.sum.peak_sustained"] = 64;
  V["dram__cycles_elapsed.avg.per_second"] = 2.0e9;
  nlohmann::json J = countersToJson(V);
  EXPECT_EQ(J["flops"]["f64"], 9);
  EXPECT_EQ(J["flops"]["f32"], 90);
  EXPECT_EQ(J["flops"]["f16"], 8);
  EXPECT_EQ(J["tensor_flops"]["f16"], 4096);
  EXPECT_EQ(J["tensor_flops"]["tf32"], 512);
  EXPECT_FALSE(J["tensor_flops"].contains("bf16")); // not collected
  EXPECT_EQ(J["bytes"]["global"]["load"], 800);
  EXPECT_EQ(J["bytes"]["global"]["store"], 400);
  EXPECT_EQ(J["bytes"]["global"]["atomic"], 12);
  EXPECT_EQ(J["bytes"]["shared"]["load"], 64);
  EXPECT_FALSE(J["bytes"].contains("local"));
  EXPECT_FALSE(J["bytes"]["shared"].contains("atomic"));
  EXPECT_EQ(J["l1_bytes"], 1000);
  EXPECT_EQ(J["l2_bytes"], 2000);
  EXPECT_EQ(J["dram_bytes"], 500);
  EXPECT_EQ(J["time_ns"], 1536);
  EXPECT_DOUBLE_EQ(J["peak"]["flops_per_s"]["f32"].get<double>(), 16896 * 2 * 1.5e9);
  EXPECT_DOUBLE_EQ(J["peak"]["dram_bytes_per_s"].get<double>(), 64 * 2.0e9);
  EXPECT_EQ(J["raw"].size(), V.size());
  EXPECT_EQ(J["raw"]["lts__t_bytes.sum"], 2000);
}

TEST(HwMetrics, PartialListAndSum) {
  nlohmann::json A = countersToJson({{"dram__bytes_read.sum", 10}});
  EXPECT_FALSE(A.contains("dram_bytes")); // needs read and write
  EXPECT_FALSE(A.contains("flops"));
  nlohmann::json One = countersToJson({{"dram__bytes_read.sum", 10},
                                       {"dram__bytes_write.sum", 5},
                                       {"sm__sass_data_bytes_mem_global_op_ld.sum", 8},
                                       {"gpu__time_duration.sum", 100}});
  nlohmann::json Sum;
  addCounters(Sum, One);
  addCounters(Sum, One);
  EXPECT_EQ(Sum["dram_bytes"], 30);
  EXPECT_EQ(Sum["bytes"]["global"]["load"], 16);
  EXPECT_EQ(Sum["time_ns"], 200);
  EXPECT_FALSE(Sum.contains("raw"));
}

TEST(HwMetrics, LaunchRecordAndAggregate) {
  LaunchRecord R;
  R.Mangled = R.Name = "k";
  nlohmann::json J = launchToJson(R, 0);
  EXPECT_FALSE(J.contains("counters")); // not attempted
  R.HwTried = true;
  R.HwProblem = "no range";
  J = launchToJson(R, 0);
  EXPECT_TRUE(J["counters"].is_null());
  EXPECT_EQ(J["counters_problem"], "no range");
  R.Hw = countersToJson({{"lts__t_bytes.sum", 64}});
  J = launchToJson(R, 0);
  EXPECT_EQ(J["counters"]["l2_bytes"], 64);
  KernelAggregate K;
  K.add(R);
  K.add(R);
  nlohmann::json KJ = K.toJson();
  EXPECT_EQ(KJ["counters"]["launches"], 2);
  EXPECT_EQ(KJ["counters"]["total"]["l2_bytes"], 128);
}

TEST(HwMetrics, SettingRow) {
  EXPECT_STREQ(rtSettingInfo(RtSetting::Counters).Env, "HROOF_COUNTERS");
  EXPECT_STREQ(rtSettingInfo(RtSetting::Counters).Option, "counters");
  EXPECT_STREQ(rtSettingInfo(RtSetting::Counters).Default, "roofline");
  setenv("HROOF_COUNTERS", "none", 1);
  EXPECT_EQ(Settings::fromEnvironment().Counters, "none");
  unsetenv("HROOF_COUNTERS");
  EXPECT_EQ(Settings::fromEnvironment().Counters, "roofline");
  EXPECT_EQ(Settings{}.toJson()["counters"], "roofline");
  EXPECT_EQ(checkRtSetting(RtSetting::Counters, "roofline,dram__bytes_read.sum"), "");
  EXPECT_EQ(checkRtSetting(RtSetting::Counters, "none"), "");
  EXPECT_NE(checkRtSetting(RtSetting::Counters, "dram;rm"), "");
}

} // namespace

// ReplayPolicy.h: fresh object for more passes; for fewer, once the waste
// (unneeded passes x measured price per pass) reaches a fresh object's price.
// ReplayPolicy.h: an object runs the lists within its first config's only.
TEST(ReplayPolicy, ListFitsObjectOnlyWithinItsFirstList) {
  std::vector<std::string> First = {"a", "b", "c", "gpu__time_duration.sum"};
  std::sort(First.begin(), First.end());
  EXPECT_TRUE(listFitsObject(First, First));
  EXPECT_TRUE(listFitsObject(First, {"a", "c"}));
  EXPECT_TRUE(listFitsObject(First, {}));
  EXPECT_FALSE(listFitsObject(First, {"a", "d"})) << "d is not collected by the object";
  // Application replay's groups: disjoint but for the duration.
  EXPECT_FALSE(listFitsObject({"a", "gpu__time_duration.sum"}, {"d", "gpu__time_duration.sum"}));
}

TEST(ReplayPolicy, MorePassesAlwaysFewerWhenWasteReachesThePrice) {
  ReplayPolicy P;
  EXPECT_FALSE(P.recreate(0, 8)); // no object yet: the caller makes one
  P.seed(100'000'000);            // first Start: 100 ms
  EXPECT_TRUE(P.recreate(2, 8));
  EXPECT_FALSE(P.recreate(8, 8));
  // Launch times 50 ms at 2 passes, 116 ms at 8: 11 ms per pass.
  P.ranged(2, 2, 50'000'000);
  P.ranged(8, 8, 116'000'000);
  EXPECT_NEAR(P.passNs(), 11e6, 1);
  // On the 8-pass object, 2-pass ranges waste 66 ms each: the second one
  // would bring the waste to 132 ms >= 100 ms.
  EXPECT_FALSE(P.recreate(8, 2));
  P.ranged(8, 2, 116'000'000);
  EXPECT_TRUE(P.recreate(8, 2));
  // A range that needs the object's passes resets the waste.
  P.ranged(8, 8, 116'000'000);
  EXPECT_FALSE(P.recreate(8, 2));
  // A measured re-creation replaces the seed as the price.
  P.recreated(300'000'000);
  EXPECT_DOUBLE_EQ(P.recreateNs(), 300e6);
  P.ranged(8, 2, 116'000'000);
  P.ranged(8, 2, 116'000'000);
  P.ranged(8, 2, 116'000'000);
  EXPECT_FALSE(P.recreate(8, 2)); // 3 x 66 + 66 = 264 < 300
  P.ranged(8, 2, 116'000'000);
  EXPECT_TRUE(P.recreate(8, 2)); // 330 >= 300
}

TEST(ReplayPolicy, OnePassCountSeenUsesMeanPerPass) {
  ReplayPolicy P;
  EXPECT_EQ(P.passNs(), 0);
  P.ranged(3, 3, 60'000'000);
  P.ranged(3, 3, 66'000'000);
  EXPECT_DOUBLE_EQ(P.passNs(), 21e6);
  // A slope steeper than the mean per pass (noise) is clamped to it.
  P.ranged(2, 2, 1'000'000);
  EXPECT_LE(P.passNs(), (63e6 + 1e6) / 5);
}

TEST(RuntimeSettings, TypeCacheRowAndProfileSettings) {
  EXPECT_STREQ(rtSettingInfo(RtSetting::TypeCache).Env, "HROOF_TYPE_CACHE");
  EXPECT_STREQ(rtSettingInfo(RtSetting::TypeCache).Option, "type-cache");
  EXPECT_STREQ(rtSettingInfo(RtSetting::TypeCache).Default, "auto");
  setenv("HROOF_TYPE_CACHE", "/tmp/hroof-test-types.tsv", 1);
  Settings S = Settings::fromEnvironment();
  unsetenv("HROOF_TYPE_CACHE");
  EXPECT_EQ(S.TypeCache, "/tmp/hroof-test-types.tsv");
  EXPECT_EQ(S.toJson()["type_cache"], "/tmp/hroof-test-types.tsv");
  EXPECT_EQ(Settings::fromEnvironment().TypeCache, "auto");
}

// The runtime evaluates counters from its atexit handler (application-replay
// records still waiting at exit). The metric tables must outlive every atexit
// handler, also one registered before their first use: a table destroyed
// first made every PyTorch run under --replay application die of SIGSEGV at
// exit on the H100. This test's handler fails the process (exit 3) if the
// exit-time evaluation differs; a destroyed table crashes it. Runs alone
// (gtest_discover_tests gives each test its own process), so the tables are
// built only after the handler is registered.
namespace {
std::string &exitExpected() {
  static std::string &S = *new std::string;
  return S;
}
nlohmann::json exitTimeCounters() {
  return hroof::rt::countersToJson({{"lts__t_bytes.sum", 4096.0},
                                    {"sm__sass_data_bytes_mem_global_op_ld.sum", 512.0},
                                    {"dram__bytes_read.sum", 256.0}});
}
void checkAtExit() {
  if (exitTimeCounters().dump() != exitExpected())
    std::_Exit(3);
}
} // namespace

TEST(HwMetrics, TablesOutliveAtExitHandlers) {
  std::atexit(checkAtExit); // before the tables' first use in this process
  exitExpected() = exitTimeCounters().dump();
  EXPECT_NE(exitExpected().find("l2_bytes"), std::string::npos) << exitExpected();
}
