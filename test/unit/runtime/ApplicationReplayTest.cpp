//===- ApplicationReplayTest.cpp - HROOF_REPLAY=application, no GPU -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one-pass grouping against a fake pass-count oracle, the per-shape
// records (roles, assembly, holding back, incomplete records at exit) and
// the profile's treatment of incomplete counters.
//===----------------------------------------------------------------------===//
#include "AppReplayTestUtil.h"
#include "replay/ApplicationReplay.h"
#include "metrics/HwMetrics.h"
#include "profile/Profile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>

using namespace hroof::rt;
using namespace hroof::rt::testutil;

namespace {

TEST(ApplicationReplay, GroupsNeedOnePassEach) {
  FakeOracle O;
  const std::vector<std::string> &Ms = rooflineMetrics();
  ASSERT_GT(O(Ms), 2u) << "the set must need several passes for this test to mean anything";
  GroupPlan P = planOnePassGroups(Ms, std::cref(O));
  EXPECT_TRUE(P.MultiPass.empty());
  for (const auto &G : P.Groups)
    EXPECT_EQ(O(G), 1u);
  // Every metric in some group; only the signatures (duration, L2 bytes) in several.
  std::vector<std::string> All = allMetrics(P);
  EXPECT_EQ(std::set<std::string>(All.begin(), All.end()),
            std::set<std::string>(Ms.begin(), Ms.end()));
  for (const std::string &M : Ms)
    if (M != "gpu__time_duration.sum" && M != "lts__t_bytes.sum")
      EXPECT_EQ(std::count(All.begin(), All.end(), M), 1) << M;
  // As few groups as the fake's classes allow: each class needs
  // ceil(count / cap) passes and first fit packs each class tightly.
  std::map<std::string, size_t> N;
  for (const std::string &M : Ms)
    if (std::string K = FakeOracle::kind(M); !K.empty())
      ++N[K];
  size_t Min = 0;
  for (auto &[K, C] : N)
    Min += (C + O.cap(K) - 1) / O.cap(K);
  EXPECT_EQ(P.Groups.size(), Min);
  // Group 0 has every time-dependent metric (the recorded launch's own).
  for (const std::string &M : Ms)
    if (timeDependentMetric(M))
      EXPECT_NE(std::find(P.Groups[0].begin(), P.Groups[0].end(), M), P.Groups[0].end()) << M;
}

TEST(ApplicationReplay, DurationInEveryGroupItFits) {
  FakeOracle O;
  O.HwCap = 3;
  std::vector<std::string> Ms = {"sm__sass_a", "sm__sass_b", "gpu__time_duration.sum", "hw_a",
                                 "hw_b",       "hw_c",       "hw_d"};
  GroupPlan P = planOnePassGroups(Ms, std::cref(O));
  for (const auto &G : P.Groups) {
    EXPECT_EQ(O(G), 1u);
    bool HasTime = std::find(G.begin(), G.end(), "gpu__time_duration.sum") != G.end();
    std::vector<std::string> With = G;
    if (!HasTime)
      With.push_back("gpu__time_duration.sum");
    EXPECT_EQ(HasTime, O(With) == 1) << "the duration goes wherever it fits";
  }
}

TEST(ApplicationReplay, SassMetricsNeverShareAGroup) {
  // Any list is one pass: first fit alone would put everything in one group.
  PassOracle OnePass = [](const std::vector<std::string> &) -> size_t { return 1; };
  std::vector<std::string> Ms = {"gpu__time_duration.sum", "sm__sass_a", "hw_a", "sm__sass_b",
                                 "hw_b"};
  GroupPlan P = planOnePassGroups(Ms, OnePass);
  ASSERT_EQ(P.Groups.size(), 2u);
  for (const auto &G : P.Groups)
    for (const std::string &M : G)
      EXPECT_EQ(sassMetric(M), sassMetric(G[0])) << M << " shares a group with " << G[0];
}

TEST(ApplicationReplay, MultiPassMetricAlone) {
  FakeOracle O;
  GroupPlan P = planOnePassGroups({"hw_a", "twopass.x", "hw_b"}, std::cref(O));
  ASSERT_EQ(P.MultiPass, std::vector<std::string>{"twopass.x"});
  for (const auto &G : P.Groups)
    if (std::find(G.begin(), G.end(), "twopass.x") != G.end())
      EXPECT_EQ(G.size(), 1u);
}

/// Values for a group: distinct numbers per metric, \p Bias per launch.



TEST(ApplicationReplay, AssemblesGroupsIntoOneRecord) {
  auto Groups = sampleGroups();
  ASSERT_GE(Groups.size(), 3u);
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 10, 0, Groups, {});
  std::map<std::string, double> Expected;
  std::vector<std::map<std::string, double>> Vals;
  for (size_t G = 0; G < Groups.size(); ++G)
    Vals.push_back(valuesOf(Groups[G], 100.0 * G)); // later launches: other durations
  for (size_t G = 0; G < Groups.size(); ++G)
    for (auto &[K, V] : Vals[G])
      Expected.emplace(K, V); // the lowest group's value wins
  EXPECT_FALSE(A.deliver(T0, Vals[0], ""));
  LaunchRecord R = recordOf(10);
  EXPECT_TRUE(A.hold(R)) << "held back while groups are missing";
  std::optional<LaunchRecord> Out;
  for (size_t G = 1; G < Groups.size(); ++G) {
    AppTicket T;
    ASSERT_EQ(A.role("s", true, [] { return true; }, T), AppRole::Replay);
    EXPECT_EQ(T.Group, G);
    EXPECT_EQ(T.Record, 10u);
    EXPECT_FALSE(Out) << "written before its last group";
    Out = A.deliver(T, Vals[G], "");
  }
  ASSERT_TRUE(Out);
  EXPECT_EQ(Out->Correlation, 10u);
  ASSERT_TRUE(Out->Hw);
  EXPECT_TRUE(Out->HwIncomplete.empty());
  nlohmann::json J = countersToJson(Expected);
  EXPECT_EQ((*Out->Hw)["flops"], J["flops"]);
  EXPECT_EQ((*Out->Hw)["bytes"], J["bytes"]);
  EXPECT_EQ((*Out->Hw)["dram_bytes"], J["dram_bytes"]);
  EXPECT_EQ((*Out->Hw)["time_ns"], J["time_ns"]);
  EXPECT_EQ((*Out->Hw)["time_ns"].get<double>(), Vals[0].at("gpu__time_duration.sum"))
      << "the duration is the recorded launch's own";
  EXPECT_EQ((*Out->Hw)["replay_groups"], Groups.size());
  EXPECT_EQ(A.stats().Completed, 1u);
  AppTicket None;
  EXPECT_EQ(A.role("s", false, [] { return true; }, None), AppRole::None);
}

