// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Fuzzes the profile reader of hroof report and compare (report/ProfileReader.h,
// report/TornProfile.h, report/ProfileData.h, report/ReportData.h): parse (a torn file rebuilt from
// its launch records), merge into a data set, analyse. Accepted
// rejection: UserError, the message hroof prints for a malformed profile.
#include "FuzzInput.h"
#include "Toolchain.h"
#include "report/ProfileReader.h"
#include "report/TornProfile.h"
#include "report/ReportData.h"

using namespace hroof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  try {
    report::Profile P = report::readProfileText("fuzz.json", fuzz::text(Data, Size));
    report::Dataset D;
    report::addProfile(D, P);
    report::analyze(D, nullptr);
  } catch (const UserError &) {
  }
  return 0;
}
