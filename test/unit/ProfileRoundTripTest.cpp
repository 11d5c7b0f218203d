//===- ProfileRoundTripTest.cpp - the runtime's writer, the report's reader ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Records built here are written with the runtime's profile writer
// (runtime/src/profile/) and read back with the report's reader
// (tools/report/ProfileData.h): every field the report keeps comes back
// equal to what was written. Both sides spell the keys with
// hroof/ProfileKeys.h; a key that one side spells differently reads back as
// absent (zero, empty) and fails here.
//===----------------------------------------------------------------------===//
#include "profile/Profile.h"
#include "report/ProfileData.h"
#include "report/ReportData.h"

#include "hroof/ProfileKeys.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <unistd.h>

using namespace hroof;
namespace pk = hroof::profile_keys;

namespace {

std::string tempPath(const char *Name) {
  char T[] = "/tmp/hroof-roundtrip-XXXXXX";
  const char *D = mkdtemp(T);
  return std::string(D ? D : "/tmp") + "/" + Name;
}

/// Hardware counters as HwMetrics.h writes them (the keys the report reads).
nlohmann::json counters(double Flops, double L1, double Dram, double TimeNs) {
  return {{pk::Flops, {{"f32", Flops}}},
          {pk::L1Bytes, L1},
          {pk::L2Bytes, L1 / 2},
          {pk::DramBytes, Dram},
          {pk::TimeNs, TimeNs},
          {pk::Peak,
           {{pk::FlopsPerS, {{"f32", 6.0e13}, {"f16", 1.2e14}}},
            {pk::TensorFlopsPerS, {{"f16", 9.0e14}}},
            {pk::L1BytesPerS, 3.0e13},
            {pk::L2BytesPerS, 1.0e13},
            {pk::DramBytesPerS, 3.3e12}}}};
}

/// saxpy: instrumented, 2 FLOPs and 12 bytes per thread of 256 x 4 threads,
/// with counters and a static model; on device 0 in "step 1/forward".
rt::LaunchRecord saxpy(uint64_t Ns) {
  rt::LaunchRecord R;
  R.Mangled = "_Z5saxpyifPKfPf";
  R.Name = "saxpy(int, float, float const*, float*)";
  R.Api = "cuLaunchKernel";
  R.Correlation = 7;
  R.Device = 0;
  R.Grid = {4, 1, 1};
  R.Block = {256, 1, 1};
  R.Timed = true;
  R.StartNs = 1000;
  R.DurationNs = Ns;
  R.Instrumented = true;
  CountVector C{};
  C[flopsIndex(Precision::F32)] = 2048;
  C[bytesIndex(MemSpace::Global, MemDir::Load)] = 8192;
  C[bytesIndex(MemSpace::Global, MemDir::Store)] = 4096;
  R.Dynamic = C;
  TotalVector T{};
  for (int I = 0; I < NumThreadCounters; ++I)
    T[I] = C[I];
  R.Static = T;
  R.HwTried = true;
  R.Hw = counters(2048, 16384, 12288, double(Ns));
  R.Range = "step 1/forward";
  return R;
}

/// An uninstrumented library kernel without counters, once on each device.
rt::LaunchRecord gemm(int64_t Device, uint64_t Ns) {
  rt::LaunchRecord R;
  R.Mangled = R.Name = "cublas_gemm";
  R.Device = Device;
  R.Timed = true;
  R.DurationNs = Ns;
  R.Range = "step 1/backward";
  return R;
}

/// The profile written by the runtime's writer, read by the report's reader.
report::Profile roundTrip(const std::string &Path) {
  rt::Settings S;
  S.LaunchLimit = 10;
  S.AppReplay = true;
  rt::Profile P(S.LaunchLimit, 0);
  rt::ProfileHeader H;
  H.Pid = 4242;
  H.Rank = "3";
  H.Host = "node-1";
  H.Command = "./train";
  H.StartTime = 1795330000;
  nlohmann::json Hd = rt::headerToJson(H, S);
  Hd.update({{pk::RankFrom, "RANK"}, {pk::LocalRank, "3"}, {pk::WorldSize, "4"}});
  EXPECT_EQ(P.open(Path, Hd), "");
  P.addDevice(rt::deviceToJson(0, "NVIDIA H100 80GB HBM3", 9, 0, 132));
  P.addDevice(rt::deviceToJson(1, "NVIDIA H100 80GB HBM3", 9, 0, 132));
  P.addLaunch(saxpy(3000));
  P.addLaunch(saxpy(5000));
  P.addLaunch(gemm(0, 20000));
  P.addLaunch(gemm(1, 30000));
  rt::TransferRecord HtoD;
  HtoD.Kind = "HtoD";
  HtoD.Bytes = 1 << 20;
  HtoD.DurationNs = 40000;
  HtoD.Device = 0;
  HtoD.Range = "step 1";
  P.addTransfer(HtoD);
  rt::TransferRecord PtoP = HtoD;
  PtoP.Kind = "PtoP";
  PtoP.Bytes = 1 << 22;
  PtoP.DurationNs = 10000;
  PtoP.Device = 1;
  PtoP.SrcDevice = 1;
  PtoP.DstDevice = 0;
  P.addTransfer(PtoP);
  P.setTimingFilter("step");
  P.addTiming({"step 2/forward", "_Z5saxpyifPKfPf", 0, 100, 900, false});
  P.addTiming({"step 2/backward", "ncclDevKernel_AllReduce", 1, 2000, 700, true});
  P.note("application replay: a note");
  P.finish();
  std::ifstream In(Path);
  std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  return report::readProfileText(Path, Text);
}

const report::ProfileKernel *kernel(const std::vector<report::ProfileKernel> &Ks,
                                    const std::string &Name) {
  for (const report::ProfileKernel &K : Ks)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

} // namespace

TEST(ProfileRoundTrip, HeaderDevicesNotesAndSettings) {
  std::string Path = tempPath("hroof-4242-rank3.json");
  report::Profile R = roundTrip(Path);
  EXPECT_EQ(R.Path, Path);
  EXPECT_EQ(R.Rank, "3");
  EXPECT_EQ(R.Pid, "4242");
  EXPECT_EQ(R.Id, "node-1/4242/1795330000/./train");
  EXPECT_EQ(R.Replay, "application");
  EXPECT_EQ(R.LaunchLimit, 10);
  ASSERT_TRUE(R.Complete);
  EXPECT_TRUE(*R.Complete);
  EXPECT_FALSE(R.Torn);
  EXPECT_EQ(report::incompleteStatus(R), "");
  ASSERT_EQ(R.Devices.size(), 2u);
  EXPECT_EQ(R.Devices[1].Ordinal, 1);
  EXPECT_EQ(R.deviceName(1), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(R.Notes, std::vector<std::string>{"application replay: a note"});
}

TEST(ProfileRoundTrip, LaunchRecords) {
  report::Profile R = roundTrip(tempPath("p.json"));
  ASSERT_EQ(R.Launches.size(), 4u);
  const report::ProfileLaunch &L = R.Launches[0];
  EXPECT_EQ(L.Kernel, "saxpy(int, float, float const*, float*)");
  EXPECT_EQ(L.Mangled, "_Z5saxpyifPKfPf");
  EXPECT_TRUE(L.Instrumented);
  EXPECT_EQ(L.Device, 0);
  // Instrumented with counters: 4 blocks of 256 threads are 4 x 8 warps.
  EXPECT_TRUE(L.CounterWarps);
  EXPECT_EQ(L.Warps, 32);
  ASSERT_TRUE(L.Peak);
  EXPECT_EQ(L.Peak->FlopsPerS.at("f32"), 6.0e13);
  EXPECT_EQ(L.Peak->TensorFlopsPerS.at("f16"), 9.0e14);
  EXPECT_EQ(L.Peak->BytesPerS.at("l1"), 3.0e13);
  EXPECT_EQ(L.Peak->BytesPerS.at("l2"), 1.0e13);
  EXPECT_EQ(L.Peak->BytesPerS.at("hbm"), 3.3e12);
  EXPECT_FALSE(R.Launches[2].Instrumented);
  EXPECT_FALSE(R.Launches[2].CounterWarps);
  EXPECT_FALSE(R.Launches[2].Peak);
  EXPECT_EQ(R.Launches[3].Device, 1);
}

TEST(ProfileRoundTrip, KernelAggregates) {
  report::Profile R = roundTrip(tempPath("p.json"));
  ASSERT_EQ(R.Kernels.size(), 2u);
  const report::ProfileKernel *S = kernel(R.Kernels, "saxpy(int, float, float const*, float*)");
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Mangled, "_Z5saxpyifPKfPf");
  EXPECT_TRUE(S->Instrumented);
  EXPECT_EQ(S->Launches, 2u);
  EXPECT_EQ(S->TimedLaunches, 2u);
  EXPECT_EQ(S->DurationNs, 8000);
  EXPECT_EQ(S->Device, 0);
  EXPECT_FALSE(S->ByDevice);
  EXPECT_EQ(S->Dynamic.Launches, 2u);
  EXPECT_EQ(report::get(S->Dynamic.Counts, "flops.f32"), 2 * 2048);
  EXPECT_EQ(report::get(S->Dynamic.Counts, "bytes.global.store"), 2 * 4096);
  EXPECT_EQ(S->Static.Launches, 2u);
  EXPECT_EQ(report::get(S->Static.Counts, "bytes.global.load"), 2 * 8192);
  EXPECT_TRUE(S->StaticExact);
  EXPECT_EQ(S->StaticMatches, 2u);
  EXPECT_EQ(S->StaticDiffers, 0u);
  EXPECT_EQ(S->Counters.Launches, 2u);
  EXPECT_EQ(report::get(S->Counters.Counts, "l1_bytes"), 2 * 16384);
  EXPECT_EQ(report::get(S->Counters.Counts, "dram_bytes"), 2 * 12288);
  EXPECT_EQ(report::get(S->Counters.Counts, "time_ns"), 8000);
  EXPECT_EQ(S->Counters.Counts.count("peak.l1_bytes_per_s"), 0u); // peaks are no counts

  // The library kernel ran on both devices: one share each.
  const report::ProfileKernel *G = kernel(R.Kernels, "cublas_gemm");
  ASSERT_TRUE(G);
  EXPECT_FALSE(G->Instrumented);
  EXPECT_EQ(G->Launches, 2u);
  EXPECT_FALSE(G->Device);
  ASSERT_TRUE(G->ByDevice);
  ASSERT_EQ(G->ByDevice->size(), 2u);
  EXPECT_EQ((*G->ByDevice)[1].Device, 1);
  EXPECT_EQ((*G->ByDevice)[1].Launches, 1u);
  EXPECT_EQ((*G->ByDevice)[1].TimedLaunches, 1u);
  EXPECT_EQ((*G->ByDevice)[1].DurationNs, 30000);
  report::ProfileKernel On1 = G->onDevice((*G->ByDevice)[1]);
  EXPECT_EQ(On1.Launches, 1u);
  EXPECT_EQ(On1.DurationNs, 30000);
}

TEST(ProfileRoundTrip, RangesTransfersAndTiming) {
  report::Profile R = roundTrip(tempPath("p.json"));
  ASSERT_TRUE(R.HasRanges);
  std::map<std::string, const report::ProfileRange *> ByPath;
  for (const report::ProfileRange &Rg : R.Ranges)
    ByPath[Rg.Path] = &Rg;
  ASSERT_EQ(ByPath.size(), 3u);
  ASSERT_EQ(ByPath.at("step 1/forward")->Kernels.size(), 1u);
  EXPECT_EQ(ByPath.at("step 1/forward")->Kernels[0].Launches, 2u);
  EXPECT_EQ(ByPath.at("step 1/backward")->Kernels[0].Name, "cublas_gemm");
  ASSERT_EQ(ByPath.at("step 1")->Transfers.size(), 2u);
  EXPECT_EQ(ByPath.at("step 1")->Transfers[0].Kind, "HtoD");
  EXPECT_EQ(ByPath.at("step 1")->Transfers[0].Count, 1u);
  EXPECT_EQ(ByPath.at("step 1")->Transfers[0].Bytes, 1 << 20);
  EXPECT_EQ(ByPath.at("step 1")->Transfers[0].DurationNs, 40000);

  ASSERT_TRUE(R.HasTransfers);
  ASSERT_EQ(R.TransferKinds.size(), 2u);
  EXPECT_EQ(R.TransferKinds[1].Kind, "PtoP");
  EXPECT_EQ(R.TransferKinds[1].Bytes, 1 << 22);
  ASSERT_EQ(R.TransferRecords.size(), 2u);
  EXPECT_EQ(R.TransferRecords[1].Kind, "PtoP");
  EXPECT_EQ(R.TransferRecords[1].Device, 1);
  EXPECT_EQ(R.TransferRecords[1].DurationNs, 10000);

  ASSERT_TRUE(R.HasTiming);
  EXPECT_EQ(R.TimingFilter, "step");
  ASSERT_EQ(R.Timing.size(), 2u);
  const report::TimingEntry &T = R.Timing[1]; // by (range, kernel, device)
  EXPECT_EQ(T.Range, "step 2/forward");
  EXPECT_EQ(T.Kernel, "_Z5saxpyifPKfPf");
  EXPECT_EQ(T.Device, 0);
  EXPECT_EQ(T.Launches, 1u);
  EXPECT_EQ(T.Replayed, 0u);
  EXPECT_EQ(T.FirstStartNs, 100u);
  EXPECT_EQ(T.TotalNs, 900);
  EXPECT_EQ(R.Timing[0].Replayed, 1u);
}

// A profile cut inside a launch record (a kill during a write) is rebuilt
// from its whole records: the report gets the kernels of those records.
TEST(ProfileRoundTrip, TornFileKeepsItsWholeRecords) {
  std::string Path = tempPath("torn.json");
  (void)roundTrip(Path);
  std::ifstream In(Path);
  std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  // Cut in the middle of the third record: two saxpy records stay whole.
  size_t Third = Text.find("\"cublas_gemm\"");
  ASSERT_NE(Third, std::string::npos);
  report::Profile R = report::readProfileText(Path, Text.substr(0, Third));
  EXPECT_TRUE(R.Torn);
  EXPECT_EQ(R.Recovered, 2u);
  EXPECT_EQ(R.Rank, "3");
  EXPECT_EQ(report::incompleteStatus(R), "torn");
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_EQ(R.Kernels[0].Launches, 2u);
  EXPECT_EQ(R.Kernels[0].DurationNs, 8000);
  EXPECT_EQ(R.Kernels[0].Counters.Launches, 2u);
  EXPECT_EQ(report::get(R.Kernels[0].Dynamic.Counts, "flops.f32"), 2 * 2048);
}

// A communication launch with NCCL's payload, as --by rank's collectives
// table reads it: start, duration, the call, its communicator and bytes.
TEST(ProfileRoundTrip, CollectivePayloadAndHost) {
  std::string Path = tempPath("nccl.json");
  rt::Settings S;
  rt::Profile P(S.LaunchLimit, 0);
  rt::ProfileHeader H;
  H.Host = "node-2";
  ASSERT_EQ(P.open(Path, rt::headerToJson(H, S)), "");
  rt::LaunchRecord R = gemm(0, 2500);
  R.Mangled = R.Name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
  R.StartNs = 7000;
  rt::CollectiveCall C;
  C.Call = "ncclAllReduce";
  C.HasBytes = true;
  C.Bytes = 1 << 20;
  C.HasComm = true;
  C.Comm = 0xabc;
  R.Collective = C;
  P.addLaunch(R);
  P.finish();
  std::ifstream In(Path);
  std::string Text((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  report::Profile Rd = report::readProfileText(Path, Text);
  EXPECT_EQ(Rd.Host, "node-2");
  ASSERT_EQ(Rd.Launches.size(), 1u);
  const report::ProfileLaunch &L = Rd.Launches[0];
  EXPECT_EQ(L.StartNs, 7000);
  EXPECT_EQ(L.DurationNs, 2500);
  ASSERT_TRUE(L.Collective);
  EXPECT_EQ(L.Collective->Call, "ncclAllReduce");
  EXPECT_EQ(L.Collective->Comm, "0x0000000000000abc");
  EXPECT_EQ(L.Collective->Bytes, double(1 << 20));
  ASSERT_EQ(Rd.Kernels.size(), 1u);
  EXPECT_EQ(Rd.Kernels[0].RecordedLaunches, 1u);
}