TEST(ApplicationReplay, CompleteBeforeFinalize) {
  auto Groups = sampleGroups();
  ApplicationReplay A;
  AppTicket T = A.startRecord("s", 3, 0, Groups, {});
  A.deliver(T, valuesOf(Groups[0], 0), "");
  for (size_t G = 1; G < Groups.size(); ++G) {
    AppTicket R;
    ASSERT_EQ(A.role("s", false, [] { return false; }, R), AppRole::ReplayOnly);
    EXPECT_FALSE(A.deliver(R, valuesOf(Groups[G], 0), "")) << "no record held yet";
  }
  LaunchRecord R = recordOf(3);
  EXPECT_FALSE(A.hold(R)) << "complete: written at once";
  ASSERT_TRUE(R.Hw);
  EXPECT_TRUE(R.Hw->contains("flops"));
  LaunchRecord Other = recordOf(4);
  EXPECT_FALSE(A.hold(Other)) << "a replay launch's record is not held";
  EXPECT_FALSE(Other.Hw);
}

TEST(ApplicationReplay, RolesAndLimits) {
  auto Groups = sampleGroups();
  size_t G = Groups.size();
  ApplicationReplay A;
  // A fake --counters-per-shape 2: Take allows two records per shape.
  std::map<std::string, int> Taken;
  auto TakeFor = [&](const std::string &S) { return [&, S] { return Taken[S]++ < 2; }; };
  AppTicket T;
  EXPECT_EQ(A.role("s", false, TakeFor("s"), T), AppRole::None)
      << "outside the range with nothing open: nothing";
  EXPECT_EQ(Taken["s"], 0) << "outside the range the limits are not consulted";
  std::vector<AppRole> Seen;
  std::vector<uint32_t> Records;
  for (uint32_t Corr = 1; Corr <= 3 * G; ++Corr) {
    AppTicket X;
    AppRole Role = A.role("s", true, TakeFor("s"), X);
    Seen.push_back(Role);
    if (Role == AppRole::Record) {
      X = A.startRecord("s", Corr, 0, Groups, {});
      Records.push_back(Corr);
    }
    if (Role != AppRole::None)
      A.deliver(X, valuesOf(Groups[X.Group], 0), "");
  }
  // Two records, each followed by its G - 1 replay launches, then nothing.
  ASSERT_EQ(Records.size(), 2u);
  EXPECT_EQ(Records[1], Records[0] + G);
  for (size_t I = 0; I < Seen.size(); ++I) {
    AppRole Want = I < 2 * G ? (I % G == 0 ? AppRole::Record : AppRole::Replay) : AppRole::None;
    EXPECT_EQ(Seen[I], Want) << "launch " << I;
  }
  EXPECT_EQ(Taken["s"], int(G) + 2) << "asked for the two records and the G launches after them only";
  // Another shape is independent.
  AppTicket Y;
  EXPECT_EQ(A.role("t", true, TakeFor("t"), Y), AppRole::Record);
}

