//===- HostMappings.h - the process's writable host memory ----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The writable mappings of /proc/self/maps (heap, stacks, anonymous memory):
// a by-value kernel parameter word that points there is a host pointer, left
// out of work keys like a device pointer (launches/WorkKey.h). PyTorch
// passes several (options objects, generator state) that differ at every
// launch of the same work. CPU-only: parse() is unit-tested in
// test/unit/runtime/WorkKeyTest.cpp.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_LAUNCHES_HOSTMAPPINGS_H
#define HROOF_RUNTIME_LAUNCHES_HOSTMAPPINGS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

class HostMappings {
public:
  /// Reads the writable mappings of \p MapsText (the format of
  /// /proc/self/maps), replacing what was read before.
  void parse(const std::string &MapsText);
  /// Reads /proc/self/maps (false if it cannot).
  bool read();
  /// Whether \p V lies in a writable mapping read last.
  bool contains(uint64_t V) const;
  size_t size() const { return Ranges.size(); }

private:
  std::vector<std::pair<uint64_t, uint64_t>> Ranges; ///< [begin, end), sorted
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_LAUNCHES_HOSTMAPPINGS_H
