//===- LaunchWorkKey.h - a launch's work key ------------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Which launches may share hardware counters (launches/WorkKey.h): the key
// of one launch, from its kernel's parameter layout and its argument bytes.
// Calls the driver (cuPointerGetAttribute) and reads /proc/self/maps.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_LAUNCHES_LAUNCHWORKKEY_H
#define HROOF_RUNTIME_LAUNCHES_LAUNCHWORKKEY_H

#include "launches/KernelInfo.h"
#include "launches/LaunchArgs.h"

#include <string>

namespace hroof {
namespace rt {

/// The launch's work key; \p LogWords: one stderr line with the 8-byte
/// words the digest read ("P" for the addresses it left out).
std::string workKeyOf(const FuncInfo &F, const LaunchArgs &A, bool LogWords);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_LAUNCHES_LAUNCHWORKKEY_H