TEST(ApplicationReplay, PrefersTheGroupTheObjectRuns) {
  auto Groups = sampleGroups();
  ASSERT_GE(Groups.size(), 3u);
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 1, 0, Groups, {});
  A.deliver(T0, valuesOf(Groups[0], 0), "");
  AppTicket T;
  // The object runs group 2: group 1 (the lowest missing) waits.
  ASSERT_EQ(A.role("s", true, [] { return false; }, T, &Groups[2]), AppRole::Replay);
  EXPECT_EQ(T.Group, 2u);
  A.deliver(T, valuesOf(Groups[2], 0), "");
  // The object's group is no longer missing: the launch waits (no fresh
  // object) while launches up to the open records' count go by, then takes
  // the lowest missing group.
  EXPECT_EQ(A.role("s", true, [] { return false; }, T, &Groups[2]), AppRole::None);
  ASSERT_EQ(A.role("s", true, [] { return false; }, T, &Groups[2]), AppRole::Replay);
  EXPECT_EQ(T.Group, 1u);
  // Without a preference (no object yet) nobody waits.
  EXPECT_EQ(A.replaySlot("s")->Group, 3u);
  // A newer record of the shape missing the object's group goes before an
  // older one that does not (no fresh object for this launch).
  AppTicket U0 = A.startRecord("s", 2, 0, Groups, {});
  A.deliver(U0, valuesOf(Groups[0], 0), "");
  ASSERT_EQ(A.role("s", true, [] { return false; }, T, &Groups[2]), AppRole::Replay);
  EXPECT_EQ(T.Record, 2u);
  EXPECT_EQ(T.Group, 2u);
}

/// A training loop under application replay on a model of the range
/// profiler object (it collects only its first config's counters, so each
/// change of group is a fresh object): the objects made grow with the
/// groups, not with the launches, and every record completes.
TEST(ApplicationReplay, FreshObjectsAboutOncePerGroupInALoop) {
  auto Groups = sampleGroups();
  size_t G = Groups.size();
  const int Shapes = 20, Steps = 3 * int(G);
  ApplicationReplay A;
  std::map<std::string, int> Taken;
  const std::vector<std::string> *Obj = nullptr; // the object's first config
  size_t Fresh = 0, Ranges = 0;
  uint32_t Corr = 0;
  for (int Step = 0; Step < Steps; ++Step)
    for (int S = 0; S < Shapes; ++S)
      for (int Twice = 0; Twice < 2; ++Twice) { // each shape twice a step
        std::string Shape = "k" + std::to_string(S);
        AppTicket T;
        AppRole R = A.role(Shape, true, [&] { return Taken[Shape]++ < 1; }, T, Obj);
        if (R == AppRole::None)
          continue;
        if (R == AppRole::Record)
          T = A.startRecord(Shape, ++Corr, 0, Groups, {});
        else
          ++Corr;
        const std::vector<std::string> &List = Groups[T.Group];
        if (Obj && *Obj != List)
          ++Fresh;
        Obj = &List;
        ++Ranges;
        A.deliver(T, valuesOf(List, 0), "");
      }
  EXPECT_EQ(A.stats().Completed, uint64_t(Shapes));
  EXPECT_EQ(Ranges, Shapes * G);
  EXPECT_LE(Fresh, 2 * G) << "a fresh object per group change, not per launch";
  std::printf("%d shapes x 2 launches a step, %zu groups: %zu ranges, %zu fresh objects\n",
              Shapes, G, Ranges, Fresh);
}

