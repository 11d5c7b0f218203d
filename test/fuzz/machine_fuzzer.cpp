// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Fuzzes the machine-file reader (report/ReportData.h: loadMachine, which
// reads a path: each input is written to a file of this process first).
// Accepted rejection: UserError.
#include "FuzzInput.h"
#include "Toolchain.h"
#include "report/ReportData.h"

#include <fstream>
#include <unistd.h>

using namespace hroof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string Path = "/tmp/hroof-machine-fuzz-" + std::to_string(getpid()) + ".json";
  std::ofstream(Path, std::ios::binary).write(reinterpret_cast<const char *>(Data), Size);
  try {
    report::loadMachine(Path);
  } catch (const UserError &) {
  }
  return 0;
}
