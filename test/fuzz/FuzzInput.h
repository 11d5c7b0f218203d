//===- FuzzInput.h - what every hroof fuzz target shares -----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The fuzz targets (test/fuzz/*_fuzzer.cpp, libFuzzer, clang -fsanitize=fuzzer)
// feed arbitrary bytes to the readers of files users give hroof. A reader
// may reject its input with the exception it documents (a user-facing
// error); anything else (a crash, a sanitizer report, another exception,
// a hang) is a defect. Run one: build/test/fuzz/NAME_fuzzer -max_total_time=600
// test/fuzz/corpus/NAME (docs/validation/ has the recorded runs); ctest runs
// each over its committed corpus as a regression test.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TEST_FUZZ_FUZZINPUT_H
#define HROOF_TEST_FUZZ_FUZZINPUT_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace hroof::fuzz {
inline std::string text(const uint8_t *Data, size_t Size) {
  return std::string(reinterpret_cast<const char *>(Data), Size);
}
} // namespace hroof::fuzz

#endif // HROOF_TEST_FUZZ_FUZZINPUT_H