TEST(ApplicationReplay, FailedGroupIsCollectedAgain) {
  auto Groups = sampleGroups();
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 1, 0, Groups, {});
  A.deliver(T0, valuesOf(Groups[0], 0), "");
  AppTicket T1;
  ASSERT_EQ(A.role("s", true, [] { return false; }, T1), AppRole::Replay);
  A.failed(T1);
  AppTicket T2;
  ASSERT_EQ(A.role("s", true, [] { return false; }, T2), AppRole::Replay);
  EXPECT_EQ(T2.Group, T1.Group);
  // A recorded launch that failed drops its record.
  AppTicket N = A.startRecord("u", 9, 0, Groups, {});
  A.failed(N);
  AppTicket Z;
  EXPECT_EQ(A.role("u", false, [] { return true; }, Z), AppRole::None);
  LaunchRecord R = recordOf(9);
  EXPECT_FALSE(A.hold(R));
}

TEST(ApplicationReplay, RetryKeepsTheRecordAndItsHeldLaunch) {
  // A batched session lost the values of a recorded launch that ran: the
  // record stays (held, with its launch record) and a later launch of the
  // shape collects group 0 too.
  auto Groups = sampleGroups();
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 7, 0, Groups, {});
  LaunchRecord Held = recordOf(7);
  EXPECT_TRUE(A.hold(Held)) << "no counters yet: held";
  A.retry(T0);
  std::set<size_t> Collected;
  std::optional<LaunchRecord> Out;
  for (size_t I = 0; I < Groups.size(); ++I) {
    AppTicket R;
    ASSERT_EQ(A.role("s", false, [] { return false; }, R), AppRole::ReplayOnly) << I;
    Collected.insert(R.Group);
    Out = A.deliver(R, valuesOf(Groups[R.Group], 0), "");
  }
  EXPECT_EQ(Collected.size(), Groups.size()) << "group 0 collected again, each group once";
  ASSERT_TRUE(Out) << "the held record is complete and handed back";
  EXPECT_EQ(Out->Correlation, 7u);
  ASSERT_TRUE(Out->Hw);
  EXPECT_TRUE(Out->Hw->contains("flops"));
  EXPECT_EQ(A.stats().Failed, 0u);
}

/// Values of group \p G as a launch of \p Ns nanoseconds gives them.
std::map<std::string, double> timedValues(const std::vector<std::string> &G, double Ns) {
  std::map<std::string, double> V = valuesOf(G, 0);
  if (V.count("gpu__time_duration.sum"))
    V["gpu__time_duration.sum"] = Ns;
  return V;
}

/// The first group after group 0 that holds the duration.
size_t timedGroup(const std::vector<std::vector<std::string>> &Groups) {
  for (size_t G = 1; G < Groups.size(); ++G)
    if (timedValues(Groups[G], 1).count("gpu__time_duration.sum"))
      return G;
  return 0;
}

TEST(ApplicationReplay, LaunchOfOtherWorkIsCollectedAgain) {
  // cuBLAS runs GEMMs of two depths with one launch shape: a replay launch
  // twice as long as the recorded one must not give the record its counters.
  auto Groups = sampleGroups();
  size_t TG = timedGroup(Groups);
  ASSERT_GT(TG, 0u);
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 1, 0, Groups, {});
  A.deliver(T0, timedValues(Groups[0], 40000), "");
  for (size_t I = 1; I < Groups.size(); ++I) {
    AppTicket R;
    ASSERT_EQ(A.role("s", false, [] { return false; }, R), AppRole::ReplayOnly);
    A.deliver(R, timedValues(Groups[R.Group], R.Group == TG ? 80000 : 41000), "");
  }
  EXPECT_EQ(A.stats().OtherWork, 1u);
  EXPECT_EQ(A.stats().Completed, 0u);
  AppTicket Again;
  ASSERT_EQ(A.role("s", false, [] { return false; }, Again), AppRole::ReplayOnly);
  EXPECT_EQ(Again.Group, TG) << "collected again";
  A.deliver(Again, timedValues(Groups[TG], 44000), ""); // within a quarter: same work
  EXPECT_EQ(A.stats().OtherWork, 1u);
  EXPECT_EQ(A.stats().Completed, 1u);
  // Short kernels jitter by about a microsecond: 3 us against 4.5 us is the same work.
  EXPECT_TRUE(sameWork(3000, 4500));
  EXPECT_FALSE(sameWork(10000, 16000));
  EXPECT_TRUE(sameWork(10000, 12000));
}

