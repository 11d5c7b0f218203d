//===- IdleTypesTest.cpp - application replay learns types from idle pipes ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A record learning its kernel's Tensor Core types holds back its groups of
// types until the tensor pipes' values are in, and skips those the idle
// pipes show zero (ApplicationReplay.h, inferIdleTypes; HwMetrics.h,
// typesIdleByPipes). No GPU, no CUPTI: a fake pass-count oracle.
//===----------------------------------------------------------------------===//
#include "AppReplayTestUtil.h"

#include <gtest/gtest.h>

#include <optional>
#include <set>

using namespace hroof::rt;
using namespace hroof::rt::testutil;

namespace {

/// The groups of a context's shared plan: the metrics without a tensor type
/// first, then the types (AppReplayCounters.cpp, SessionReplay::plan).
std::vector<std::vector<std::string>> sharedPlanGroups() {
  const std::vector<std::string> &Types = tensorTypeMetrics();
  std::vector<std::string> Metrics;
  for (const std::string &M : rooflineMetrics())
    if (std::find(Types.begin(), Types.end(), M) == Types.end())
      Metrics.push_back(M);
  Metrics.insert(Metrics.end(), Types.begin(), Types.end());
  FakeOracle O;
  return planOnePassGroups(Metrics, std::cref(O)).Groups;
}

/// Starts record \p Corr of shape "s", learning its kernel's types, and
/// holds its launch (finalized before its counters are complete).
AppTicket startLearning(ApplicationReplay &A, const std::vector<std::vector<std::string>> &Groups,
                        uint32_t Corr) {
  AppTypes Ty;
  Ty.Learning = true;
  AppTicket T0 = A.startRecord("s", Corr, 0, Groups, Ty);
  LaunchRecord R = recordOf(Corr);
  A.hold(R);
  return T0;
}

/// A record learning its types, completed by replay launches; \p Busy: the
/// tensor pipes the recorded launch found busy. Returns the written record;
/// \p Learned: the values the type learning saw; \p Launches: replay launches.
std::optional<LaunchRecord> learnWithPipes(ApplicationReplay &A, const std::set<std::string> &Busy,
                                           std::map<std::string, double> &Learned,
                                           size_t &Launches) {
  auto Groups = sharedPlanGroups();
  A.setTypeCheck([&](const AppTypes &, const std::map<std::string, double> &V,
                     std::vector<std::string> &) {
    Learned = V;
    return std::string();
  });
  AppTicket T0 = startLearning(A, Groups, 3);
  auto WithPipes = [&](const std::vector<std::string> &G) {
    std::map<std::string, double> V = valuesOf(G, 0);
    for (const std::string &P : tensorPipeMetrics())
      if (V.count(P))
        V[P] = Busy.count(P.substr(P.rfind('_') + 1, 4)) ? 64 : 0;
    return V;
  };
  std::optional<LaunchRecord> Out = A.deliver(T0, WithPipes(Groups[0]), "");
  Launches = 0;
  for (AppTicket T; !Out && A.role("s", false, [] { return false; }, T) == AppRole::ReplayOnly;) {
    ++Launches;
    Out = A.deliver(T, WithPipes(Groups[T.Group]), "");
  }
  return Out;
}

TEST(ApplicationReplay, IdlePipesLeaveTheirTypesUncollected) {
  auto Groups = sharedPlanGroups();
  const std::vector<std::string> &Types = tensorTypeMetrics();
  // The fake plan puts the types in groups of their own (and the pipes in
  // group 1: they wait for it).
  size_t TypeGroups = 0;
  for (const auto &G : Groups)
    TypeGroups += std::any_of(G.begin(), G.end(), [&](const std::string &M) {
      return std::find(Types.begin(), Types.end(), M) != Types.end();
    });
  ASSERT_EQ(TypeGroups, Types.size());

  // No pipe busy: every type group is done without a launch, every type is
  // zero for the learning and named as inferred in the record.
  ApplicationReplay A;
  std::map<std::string, double> Learned;
  size_t Launches = 0;
  std::optional<LaunchRecord> Out = learnWithPipes(A, {}, Learned, Launches);
  ASSERT_TRUE(Out && Out->Hw);
  EXPECT_EQ(Launches, Groups.size() - 1 - Types.size());
  EXPECT_EQ(A.stats().IdleTypeGroups, Types.size());
  for (const std::string &T : Types)
    EXPECT_EQ(Learned.count(T) ? Learned[T] : -1, 0) << T;
  EXPECT_EQ((*Out->Hw)["tensor_flops_inferred"].size(), Types.size());
  EXPECT_FALSE((*Out->Hw)["raw"].contains(Types[0])) << "not shown as measured";

  // The imma pipe busy: the int8 group is collected, the others are not.
  ApplicationReplay B;
  Out = learnWithPipes(B, {"imma"}, Learned, Launches);
  ASSERT_TRUE(Out && Out->Hw);
  EXPECT_EQ(B.stats().IdleTypeGroups, Types.size() - 2) << "int8 and fp8 are issued by imma";
  EXPECT_EQ(Launches, Groups.size() - 1 - (Types.size() - 2));
  EXPECT_NE(Learned["sm__ops_path_tensor_src_int8.sum"], 0) << "measured";
}

TEST(ApplicationReplay, HmmaAndHfma2ShareAGroup) {
  // HFMA2.MMA is subtracted from the hmma pipe: both must come from one
  // launch, so planning keeps them in one group wherever they fall.
  const std::string Hmma = "sm__inst_executed_pipe_tensor_op_hmma.sum";
  std::vector<std::string> Metrics = {"gpu__time_duration.sum", "a.sum", "b.sum", "c.sum",
                                      Hmma, "d.sum", hfma2PipeMetric(), "e.sum"};
  FakeOracle O; // 5 hardware metrics a pass
  GroupPlan P = planOnePassGroups(Metrics, std::cref(O), {{Hmma, hfma2PipeMetric()}});
  size_t With = 0;
  for (const auto &G : P.Groups) {
    bool H = std::count(G.begin(), G.end(), Hmma), F = std::count(G.begin(), G.end(), hfma2PipeMetric());
    EXPECT_EQ(H, F) << "hmma and hfma2 apart";
    With += H;
  }
  EXPECT_EQ(With, 1u);
  EXPECT_EQ(allMetrics(P).size(), Metrics.size() + P.Groups.size() - 1) << "each once (time: everywhere)";
  // Without the bundle, first fit puts them apart.
  GroupPlan Q = planOnePassGroups(Metrics, std::cref(O));
  bool Apart = false;
  for (const auto &G : Q.Groups)
    Apart |= std::count(G.begin(), G.end(), Hmma) != std::count(G.begin(), G.end(), hfma2PipeMetric());
  EXPECT_TRUE(Apart) << "the test's metrics do not exercise the bundle";
}

/// Groups where the type group (1) comes before the pipes' group (2).
std::vector<std::vector<std::string>> typeBeforePipesGroups() {
  std::vector<std::string> Pipes = tensorPipeMetrics();
  Pipes.push_back(hfma2PipeMetric());
  return {{"gpu__time_duration.sum"}, {"sm__ops_path_tensor_src_int8.sum"}, Pipes};
}

std::map<std::string, double> idlePipes(const std::string &Missing = "") {
  std::map<std::string, double> V;
  const auto Groups = typeBeforePipesGroups();
  for (const std::string &P : Groups[2])
    if (P != Missing)
      V[P] = 0;
  return V;
}

TEST(ApplicationReplay, TypeGroupsWaitForThePipes) {
  auto Groups = typeBeforePipesGroups();
  ApplicationReplay A;
  AppTicket T0 = startLearning(A, Groups, 1);
  AppTicket T;
  ASSERT_EQ(A.role("s", false, [] { return false; }, T), AppRole::ReplayOnly);
  EXPECT_EQ(T.Group, 2u) << "the int8 group waits for the pipes";
  // The pipes before the recorded launch's own group: nothing inferred yet
  // (group 0 is what every other group is checked against).
  A.deliver(T, idlePipes(), "");
  EXPECT_EQ(A.stats().IdleTypeGroups, 0u);
  AppTicket None;
  EXPECT_EQ(A.role("s", false, [] { return false; }, None), AppRole::None);
  std::optional<LaunchRecord> Out = A.deliver(T0, {{"gpu__time_duration.sum", 1000}}, "");
  EXPECT_EQ(A.stats().IdleTypeGroups, 1u);
  ASSERT_TRUE(Out && Out->Hw) << "complete without the int8 group's launch";
  EXPECT_EQ((*Out->Hw)["tensor_flops_inferred"].size(), 1u);
}

TEST(ApplicationReplay, MissingPipeValueDoesNotStallTheRecord) {
  // A pipe CUPTI left NaN (absent from the values): nothing is inferred and
  // the int8 group is collected, not waited for forever.
  auto Groups = typeBeforePipesGroups();
  ApplicationReplay A;
  AppTicket T0 = startLearning(A, Groups, 1);
  A.deliver(T0, {{"gpu__time_duration.sum", 1000}}, "");
  AppTicket T;
  ASSERT_EQ(A.role("s", false, [] { return false; }, T), AppRole::ReplayOnly);
  ASSERT_EQ(T.Group, 2u);
  A.deliver(T, idlePipes("sm__inst_executed_pipe_tensor_op_gmma.sum"), "");
  ASSERT_EQ(A.role("s", false, [] { return false; }, T), AppRole::ReplayOnly);
  EXPECT_EQ(T.Group, 1u);
  std::optional<LaunchRecord> Out = A.deliver(T, {{"sm__ops_path_tensor_src_int8.sum", 0}}, "");
  ASSERT_TRUE(Out && Out->Hw);
  EXPECT_EQ(A.stats().IdleTypeGroups, 0u);
}

} // namespace

