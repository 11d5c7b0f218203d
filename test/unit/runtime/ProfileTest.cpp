//===- ProfileTest.cpp - the runtime's CPU side, no GPU needed ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "profile/Profile.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace hroof;
using namespace hroof::rt;

namespace {

std::string tempDir() {
  char T[] = "/tmp/hroof-rt-test-XXXXXX";
  const char *D = mkdtemp(T);
  return D ? D : "/tmp";
}

nlohmann::json readJson(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  return nlohmann::json::parse(SS.str()); // throws if invalid
}

LaunchRecord launch(const std::string &Name, uint64_t Ns, uint64_t Flops, bool WithStatic = true,
                    uint64_t StaticFlops = 0) {
  LaunchRecord R;
  R.Mangled = R.Name = Name;
  R.Api = "cuLaunchKernel";
  R.Timed = true;
  R.DurationNs = Ns;
  R.Instrumented = true;
  CountVector C{};
  C[flopsIndex(Precision::F32)] = Flops;
  C[bytesIndex(MemSpace::Global, MemDir::Load)] = 4 * Flops;
  R.Dynamic = C;
  if (WithStatic) {
    TotalVector T{};
    T[flopsIndex(Precision::F32)] = StaticFlops ? StaticFlops : Flops;
    T[bytesIndex(MemSpace::Global, MemDir::Load)] = 4 * Flops;
    R.Static = T;
  } else {
    R.StaticProblem = "no model";
  }
  R.Args = {{"n", int64_t(Flops)}};
  return R;
}

} // namespace

TEST(RuntimeSettings, TableIsComplete) {
  for (int I = 0; I < int(RtSetting::Count); ++I) {
    const RuntimeSettingInfo &S = rtSettingInfo(RtSetting(I));
    EXPECT_EQ(std::string(S.Env).rfind("HROOF_", 0), 0u) << S.Env;
    EXPECT_TRUE(S.Option && *S.Option);
    EXPECT_TRUE(S.Help && *S.Help);
    EXPECT_EQ(checkRtSetting(RtSetting(I), S.Default), "") << S.Env;
  }
}

TEST(RuntimeSettings, FromEnvironment) {
  setenv("HROOF_LAUNCH_LIMIT", "7", 1);
  setenv("HROOF_COUNTING", "off", 1);
  setenv("HROOF_OUTPUT", "/x/y", 1);
  setenv("HROOF_VERBOSE", "lots", 1);
  Settings S = Settings::fromEnvironment();
  EXPECT_EQ(S.LaunchLimit, 7);
  EXPECT_FALSE(S.Counting);
  EXPECT_EQ(S.Output, "/x/y");
  EXPECT_EQ(S.Verbose, 0); // malformed: default kept, problem reported
  ASSERT_EQ(S.Problems.size(), 1u);
  EXPECT_NE(S.Problems[0].find("HROOF_VERBOSE"), std::string::npos);
  unsetenv("HROOF_LAUNCH_LIMIT");
  unsetenv("HROOF_COUNTING");
  unsetenv("HROOF_OUTPUT");
  unsetenv("HROOF_VERBOSE");
  Settings D = Settings::fromEnvironment();
  EXPECT_EQ(D.LaunchLimit, 100);
  EXPECT_TRUE(D.Counting && D.Enable);
  EXPECT_TRUE(D.Problems.empty());
}

TEST(RuntimeSettings, CountersPerShape) {
  EXPECT_EQ(Settings::fromEnvironment().CountersPerShape, 0); // off by default
  setenv("HROOF_COUNTERS_PER_SHAPE", "2", 1);
  Settings S = Settings::fromEnvironment();
  EXPECT_EQ(S.CountersPerShape, 2);
  EXPECT_EQ(S.toJson()["counters_per_shape"], 2);
  setenv("HROOF_COUNTERS_PER_SHAPE", "some", 1);
  S = Settings::fromEnvironment();
  EXPECT_EQ(S.CountersPerShape, 0);
  ASSERT_EQ(S.Problems.size(), 1u);
  EXPECT_NE(S.Problems[0].find("HROOF_COUNTERS_PER_SHAPE"), std::string::npos);
  unsetenv("HROOF_COUNTERS_PER_SHAPE");
  // Launches differ in shape by grid, block or dynamic shared memory.
  unsigned G[3] = {128, 1, 1}, B[3] = {256, 1, 1}, G2[3] = {128, 2, 1};
  EXPECT_EQ(launchShapeKey("_Z1kPf", G, B, 0), "_Z1kPf g=128,1,1 b=256,1,1 s=0");
  EXPECT_NE(launchShapeKey("_Z1kPf", G, B, 0), launchShapeKey("_Z1kPf", G2, B, 0));
  EXPECT_NE(launchShapeKey("_Z1kPf", G, B, 0), launchShapeKey("_Z1kPf", G, B, 1024));
}