TEST(ApplicationReplay, LaunchOfOtherTrafficIsCollectedAgain) {
  // A short GEMM of twice the depth can take about the same time: its L2
  // bytes tell it apart (the plan puts them in group 0 and every group they
  // fit).
  std::vector<std::vector<std::string>> Groups = {
      {"gpu__time_duration.sum", "lts__t_bytes.sum", "dram__bytes_read.sum"},
      {"sm__ops_path_tensor_src_fp16.sum", "gpu__time_duration.sum", "lts__t_bytes.sum"}};
  auto Vals = [&](size_t G, double Ns, double L2) {
    std::map<std::string, double> V = valuesOf(Groups[G], 0);
    V["gpu__time_duration.sum"] = Ns;
    V["lts__t_bytes.sum"] = L2;
    return V;
  };
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 3, 0, Groups, {});
  A.deliver(T0, Vals(0, 40000, 4e6), "");
  AppTicket R;
  ASSERT_EQ(A.role("s", false, [] { return false; }, R), AppRole::ReplayOnly);
  A.deliver(R, Vals(1, 41000, 8e6), "");
  EXPECT_EQ(A.stats().OtherWork, 1u);
  EXPECT_EQ(A.stats().Completed, 0u);
  ASSERT_EQ(A.role("s", false, [] { return false; }, R), AppRole::ReplayOnly);
  A.deliver(R, Vals(1, 41000, 4.2e6), "");
  EXPECT_EQ(A.stats().Completed, 1u);
  EXPECT_TRUE(sameTraffic(1000, 60000)) << "small kernels: 64 KiB of slack";
  EXPECT_FALSE(sameTraffic(4e6, 8e6));
}

TEST(ApplicationReplay, LateRecordedLaunchDropsGroupsOfOtherWork) {
  // After a retry the recorded launch's group 0 may come last: the groups
  // collected before it are checked then.
  auto Groups = sampleGroups();
  size_t TG = timedGroup(Groups);
  ASSERT_GT(TG, 0u);
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 2, 0, Groups, {});
  A.retry(T0);
  std::vector<AppTicket> Taken(Groups.size());
  for (size_t I = 0; I < Groups.size(); ++I) {
    AppTicket R;
    ASSERT_EQ(A.role("s", false, [] { return false; }, R), AppRole::ReplayOnly);
    Taken[R.Group] = R;
  }
  for (size_t G = 1; G < Groups.size(); ++G)
    EXPECT_FALSE(A.deliver(Taken[G], timedValues(Groups[G], 90000), ""));
  EXPECT_EQ(A.stats().OtherWork, 0u) << "nothing to compare with yet";
  EXPECT_FALSE(A.deliver(Taken[0], timedValues(Groups[0], 30000), ""));
  EXPECT_GE(A.stats().OtherWork, 1u);
  EXPECT_EQ(A.stats().Completed, 0u);
  AppTicket Again;
  ASSERT_EQ(A.role("s", false, [] { return false; }, Again), AppRole::ReplayOnly);
  EXPECT_EQ(Again.Group, TG);
}