TEST(ApplicationReplay, PassReplayReadsTheIdleTypesOnceTheOwnGroupIsIn) {
  // Pass replay's two groups: the record's own launch with the tensor pipes,
  // then the rest with every tensor type (PassReplayCounters.cpp). The round
  // leaves out the types idleTypes names.
  const std::vector<std::string> &Types = tensorTypeMetrics();
  std::vector<std::string> Own = {"gpu__time_duration.sum"}, Rest;
  for (const std::string &M : tensorPipeMetrics())
    Own.push_back(M);
  Own.push_back(hfma2PipeMetric());
  for (const std::string &M : rooflineMetrics())
    if (std::find(Own.begin(), Own.end(), M) == Own.end())
      Rest.push_back(M);
  ApplicationReplay A;
  AppTicket T0 = startLearning(A, {Own, Rest}, 5);
  EXPECT_FALSE(A.idleTypes(5)) << "the pipes are not in yet";
  std::map<std::string, double> V;
  for (const std::string &M : Own)
    V[M] = 0;
  V["gpu__time_duration.sum"] = 1000;
  V["sm__inst_executed_pipe_tensor_op_imma.sum"] = 64;
  A.deliver(T0, V, "");
  std::optional<std::vector<std::string>> Idle = A.idleTypes(5);
  ASSERT_TRUE(Idle);
  std::set<std::string> Got(Idle->begin(), Idle->end());
  EXPECT_EQ(Got.size(), Types.size() - 2) << "int8 and fp8 are issued by imma";
  EXPECT_FALSE(Got.count("sm__ops_path_tensor_src_int8.sum"));
  EXPECT_TRUE(Got.count("sm__ops_path_tensor_src_fp16.sum"));
  EXPECT_FALSE(A.idleTypes(6)) << "no such record";
}