TEST(RuntimeSettings, Bools) {
  bool B = false;
  EXPECT_TRUE(parseRtBool("ON", B) && B);
  EXPECT_TRUE(parseRtBool("0", B) && !B);
  EXPECT_FALSE(parseRtBool("maybe", B));
  int64_t N;
  EXPECT_FALSE(parseRtInt("-3", N));
  EXPECT_TRUE(parseRtInt("0x10", N) && N == 16);
}

TEST(RuntimeSettings, CacheControl) {
  bool Flush = true;
  EXPECT_TRUE(parseCacheControl("none", Flush) && !Flush);
  EXPECT_TRUE(parseCacheControl("ALL", Flush) && Flush);
  EXPECT_FALSE(parseCacheControl("", Flush));
  EXPECT_FALSE(parseCacheControl("some", Flush));
  EXPECT_TRUE(Flush); // left as it was on a malformed value
  EXPECT_EQ(checkRtSetting(RtSetting::CacheControl, "all"), "");
  EXPECT_NE(checkRtSetting(RtSetting::CacheControl, "1").find("is not all or none"),
            std::string::npos);
  // The default keeps the application's cache state; the profile records it.
  unsetenv("HROOF_CACHE_CONTROL");
  Settings D = Settings::fromEnvironment();
  EXPECT_FALSE(D.FlushL2);
  EXPECT_EQ(D.toJson()["cache_control"], "none");
  setenv("HROOF_CACHE_CONTROL", "all", 1);
  Settings A = Settings::fromEnvironment();
  EXPECT_TRUE(A.FlushL2);
  EXPECT_EQ(A.toJson()["cache_control"], "all");
  setenv("HROOF_CACHE_CONTROL", "flush", 1);
  Settings Bad = Settings::fromEnvironment();
  EXPECT_FALSE(Bad.FlushL2);
  ASSERT_EQ(Bad.Problems.size(), 1u);
  EXPECT_NE(Bad.Problems[0].find("HROOF_CACHE_CONTROL"), std::string::npos);
  unsetenv("HROOF_CACHE_CONTROL");
}

TEST(ProfilePath, DirectoryAndTemplate) {
  EXPECT_EQ(profilePath(".", 42, ""), "./hroof-42.json");
  EXPECT_EQ(profilePath("/out/", 42, "3"), "/out/hroof-42-rank3.json");
  EXPECT_EQ(profilePath("/out/p-%p-%r.json", 42, "3"), "/out/p-42-3.json");
  EXPECT_EQ(profilePath("run.json", 42, ""), "run.json");
}