TEST(ApplicationReplay, SharedPlanServesEveryList) {
  // One plan for the list with every tensor type, the metrics without a type
  // first; a list without types takes no group of types only, a list with
  // one type takes its group too, and both take the same groups otherwise.
  FakeOracle O;
  std::vector<std::string> Base = metricsForTypes(rooflineMetrics(), TensorTypes{});
  std::vector<std::string> All = Base;
  for (const std::string &T : tensorTypeMetrics())
    if (std::find(All.begin(), All.end(), T) == All.end())
      All.push_back(T);
  GroupPlan P = planOnePassGroups(All, std::cref(O));
  TensorTypes One;
  One.Types.insert(tensorTypeMetrics()[0]);
  std::vector<std::string> WithOne = metricsForTypes(rooflineMetrics(), One);
  std::vector<size_t> ForBase = groupsFor(P.Groups, Base), ForOne = groupsFor(P.Groups, WithOne);
  for (const auto &[List, Taken] : {std::pair{&Base, &ForBase}, std::pair{&WithOne, &ForOne}}) {
    ASSERT_FALSE(Taken->empty());
    EXPECT_EQ((*Taken)[0], 0u) << "group 0: the recorded launch's own";
    for (const std::string &M : *List) {
      bool In = false;
      for (size_t G : *Taken)
        In = In || std::count(P.Groups[G].begin(), P.Groups[G].end(), M);
      EXPECT_TRUE(In) << M << " in no group the list takes";
    }
  }
  EXPECT_EQ(ForOne.size(), ForBase.size() + 1) << "the type's own group (a pass alone here)";
  EXPECT_TRUE(std::includes(ForOne.begin(), ForOne.end(), ForBase.begin(), ForBase.end()));
  EXPECT_LT(ForBase.size(), P.Groups.size()) << "no group of other types only";
  // The signatures are in many groups: they make no group needed.
  std::vector<std::vector<std::string>> Signed = {
      {"gpu__time_duration.sum", "lts__t_bytes.sum", "a"},
      {"b", "gpu__time_duration.sum", "lts__t_bytes.sum"},
      {"x", "gpu__time_duration.sum", "lts__t_bytes.sum"}};
  EXPECT_EQ(groupsFor(Signed, {"gpu__time_duration.sum", "lts__t_bytes.sum", "a", "b"}),
            (std::vector<size_t>{0, 1}));
}

TEST(ApplicationReplay, RecordKeepsItsOwnListOfASharedGroup) {
  auto Groups = sampleGroups();
  ApplicationReplay A;
  const std::vector<std::string> &All = rooflineMetrics();
  auto DropIt = std::find_if(All.begin(), All.end(), [](const std::string &M) {
    return M.find("dfma") != std::string::npos && M.find("peak") == std::string::npos;
  });
  ASSERT_NE(DropIt, All.end());
  const std::string Drop = *DropIt; // a shared group's metric of no use to this record
  std::vector<std::string> Wanted;
  for (const auto &G : Groups)
    for (const std::string &M : G)
      if (M != Drop)
        Wanted.push_back(M);
  ASSERT_LT(Wanted.size(), allMetrics(planOnePassGroups(rooflineMetrics(), FakeOracle{})).size());
  AppTicket T0 = A.startRecord("s", 5, 0, Groups, {}, Wanted);
  A.deliver(T0, valuesOf(Groups[0], 0), "");
  std::optional<LaunchRecord> Out;
  LaunchRecord R = recordOf(5);
  A.hold(R);
  for (size_t G = 1; G < Groups.size(); ++G) {
    AppTicket T;
    ASSERT_EQ(A.role("s", false, [] { return false; }, T), AppRole::ReplayOnly);
    Out = A.deliver(T, valuesOf(Groups[T.Group], 0), "");
  }
  ASSERT_TRUE(Out && Out->Hw);
  std::map<std::string, double> Kept;
  for (const auto &G : Groups)
    for (auto &[K, V] : valuesOf(G, 0))
      if (K != Drop)
        Kept.emplace(K, V);
  EXPECT_EQ((*Out->Hw)["flops"], countersToJson(Kept)["flops"]) << "the metric left out is not summed";
}

