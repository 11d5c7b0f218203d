//===- WorkKey.cpp - which launches may share hardware counters -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===----------------------------------------------------------------------===//
#include "launches/WorkKey.h"

#include <cstdio>
#include <cstring>

namespace hroof {
namespace rt {

namespace {

constexpr uint64_t FnvOffset = 1469598103934665603ull, FnvPrime = 1099511628211ull;

void mix(uint64_t &H, const unsigned char *P, size_t N) {
  for (size_t I = 0; I < N; ++I)
    H = (H ^ P[I]) * FnvPrime;
}

} // namespace

std::string launchWorkKey(const std::string &ShapeKey, void **KernelParams, void **Extra,
                          const ParamLayout &Layout,
                          const std::function<bool(uint64_t)> &IsPointer) {
  if (Layout.empty())
    return ShapeKey + " p=?";
  uint64_t H = FnvOffset;
  for (size_t I = 0; I < Layout.size(); ++I) {
    auto [Offset, Size] = Layout[I];
    const auto *P = static_cast<const unsigned char *>(paramBytes(KernelParams, Extra, Layout, I));
    if (!P && Size)
      return ShapeKey + " p=?";
    size_t At = 0;
    while (At < Size) {
      // 8-byte words at 8-byte-aligned ABI offsets may hold pointers.
      if ((Offset + At) % 8 == 0 && At + 8 <= Size) {
        uint64_t V;
        std::memcpy(&V, P + At, 8);
        if (IsPointer(V)) {
          const unsigned char Marker = 0xA5;
          mix(H, &Marker, 1);
        } else {
          mix(H, P + At, 8);
        }
        At += 8;
      } else {
        mix(H, P + At, 1);
        ++At;
      }
    }
    const unsigned char End = 0x5A; // parameter boundary: (a)(bc) != (ab)(c)
    mix(H, &End, 1);
  }
  char Buf[24];
  std::snprintf(Buf, sizeof Buf, " p=%016llx", (unsigned long long)H);
  return ShapeKey + Buf;
}

bool workKeyHasParams(const std::string &Key) {
  return Key.size() < 4 || Key.compare(Key.size() - 4, 4, " p=?") != 0;
}

std::string workKeyShape(const std::string &Key) {
  size_t P = Key.rfind(" p=");
  if (P == std::string::npos)
    return Key;
  size_t End = Key.find(' ', P + 3);
  return Key.substr(0, P) + (End == std::string::npos ? "" : Key.substr(End));
}

} // namespace rt
} // namespace hroof
