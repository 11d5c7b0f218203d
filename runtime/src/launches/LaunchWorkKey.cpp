//===- LaunchWorkKey.cpp - a launch's work key, pointers asked of the system ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// workKeyOf (LaunchWorkKey.h): the digest of launches/WorkKey.h over a
// launch's parameter bytes, with the words that are addresses found by the
// driver (device, managed, mapped memory) and by /proc/self/maps (writable
// host memory) left out.
//===----------------------------------------------------------------------===//
#include "launches/LaunchWorkKey.h"
#include "launches/HostMappings.h"
#include "launches/WorkKey.h"
#include "profile/Profile.h"
#include "support/Support.h"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace hroof {
namespace rt {

/// Whether \p V is an address the driver knows (device, managed or mapped
/// host memory).
static bool isDevicePointer(uint64_t V) {
  unsigned Type = 0;
  bool WasOwn = InOwnDriverCalls;
  InOwnDriverCalls = true;
  bool Pointer = cuPointerGetAttribute(&Type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CUdeviceptr(V)) ==
                 CUDA_SUCCESS;
  InOwnDriverCalls = WasOwn;
  return Pointer;
}

/// Whether \p V points into the process's writable host memory (heap,
/// stacks, anonymous mappings), read again at most once a second when a
/// value is not found (the heap grows).
static bool isHostPointer(uint64_t V) {
  if (V < (uint64_t(1) << 20))
    return false;
  static std::mutex Lock;
  static HostMappings Maps;
  static uint64_t ReadNs = 0;
  std::lock_guard<std::mutex> L(Lock);
  if (Maps.contains(V))
    return true;
  uint64_t Now = nowNs();
  if (Now - ReadNs < 1000000000ull)
    return false;
  ReadNs = Now;
  return Maps.read() && Maps.contains(V);
}

/// A word of a launch's parameters that is an address (device or host):
/// left out of work keys. Values below 64 KiB or above 2^57 are never
/// addresses. Answers are kept per thread, since a training loop passes the
/// same buffers and sizes again and again; a host address first seen before
/// its memory was mapped stays data, which can only split launches, never
/// merge them.
static bool isPointerWord(uint64_t V) {
  if (V < (uint64_t(1) << 16) || (V >> 57))
    return false;
  thread_local std::unordered_map<uint64_t, bool> Known;
  auto It = Known.find(V);
  if (It != Known.end())
    return It->second;
  if (Known.size() >= 65536)
    Known.clear();
  return Known[V] = isDevicePointer(V) || isHostPointer(V);
}

std::string workKeyOf(const FuncInfo &F, const LaunchArgs &A, bool LogWords) {
  std::string Key = launchWorkKey(launchShapeKey(F.Mangled, A.Grid, A.Block, A.SharedMem),
                                  A.KernelParams, A.Extra, F.Params, isPointerWord);
  if (LogWords) { // what the digest read: 8-byte words, "P" for pointers
    std::string Words;
    for (size_t I = 0; I < F.Params.size(); ++I) {
      const auto *P = static_cast<const unsigned char *>(
          paramBytes(A.KernelParams, A.Extra, F.Params, I));
      for (size_t At = 0; P && At + 8 <= F.Params[I].second; At += 8) {
        uint64_t V;
        std::memcpy(&V, P + At, 8);
        char W[24];
        std::snprintf(W, sizeof W, isPointerWord(V) ? " P" : " %llx", (unsigned long long)V);
        Words += W;
      }
      Words += " |";
    }
    logLine("work key %s:%s", Key.c_str(), Words.c_str());
  }
  return Key;
}

} // namespace rt
} // namespace hroof
