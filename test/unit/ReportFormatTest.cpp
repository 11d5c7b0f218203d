//===- ReportFormatTest.cpp - the tool's number formats, CSV, profile fields -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Toolchain.h"
#include "report/Format.h"
#include "report/ProfileReader.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace hroof;
using namespace hroof::report;

TEST(ReportFormat, Numbers) {
  EXPECT_EQ(fmtNum(0), "0");
  EXPECT_EQ(fmtNum(4.5678), "4.57");
  EXPECT_EQ(fmtNum(12345.6), "12346");
  EXPECT_EQ(fmtNum(1.5e9), "1.50e+09");
  EXPECT_EQ(fmtNum(2.5e-4, 4), "2.500e-04");
  EXPECT_EQ(fmtNum(1.0 / 0.0), "-");
  EXPECT_EQ(fmtFixed(12.345, 1), "12.3");
  EXPECT_EQ(fmtSignificant(1234567.0), "1.23457e+06");
  EXPECT_EQ(fmtRatio(3, 2), "1.50x");
  EXPECT_EQ(fmtRatio(3, 0), "0.00x");
  EXPECT_EQ(fmtSi(1.5e12, SiStyle::Counts), "1.50T");
  EXPECT_EQ(fmtSi(2500, SiStyle::Counts), "2.50k");
  EXPECT_EQ(fmtSi(999.7, SiStyle::Counts), "999");
  EXPECT_EQ(fmtSi(1.5e12, SiStyle::Demo), "1500.00G");
  EXPECT_EQ(fmtSi(2500, SiStyle::Demo), "2.50K");
  EXPECT_EQ(fmtSi(0.5, SiStyle::Demo), "0.5");
}

TEST(ReportFormat, Csv) {
  EXPECT_EQ(csvField("plain"), "plain");
  EXPECT_EQ(csvField("f(int, float)"), "\"f(int, float)\"");
  EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  std::ostringstream OS;
  writeCsvRow(OS, {"a", "b,c", ""});
  EXPECT_EQ(OS.str(), "a,\"b,c\",\n");
}

static std::string failure(const std::function<void()> &F) {
  try {
    F();
  } catch (const UserError &E) {
    return E.what();
  }
  return "";
}

TEST(ReportFormat, ProfileFields) {
  ProfileFields F("p.json");
  nlohmann::json K = {{"launches", -5}, {"n", 3},      {"half", 2.5},
                      {"name", 7},      {"on", "yes"}, {"gone", nullptr}};
  EXPECT_EQ(F.count(K, "/kernels/0", "n"), 3u);
  EXPECT_EQ(F.count(K, "/kernels/0", "missing"), 0u);
  EXPECT_EQ(F.count(K, "/kernels/0", "gone"), 0u);
  EXPECT_EQ(failure([&] { F.count(K, "/kernels/0", "launches"); }),
            "'p.json': malformed profile: /kernels/0/launches is -5, not a count (a "
            "whole number >= 0)");
  EXPECT_EQ(failure([&] { F.count(K, "/kernels/0", "half"); }),
            "'p.json': malformed profile: /kernels/0/half is 2.5, not a count (a "
            "whole number >= 0)");
  EXPECT_EQ(failure([&] { F.text(K, "", "name"); }),
            "'p.json': malformed profile: /name is the integer 7, not a string");
  EXPECT_EQ(failure([&] { F.flag(K, "", "on"); }),
            "'p.json': malformed profile: /on is a string, not true or false");
  EXPECT_EQ(F.number(K, "", "half"), 2.5);
}

TEST(ReportFormat, ProfileText) {
  EXPECT_EQ(failure([] { parseProfileJson("t.json", "{\"a\": 1"); }),
            "'t.json' is not valid JSON (truncated: it ends before the JSON does)");
  EXPECT_EQ(failure([] { parseProfileJson("t.json", "{\"a\" 1}"); }),
            "'t.json' is not valid JSON (error at byte 6)");
}

// The CSV and JSON of `hroof report` read back exactly: whole numbers in full,
// others in the shortest form that parses to the same double.
TEST(ReportFormat, Exact) {
  EXPECT_EQ(fmtExact(17179869184.0), "17179869184");
  EXPECT_EQ(fmtExact(0.1), "0.1");
  EXPECT_EQ(fmtExact(-3.0), "-3");
  for (double V : {1.0 / 3, 2.0 / 3 * 1e-7, 123456.789012345678, 1e300 / 7})
    EXPECT_EQ(std::strtod(fmtExact(V).c_str(), nullptr), V) << fmtExact(V);
  EXPECT_EQ(fmtExact(1.0 / 0.0), "");
}
