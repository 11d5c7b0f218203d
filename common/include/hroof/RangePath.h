//===- hroof/RangePath.h - the NVTX range path of a launch, one format ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A launch's range path is the NVTX ranges open when it was launched,
// outermost first, joined by '/': "train/step 10/forward/conv1". The runtime
// writes it (runtime/src/nvtx/NvtxRanges.h) and `hroof report --by range` reads
// and cuts it (tools/report/RangeView.h); docs/profile-format.md describes it.
//
//  - a range of a named NVTX domain is written "DOMAIN@MESSAGE" (the form of
//    Nsight Compute's --nvtx-include); the default domain's is "MESSAGE";
//  - a '/' inside a message is written '|' so that the path splits cleanly;
//  - "" is a launch outside every range.
//
// Header-only, no dependencies.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RANGEPATH_H
#define HROOF_RANGEPATH_H

#include <string>
#include <vector>

namespace hroof {

constexpr char RangePathSeparator = '/';

/// One path element: the message with '/' replaced, prefixed "DOMAIN@" when
/// the range belongs to a named domain.
inline std::string rangeElement(const std::string &Domain, const std::string &Message) {
  std::string E = Domain.empty() ? Message : Domain + "@" + Message;
  for (char &C : E)
    if (C == RangePathSeparator)
      C = '|';
  return E;
}

inline std::vector<std::string> splitRangePath(const std::string &Path) {
  std::vector<std::string> Out;
  if (Path.empty())
    return Out;
  size_t B = 0;
  for (size_t I = 0; I <= Path.size(); ++I)
    if (I == Path.size() || Path[I] == RangePathSeparator) {
      Out.push_back(Path.substr(B, I - B));
      B = I + 1;
    }
  return Out;
}

/// The first \p Depth elements of \p Path (all when Depth is 0).
inline std::string cutRangePath(const std::string &Path, size_t Depth) {
  if (Depth == 0)
    return Path;
  size_t N = 0;
  for (size_t I = 0; I < Path.size(); ++I)
    if (Path[I] == RangePathSeparator && ++N == Depth)
      return Path.substr(0, I);
  return Path;
}

} // namespace hroof

#endif // HROOF_RANGEPATH_H
