//===- HostMappings.cpp - the process's writable host memory --------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===----------------------------------------------------------------------===//
#include "launches/HostMappings.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace hroof {
namespace rt {

void HostMappings::parse(const std::string &MapsText) {
  Ranges.clear();
  std::istringstream In(MapsText);
  std::string Line;
  while (std::getline(In, Line)) {
    unsigned long long Begin = 0, End = 0;
    char Perms[8] = {0};
    if (std::sscanf(Line.c_str(), "%llx-%llx %7s", &Begin, &End, Perms) != 3)
      continue;
    if (Perms[1] == 'w' && End > Begin)
      Ranges.push_back({Begin, End});
  }
  std::sort(Ranges.begin(), Ranges.end());
}

bool HostMappings::read() {
  std::ifstream In("/proc/self/maps");
  if (!In)
    return false;
  std::stringstream S;
  S << In.rdbuf();
  parse(S.str());
  return true;
}

bool HostMappings::contains(uint64_t V) const {
  auto It = std::upper_bound(Ranges.begin(), Ranges.end(), std::make_pair(V, UINT64_MAX));
  return It != Ranges.begin() && V < std::prev(It)->second;
}

} // namespace rt
} // namespace hroof