namespace {
const char *DistributedVars[] = {"RANK",           "OMPI_COMM_WORLD_RANK",
                                 "PMI_RANK",       "PMIX_RANK",
                                 "SLURM_PROCID",   "LOCAL_RANK",
                                 "SLURM_LOCALID",  "OMPI_COMM_WORLD_LOCAL_RANK",
                                 "MPI_LOCALRANKID", "WORLD_SIZE",
                                 "OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                 "SLURM_NTASKS"};
void clearDistributed() {
  for (const char *V : DistributedVars)
    unsetenv(V);
}
} // namespace

TEST(ProfilePath, Rank) {
  clearDistributed();
  EXPECT_EQ(rankFromEnvironment(), "");
  setenv("SLURM_PROCID", "5", 1);
  EXPECT_EQ(rankFromEnvironment(), "5");
  setenv("OMPI_COMM_WORLD_RANK", "2", 1);
  EXPECT_EQ(rankFromEnvironment(), "2");
  setenv("OMPI_COMM_WORLD_RANK", "", 1); // empty counts as unset
  EXPECT_EQ(rankFromEnvironment(), "5");
  // RANK alone is some other program's variable, not torchrun's.
  setenv("RANK", "9", 1);
  EXPECT_EQ(rankFromEnvironment(), "5");
  clearDistributed();
  setenv("RANK", "9", 1);
  EXPECT_EQ(rankFromEnvironment(), "");
  clearDistributed();
}

// torchrun under srun: the worker's RANK, not the node's SLURM_PROCID.
TEST(ProfilePath, TorchrunRankBeforeSlurm) {
  clearDistributed();
  setenv("SLURM_PROCID", "1", 1);
  setenv("SLURM_LOCALID", "0", 1);
  setenv("SLURM_NTASKS", "2", 1);
  setenv("RANK", "7", 1);
  setenv("LOCAL_RANK", "3", 1);
  setenv("WORLD_SIZE", "8", 1);
  EXPECT_EQ(rankFromEnvironment(), "7");
  nlohmann::json D = distributedFromEnvironment();
  EXPECT_EQ(D["rank_from"], "RANK");
  EXPECT_EQ(D["local_rank"], "3");
  EXPECT_EQ(D["world_size"], "8");
  clearDistributed();
  D = distributedFromEnvironment();
  EXPECT_TRUE(D["rank_from"].is_null());
  EXPECT_TRUE(D["local_rank"].is_null());
  EXPECT_TRUE(D["world_size"].is_null());
}

TEST(Profile, AggregatePerDevice) {
  KernelAggregate One;
  LaunchRecord R = launch("k", 100, 10);
  R.Device = 1;
  One.add(R);
  One.add(R);
  nlohmann::json J = One.toJson();
  EXPECT_EQ(J["device"], 1);
  EXPECT_FALSE(J.contains("by_device"));

  KernelAggregate Two;
  LaunchRecord A = launch("k", 100, 10), B = launch("k", 250, 30);
  A.Device = 0;
  B.Device = 1;
  Two.add(A);
  Two.add(B);
  Two.add(B);
  J = Two.toJson();
  EXPECT_FALSE(J.contains("device"));
  ASSERT_EQ(J["by_device"].size(), 2u);
  EXPECT_EQ(J["by_device"][0]["device"], 0);
  EXPECT_EQ(J["by_device"][0]["launches"], 1);
  EXPECT_EQ(J["by_device"][0]["duration_ns"]["total"], 100);
  EXPECT_EQ(J["by_device"][1]["device"], 1);
  EXPECT_EQ(J["by_device"][1]["launches"], 2);
  EXPECT_EQ(J["by_device"][1]["duration_ns"]["total"], 500);
  EXPECT_EQ(J["by_device"][1]["dynamic"]["total"]["flops"]["f32"], 60);
  // The devices' shares add up to the whole.
  uint64_t Launches = 0, Ns = 0;
  for (const auto &E : J["by_device"]) {
    Launches += E["launches"].get<uint64_t>();
    Ns += E["duration_ns"]["total"].get<uint64_t>();
  }
  EXPECT_EQ(Launches, J["launches"].get<uint64_t>());
  EXPECT_EQ(Ns, J["duration_ns"]["total"].get<uint64_t>());
}

TEST(KernelFilter, MangledAndDemangled) {
  EXPECT_EQ(demangle("_Z5saxpyifPKfPf"), "saxpy(int, float, float const*, float*)");
  EXPECT_EQ(demangle("plain_c"), "plain_c");
  KernelFilter F;
  EXPECT_TRUE(F.matches("anything", "anything"));
  EXPECT_EQ(F.set("^saxpy\\("), "");
  EXPECT_TRUE(F.matches("_Z5saxpyifPKfPf", demangle("_Z5saxpyifPKfPf")));
  EXPECT_FALSE(F.matches("_Z6reducePf", demangle("_Z6reducePf")));
  EXPECT_EQ(F.set("_Z6"), "");
  EXPECT_TRUE(F.matches("_Z6reducePf", "reduce(float*)"));
  EXPECT_NE(F.set("(unclosed"), "");
  EXPECT_TRUE(F.matches("x", "x")); // a bad pattern matches everything
}

TEST(Counts, SameKeysAsStatic) {
  CountVector C{};
  C[flopsIndex(Precision::F32)] = 5;
  C[bytesIndex(MemSpace::Global, MemDir::Store)] = 12;
  C[specialIndex(Precision::F64, SpecialOp::Sqrt)] = 1;
  nlohmann::json J = countsToJson(C);
  EXPECT_EQ(J["flops"]["f32"], 5);
  EXPECT_EQ(J["bytes"]["global"]["store"], 12);
  EXPECT_EQ(J["special"]["f64"]["sqrt"], 1);
  EXPECT_EQ(J["tensor_flops"]["fp8"], 0);
  // Every counter present, once.
  int N = 0;
  for (auto &Top : J.items())
    for (auto &Mid : Top.value().items())
      N += Mid.value().is_object() ? int(Mid.value().size()) : 1;
  EXPECT_EQ(N, NumCounters);
}

TEST(Counts, WarpLevelDynamicOnly) {
  // The warp-level counts are in the dynamic counts, under the keys of the
  // static warp model; static count objects have only the thread-level keys.
  LaunchRecord R = launch("k", 100, 10);
  (*R.Dynamic)[warpBytesIndex(MemSpace::Global, MemDir::Load)] = 128;
  (*R.Dynamic)[sectorsIndex(MemDir::Load)] = 4;
  (*R.Dynamic)[wavefrontsIndex(MemDir::Store)] = 7;
  (*R.Dynamic)[warpBytesIndex(MemSpace::Shared, MemDir::Store)] = 96;
  nlohmann::json J = launchToJson(R, 0);
  EXPECT_EQ(J["dynamic"]["warp_bytes"]["global"]["load"], 128);
  EXPECT_EQ(J["dynamic"]["warp_bytes"]["shared"]["store"], 96);
  EXPECT_EQ(J["dynamic"]["sectors"]["global"]["load"], 4);
  EXPECT_EQ(J["dynamic"]["wavefronts"]["shared"]["store"], 7);
  EXPECT_EQ(J["dynamic"]["sectors"]["global"]["store"], 0);
  EXPECT_FALSE(J["static"].contains("warp_bytes"));
  EXPECT_FALSE(J["static"].contains("sectors"));
  EXPECT_FALSE(J["static"].contains("wavefronts"));
  // Static and dynamic agree on every thread-level counter: a match.
  EXPECT_EQ(J["static_matches_dynamic"], true);
  KernelAggregate A;
  A.add(R);
  A.add(R);
  EXPECT_EQ(A.StaticMatches, 2u);
  nlohmann::json K = A.toJson();
  EXPECT_EQ(K["dynamic"]["total"]["sectors"]["global"]["load"], 8);
  EXPECT_FALSE(K["static"]["total"].contains("sectors"));
}

TEST(Profile, AggregatesAndMatches) {
  KernelAggregate A;
  A.add(launch("k", 100, 10));
  A.add(launch("k", 300, 20, true, 21)); // static differs
  A.add(launch("k", 200, 30, false));
  EXPECT_EQ(A.Launches, 3u);
  EXPECT_EQ(A.TotalNs, 600u);
  EXPECT_EQ(A.MinNs, 100u);
  EXPECT_EQ(A.MaxNs, 300u);
  EXPECT_EQ(uint64_t(A.Dynamic[flopsIndex(Precision::F32)]), 60u);
  EXPECT_EQ(A.StaticEvaluated, 2u);
  EXPECT_EQ(A.StaticMatches, 1u);
  EXPECT_EQ(A.StaticDiffers, 1u);
  ASSERT_EQ(A.StaticProblems.size(), 1u);
  nlohmann::json J = A.toJson();
  EXPECT_EQ(J["dynamic"]["total"]["flops"]["f32"], 60);
  EXPECT_EQ(J["duration_ns"]["mean"], 200.0);
}

TEST(Profile, ValidAfterEveryWriteAndBounded) {
  std::string Dir = tempDir();
  std::string Path = Dir + "/p.json";
  Profile P(/*LaunchLimit=*/3, /*FlushMs=*/0);
  ASSERT_EQ(P.open(Path, {{"hroof_profile", 1}, {"pid", 1}, {"settings", {{"a", 1}}}}), "");
  nlohmann::json J = readJson(Path);
  EXPECT_EQ(J["hroof_profile"], 1);
  EXPECT_EQ(J["settings"]["a"], 1);
  EXPECT_TRUE(J["launches"].empty());
  EXPECT_EQ(J["complete"], false);
  for (int I = 0; I < 10; ++I) {
    P.addLaunch(launch("k1", 10 + I, 100 + I));
    if (I < 2)
      P.addLaunch(launch("k2", 5, 7));
    // Without finish(): this is what a crash leaves behind.
    J = readJson(Path);
    size_t Expect = std::min(I + 1, 3) + std::min(I + 1, 2);
    EXPECT_EQ(J["launches"].size(), Expect) << I;
  }
  EXPECT_EQ(J["launches"][0]["kernel"], "k1");
  EXPECT_EQ(J["launches"][0]["dynamic"]["flops"]["f32"], 100);
  EXPECT_EQ(J["launches"][0]["args"]["n"], 100);
  EXPECT_EQ(J["launches"][0]["static_matches_dynamic"], true);
  ASSERT_EQ(J["kernels"].size(), 2u);
  EXPECT_EQ(J["kernels"][0]["launches"], 10);
  EXPECT_EQ(J["kernels"][0]["recorded_launches"], 3);
  EXPECT_EQ(J["launch_records"]["dropped"], 7);
  P.addDevice({{"name", "GPU"}});
  P.note("something happened");
  P.note("something happened");
  P.addGraphLaunch();
  P.finish();
  J = readJson(Path);
  EXPECT_EQ(J["complete"], true);
  EXPECT_EQ(J["graph_launches"], 1);
  EXPECT_EQ(J["notes"].size(), 1u);
  EXPECT_EQ(J["devices"][0]["name"], "GPU");
  // After finish nothing changes.
  P.addLaunch(launch("k3", 1, 1));
  EXPECT_EQ(readJson(Path)["kernels"].size(), 2u);
  unlink(Path.c_str());
  rmdir(Dir.c_str());
}

TEST(Profile, ThrottledAggregatesStillValid) {
  std::string Dir = tempDir();
  std::string Path = Dir + "/p.json";
  Profile P(/*LaunchLimit=*/1, /*FlushMs=*/100000);
  ASSERT_EQ(P.open(Path, {{"pid", 1}}), "");
  for (int I = 0; I < 50; ++I)
    P.addLaunch(launch("k", 1, 1));
  nlohmann::json J = readJson(Path);
  EXPECT_EQ(J["launches"].size(), 1u); // the record was written at once
  EXPECT_EQ(P.kernels().at("k").Launches, 50u);
  P.finish();
  EXPECT_EQ(readJson(Path)["kernels"][0]["launches"], 50);
  unlink(Path.c_str());
  rmdir(Dir.c_str());
}

TEST(Profile, RecordsBetweenFlushesKeepTheLastTrailer) {
  std::string Dir = tempDir();
  std::string Path = Dir + "/p.json";
  Profile P(/*LaunchLimit=*/10, /*FlushMs=*/100000);
  ASSERT_EQ(P.open(Path, {{"pid", 1}}), "");
  for (int I = 0; I < 5; ++I)
    P.addLaunch(launch("k", 1, 1));
  // Every record is written at once; the aggregates are those of the last
  // flush (at open: none), and the file is valid JSON.
  nlohmann::json J = readJson(Path);
  EXPECT_EQ(J["launches"].size(), 5u);
  EXPECT_TRUE(J["kernels"].empty());
  P.note("a note forces a flush");
  J = readJson(Path);
  EXPECT_EQ(J["launches"].size(), 5u);
  EXPECT_EQ(J["kernels"][0]["launches"], 5);
  P.addLaunch(launch("k", 1, 1));
  EXPECT_EQ(readJson(Path)["launches"].size(), 6u);
  P.finish();
  J = readJson(Path);
  EXPECT_EQ(J["launches"].size(), 6u);
  EXPECT_EQ(J["kernels"][0]["launches"], 6);
  EXPECT_EQ(J["launch_records"]["written"], 6);
  unlink(Path.c_str());
  rmdir(Dir.c_str());
}

TEST(Profile, UnwritablePathKeepsAggregating) {
  Profile P(10, 0);
  std::string E = P.open("/nonexistent-dir/x/hroof.json", {{"pid", 1}});
  EXPECT_NE(E.find("cannot write the profile"), std::string::npos);
  P.addLaunch(launch("k", 1, 1));
  EXPECT_EQ(P.kernels().at("k").Launches, 1u);
  P.finish();
  EXPECT_EQ(P.takeWriteError(), "");
}

TEST(Profile, UninstrumentedRecord) {
  LaunchRecord R;
  R.Mangled = "_Z4gemmv";
  R.Name = "gemm()";
  R.Timed = true;
  R.DurationNs = 5;
  nlohmann::json J = launchToJson(R, 0);
  EXPECT_EQ(J["instrumented"], false);
  EXPECT_FALSE(J.contains("dynamic"));
  EXPECT_EQ(J["duration_ns"], 5);
}
