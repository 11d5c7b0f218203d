// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Work keys (runtime/src/launches/WorkKey.h): launches of one shape share
// a key only when their by-value parameter bytes are equal; pointers never
// tell launches apart; a struct parameter's embedded pointers are left out
// too (cuBLAS passes its GEMM problem as one by-value struct).
#include "launches/HostMappings.h"
#include "launches/WorkKey.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <cstring>
#include <set>

using namespace hroof::rt;

namespace {

/// A fake address space: words in [0x7f0000000000, 0x7f0100000000) are pointers.
bool fakePointer(uint64_t V) { return V >= 0x7f0000000000ull && V < 0x7f0100000000ull; }

/// A GEMM-like by-value struct, as a persistent kernel receives it.
struct Problem {
  uint64_t A, B, C; // pointers
  int32_t M, N, K;
  float Alpha;
};

std::string keyOf(const Problem &P, int32_t Flag) {
  // ABI layout: the struct at offset 0 (40 bytes), an int at offset 40.
  ParamLayout Layout = {{0, sizeof(Problem)}, {40, 4}};
  void *Args[] = {const_cast<Problem *>(&P), &Flag};
  return launchWorkKey("gemm g=132,1,1 b=384,1,1 s=0", Args, nullptr, Layout, fakePointer);
}

} // namespace

TEST(WorkKey, PointersDoNotSplitLaunches) {
  Problem P1{0x7f0000001000ull, 0x7f0000002000ull, 0x7f0000003000ull, 4096, 4096, 4096, 1.0f};
  Problem P2 = P1;
  P2.A = 0x7f00000a0000ull; // other buffers, same work
  P2.C = 0x7f00000b0000ull;
  EXPECT_EQ(keyOf(P1, 0), keyOf(P2, 0));
}

TEST(WorkKey, SizesScalarsAndFlagsSplitLaunches) {
  Problem Big{0x7f0000001000ull, 0x7f0000002000ull, 0x7f0000003000ull, 4096, 4096, 4096, 1.0f};
  Problem Skinny = Big, Alpha = Big;
  Skinny.N = 64;
  Alpha.Alpha = 0.5f;
  std::set<std::string> Keys = {keyOf(Big, 0), keyOf(Skinny, 0), keyOf(Alpha, 0), keyOf(Big, 1)};
  EXPECT_EQ(Keys.size(), 4u);
}

TEST(WorkKey, KeepsTheShapeAndSaysWhenParamsWereRead) {
  Problem P{0, 0, 0, 1, 2, 3, 1.0f};
  std::string K = keyOf(P, 0);
  EXPECT_EQ(K.rfind("gemm g=132,1,1 b=384,1,1 s=0 p=", 0), 0u) << K;
  EXPECT_TRUE(workKeyHasParams(K));
  std::string Unknown = launchWorkKey("k g=1,1,1 b=1,1,1 s=0", nullptr, nullptr, {}, fakePointer);
  EXPECT_EQ(Unknown, "k g=1,1,1 b=1,1,1 s=0 p=?");
  EXPECT_FALSE(workKeyHasParams(Unknown));
}

TEST(WorkKey, PackedBufferGivesTheSameKeyAsPerArgumentPointers) {
  Problem P{0x7f0000001000ull, 0x7f0000002000ull, 0x7f0000003000ull, 128, 256, 512, 2.0f};
  int32_t Flag = 7;
  unsigned char Buf[44];
  std::memcpy(Buf, &P, sizeof P);
  std::memcpy(Buf + 40, &Flag, 4);
  size_t Size = sizeof Buf;
  void *Extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, Buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &Size,
                   CU_LAUNCH_PARAM_END};
  ParamLayout Layout = {{0, sizeof(Problem)}, {40, 4}};
  EXPECT_EQ(launchWorkKey("gemm g=132,1,1 b=384,1,1 s=0", nullptr, Extra, Layout, fakePointer),
            keyOf(P, Flag));
}

TEST(HostMappings, WritableMappingsOnly) {
  HostMappings M;
  M.parse("00400000-00452000 r-xp 00000000 08:02 173521 /usr/bin/python3\n"
          "13000000-36000000 rw-p 00000000 00:00 0 [heap]\n"
          "7f3d00000000-7f3d00100000 rw-p 00000000 00:00 0\n"
          "7ffd4df70000-7ffd4df99000 rw-p 00000000 00:00 0 [stack]\n"
          "garbage line\n");
  EXPECT_EQ(M.size(), 3u);
  EXPECT_FALSE(M.contains(0x400100));         // code, not writable
  EXPECT_TRUE(M.contains(0x152eb500));        // heap
  EXPECT_FALSE(M.contains(0x36000000));       // one past the heap
  EXPECT_TRUE(M.contains(0x7ffd4df97aa0ull)); // stack
  EXPECT_FALSE(M.contains(4096));             // a size
}
