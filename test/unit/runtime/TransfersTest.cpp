//===- TransfersTest.cpp - copy/memset records in the profile -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "profile/Transfers.h"
#include "profile/Profile.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace hroof;
using namespace hroof::rt;

namespace {

TransferRecord copy(const char *Kind, uint64_t Bytes, uint64_t Ns, const char *Range = "") {
  TransferRecord R;
  R.Kind = Kind;
  R.Bytes = Bytes;
  R.DurationNs = Ns;
  R.StartNs = 1000;
  R.Device = 0;
  R.Stream = 7;
  R.Range = Range;
  return R;
}

nlohmann::json readJson(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  return nlohmann::json::parse(SS.str()); // throws if invalid
}

} // namespace

TEST(Transfers, RecordJson) {
  TransferRecord R = copy("PtoP", 4000, 2000, "step 1");
  R.SrcDevice = 0;
  R.DstDevice = 1;
  nlohmann::json J = transferToJson(R);
  EXPECT_EQ(J["kind"], "PtoP");
  EXPECT_EQ(J["bytes"], 4000);
  EXPECT_DOUBLE_EQ(J["gbytes_per_s"].get<double>(), 2.0);
  EXPECT_EQ(J["dst_device"], 1);
  EXPECT_EQ(J["range"], "step 1");
  EXPECT_FALSE(transferToJson(copy("HtoD", 1, 1)).contains("src_device"));
  EXPECT_DOUBLE_EQ(achievedGBps(10, 0), 0.0);
}

TEST(Transfers, AggregatesByKindAndRange) {
  Profile P(2, 0);
  P.addTransfer(copy("HtoD", 1000, 100, "step 1"));
  P.addTransfer(copy("HtoD", 3000, 300, "step 1"));
  P.addTransfer(copy("HtoD", 5000, 500, "step 2"));
  P.addTransfer(copy("memset", 64, 10));
  nlohmann::json T = P.trailerJson();
  const nlohmann::json &Kinds = T["transfers"]["by_kind"];
  ASSERT_EQ(Kinds.size(), 2u);
  EXPECT_EQ(Kinds[0]["kind"], "HtoD");
  EXPECT_EQ(Kinds[0]["count"], 3);
  EXPECT_EQ(Kinds[0]["bytes"], 9000);
  EXPECT_EQ(Kinds[0]["duration_ns"], 900);
  EXPECT_DOUBLE_EQ(Kinds[0]["gbytes_per_s"].get<double>(), 10.0);
  // Records: the first LaunchLimit (2) per kind.
  EXPECT_EQ(T["transfers"]["records"].size(), 3u);
  // Per range.
  ASSERT_TRUE(T.contains("ranges"));
  bool Seen = false;
  for (const auto &R : T["ranges"])
    if (R["range"] == "step 1") {
      Seen = true;
      EXPECT_EQ(R["transfers"][0]["count"], 2);
      EXPECT_EQ(R["transfers"][0]["bytes"], 4000);
    }
  EXPECT_TRUE(Seen);
}

TEST(Transfers, LaunchRangesInTheFile) {
  char Dir[] = "/tmp/hroof-rt-transfers-XXXXXX";
  ASSERT_TRUE(mkdtemp(Dir));
  std::string Path = std::string(Dir) + "/p.json";
  {
    Profile P(100, 0);
    ASSERT_EQ(P.open(Path, {{"hroof_profile", 1}}), "");
    LaunchRecord L;
    L.Mangled = L.Name = "k";
    L.Timed = true;
    L.DurationNs = 50;
    L.Range = "step 1/forward";
    P.addLaunch(L);
    L.Range = "";
    P.addLaunch(L);
    P.addTransfer(copy("DtoH", 8, 4, "step 1/forward"));
    // Valid JSON before the end, with the growing sections.
    nlohmann::json J = readJson(Path);
    EXPECT_EQ(J["launches"][0]["range"], "step 1/forward");
    P.finish();
  }
  nlohmann::json J = readJson(Path);
  EXPECT_EQ(J["launches"][1]["range"], "");
  ASSERT_EQ(J["ranges"].size(), 2u);
  EXPECT_EQ(J["ranges"][0]["range"], ""); // the launch outside any range
  EXPECT_EQ(J["ranges"][1]["kernels"][0]["launches"], 1);
  EXPECT_EQ(J["ranges"][1]["transfers"][0]["kind"], "DtoH");
  EXPECT_EQ(J["ranges_dropped"], 0);
  EXPECT_EQ(J["transfers"]["by_kind"][0]["bytes"], 8);
}