TEST(ApplicationReplay, MetricsLeftOutAreNeitherZeroNorCached) {
  // With memory other GPUs write, the multi-pass groups are left out of a
  // record: it completes without them, says which metrics, infers none of
  // their types zero and marks its types partial (not for the cache).
  const std::string Fp16 = tensorTypeMetrics()[0], Bf16 = tensorTypeMetrics()[1];
  // Neither type metric is collected: fp16 left out, bf16 not in the
  // kernel's list (its types are known to exclude it).
  std::vector<std::vector<std::string>> Groups;
  for (auto G : sampleGroups()) {
    G.erase(std::remove_if(G.begin(), G.end(),
                           [&](const std::string &M) { return M == Fp16 || M == Bf16; }),
            G.end());
    if (!G.empty())
      Groups.push_back(G);
  }
  ApplicationReplay A;
  bool SawPartial = false;
  A.setTypeCheck([&](const AppTypes &K, const std::map<std::string, double> &,
                     std::vector<std::string> &Zero) {
    SawPartial = K.Partial;
    Zero.push_back(Fp16); // what checkTypes says of every type not measured
    Zero.push_back(Bf16);
    return std::string();
  });
  AppTicket T0 = A.startRecord("s", 4, 0, Groups, {});
  A.leaveOut(4, {Fp16}, "they need several passes");
  LaunchRecord R = recordOf(4);
  A.hold(R);
  std::optional<LaunchRecord> Out = A.deliver(T0, valuesOf(Groups[0], 0), "");
  for (size_t G = 1; G < Groups.size(); ++G) {
    AppTicket T;
    ASSERT_EQ(A.role("s", false, [] { return false; }, T), AppRole::ReplayOnly);
    Out = A.deliver(T, valuesOf(Groups[T.Group], 0), "");
  }
  ASSERT_TRUE(Out && Out->Hw);
  EXPECT_EQ((*Out->Hw)["not_evaluated"], Fp16 + " (they need several passes)");
  EXPECT_TRUE(SawPartial);
  ASSERT_TRUE(Out->Hw->contains("tensor_flops_inferred"));
  const auto &Inferred = (*Out->Hw)["tensor_flops_inferred"];
  EXPECT_EQ(std::count(Inferred.begin(), Inferred.end(), "f16"), 0) << "fp16 was not measured";
  EXPECT_EQ(std::count(Inferred.begin(), Inferred.end(), "bf16"), 1);
  EXPECT_EQ(A.stats().NotEvaluated, 1u);
}

TEST(ApplicationReplay, RecordOfAnOddLaunchIsAbandoned) {
  // The recorded launch ran the deep GEMM of a shape whose other launches
  // run the shallow one: every group is given back. After twice its group
  // count of those the record is written incomplete, saying why, and the
  // shape takes a new record.
  auto Groups = sampleGroups();
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 6, 0, Groups, {});
  LaunchRecord R = recordOf(6);
  A.hold(R);
  A.deliver(T0, timedValues(Groups[0], 80000), "");
  std::optional<LaunchRecord> Out;
  size_t Launches = 0;
  while (!Out && Launches < 100 * Groups.size()) {
    AppTicket T;
    if (A.role("s", false, [] { return false; }, T) != AppRole::ReplayOnly)
      break;
    ++Launches;
    Out = A.deliver(T, timedValues(Groups[T.Group], 40000), "");
  }
  ASSERT_TRUE(Out) << "written after " << Launches << " launches";
  EXPECT_EQ(Out->Correlation, 6u);
  ASSERT_FALSE(Out->HwIncomplete.empty());
  EXPECT_NE(Out->HwIncomplete.back().find("did other work"), std::string::npos);
  EXPECT_EQ(A.stats().Completed, 0u);
  EXPECT_EQ(A.stats().Incomplete, 1u);
  AppTicket New;
  EXPECT_EQ(A.role("s", true, [] { return true; }, New), AppRole::Record) << "the shape is free";
}

TEST(ApplicationReplay, IncompleteAtExitSaysWhatIsMissing) {
  auto Groups = sampleGroups();
  ASSERT_GE(Groups.size(), 3u);
  ApplicationReplay A;
  AppTicket T0 = A.startRecord("s", 5, 0, Groups, {});
  A.deliver(T0, valuesOf(Groups[0], 0), "");
  AppTicket T1;
  ASSERT_EQ(A.role("s", false, [] { return false; }, T1), AppRole::ReplayOnly);
  A.deliver(T1, valuesOf(Groups[1], 0), "");
  LaunchRecord R = recordOf(5);
  ASSERT_TRUE(A.hold(R));
  A.startRecord("s", 6, 0, Groups, {}); // never finalized: dropped at exit
  std::vector<LaunchRecord> Left = A.takeIncomplete();
  ASSERT_EQ(Left.size(), 1u);
  const LaunchRecord &L = Left[0];
  EXPECT_EQ(L.Correlation, 5u);
  ASSERT_EQ(L.HwIncomplete.size(), Groups.size() - 2);
  for (size_t G = 2; G < Groups.size(); ++G)
    EXPECT_EQ(L.HwIncomplete[G - 2], describeGroup(G, Groups.size(), Groups[G]));
  EXPECT_EQ(L.HwIncomplete[0].rfind("group 3 of " + std::to_string(Groups.size()) + ": ", 0), 0u);
  // Only what the collected groups give.
  std::map<std::string, double> Have = valuesOf(Groups[0], 0);
  for (auto &[K, V] : valuesOf(Groups[1], 0))
    Have.emplace(K, V);
  nlohmann::json J = countersToJson(Have);
  for (const char *Key : {"flops", "dram_bytes", "l2_bytes", "time_ns"})
    EXPECT_EQ(L.Hw->contains(Key), J.contains(Key)) << Key;
  EXPECT_EQ(A.stats().Incomplete, 1u);
  // In the file and in the aggregates: flagged, and not counted as counters.
  nlohmann::json LJ = launchToJson(L, 0);
  EXPECT_EQ(LJ["counters_incomplete"].size(), L.HwIncomplete.size());
  KernelAggregate K;
  K.add(L);
  EXPECT_EQ(K.HwLaunches, 0u);
  LaunchRecord Full = recordOf(7);
  Full.Hw = countersToJson(Have);
  K.add(Full);
  EXPECT_EQ(K.HwLaunches, 1u);
}

TEST(ApplicationReplay, TypesCheckedOnCompleteCountersOnly) {
  auto Groups = sampleGroups();
  ApplicationReplay A;
  int Calls = 0;
  size_t SeenValues = 0;
  A.setTypeCheck([&](const AppTypes &T, const std::map<std::string, double> &V,
                     std::vector<std::string> &) {
    ++Calls;
    SeenValues = V.size();
    EXPECT_TRUE(T.Learning);
    return std::string("pipe busy");
  });
  AppTypes Ty;
  Ty.Learning = true;
  AppTicket T0 = A.startRecord("s", 1, 0, Groups, Ty);
  A.deliver(T0, valuesOf(Groups[0], 0), "");
  LaunchRecord R = recordOf(1);
  A.hold(R);
  AppTicket TT = A.startRecord("t", 2, 0, Groups, Ty); // held, never completed
  A.deliver(TT, valuesOf(Groups[0], 0), "");
  LaunchRecord RT = recordOf(2);
  ASSERT_TRUE(A.hold(RT));
  std::optional<LaunchRecord> Out;
  for (size_t N = 1; !Out && N < Groups.size(); ++N) {
    AppTicket T; // groups of types only wait for the pipes' values
    ASSERT_EQ(A.role("s", true, [] { return false; }, T), AppRole::Replay);
    Out = A.deliver(T, valuesOf(Groups[T.Group], 0), N == 1 ? "x.sum" : "");
  }
  EXPECT_EQ(Calls, 1);
  std::set<std::string> Distinct;
  for (const auto &G : Groups)
    Distinct.insert(G.begin(), G.end());
  EXPECT_EQ(SeenValues, Distinct.size()) << "the check sees every group's values";
  ASSERT_TRUE(Out && Out->Hw);
  EXPECT_EQ((*Out->Hw)["tensor_flops_problem"], "pipe busy");
  EXPECT_EQ((*Out->Hw)["not_evaluated"], "x.sum");
  std::vector<LaunchRecord> Left = A.takeIncomplete();
  ASSERT_EQ(Left.size(), 1u);
  EXPECT_FALSE(Left[0].Hw->contains("tensor_flops_problem"));
  EXPECT_EQ(Calls, 1) << "no check (nor learning) on incomplete counters";
}

TEST(ApplicationReplay, Setting) {
  ReplayMode App = ReplayMode::Kernel;
  EXPECT_TRUE(parseReplayMode("application", App) && App == ReplayMode::Application);
  EXPECT_TRUE(parseReplayMode("Kernel", App) && App == ReplayMode::Kernel);
  EXPECT_TRUE(parseReplayMode("PASSES", App) && App == ReplayMode::Passes);
  EXPECT_FALSE(parseReplayMode("app", App));
  EXPECT_EQ(checkRtSetting(RtSetting::Replay, "kernel"), "");
  EXPECT_NE(checkRtSetting(RtSetting::Replay, "x"), "");
}

} // namespace
