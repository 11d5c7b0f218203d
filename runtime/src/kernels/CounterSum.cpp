//===- CounterSum.cpp - sum a counter array's slots on the GPU -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "kernels/CounterSum.h"
#include "kernels/CounterSumPtx.h"
#include "kernels/RuntimeKernel.h"

#include "hroof/CounterLayout.h"

namespace hroof {
namespace rt {

namespace {
/// One counter array's result: NumCounters u64, rounded up to 512 bytes.
constexpr size_t EntryBytes = (sizeof(uint64_t) * NumCounters + 511) / 512 * 512;
/// Entries per arena (64 KiB of device and of pinned host memory).
constexpr size_t ArenaEntries = 128;

constexpr const char *Who = "counter sum kernel";
std::string driverErr(const char *What, CUresult R) { return driverFailure(Who, What, R); }
} // namespace

std::string CounterSummer::load(PerContext &P) {
  return loadRuntimeKernel(Who, CounterSumPtx, CounterSumKernelName, P.Module, P.Kernel);
}

std::string CounterSummer::allocate(PerContext &P, Buffers &B) {
  if (P.Arenas.empty() || P.Arenas.back().Used == ArenaEntries) {
    Arena A;
    CUresult R;
    if ((R = cuMemAlloc(&A.Dev, EntryBytes * ArenaEntries)) != CUDA_SUCCESS)
      return driverErr("cuMemAlloc", R);
    void *Host = nullptr;
    if ((R = cuMemAllocHost(&Host, EntryBytes * ArenaEntries)) != CUDA_SUCCESS) {
      cuMemFree(A.Dev);
      return driverErr("cuMemAllocHost", R);
    }
    A.Host = static_cast<uint64_t *>(Host);
    P.Arenas.push_back(A);
  }
  Arena &A = P.Arenas.back();
  B.Kernel = P.Kernel;
  B.Dev = A.Dev + A.Used * EntryBytes;
  B.Host = A.Host + A.Used * (EntryBytes / sizeof(uint64_t));
  ++A.Used;
  return "";
}

std::string CounterSummer::prepare(CUcontext Ctx, Buffers &B) {
  std::lock_guard<std::mutex> Lock(M);
  CUcontext Cur = nullptr;
  bool Push = cuCtxGetCurrent(&Cur) != CUDA_SUCCESS || Cur != Ctx;
  CUresult R;
  if (Push && (R = cuCtxPushCurrent(Ctx)) != CUDA_SUCCESS)
    return driverErr("cuCtxPushCurrent", R);
  auto [It, New] = Contexts.try_emplace(Ctx);
  PerContext &P = It->second;
  if (New)
    P.Problem = load(P);
  // A failed allocation is not the context's last word (memory may free
  // up), but this array falls back for good (the caller keeps it).
  std::string E = P.Problem.empty() ? allocate(P, B) : P.Problem;
  if (Push) {
    CUcontext Popped;
    cuCtxPopCurrent(&Popped);
  }
  return E;
}

CUresult CounterSummer::launch(CUdeviceptr Counters, size_t Slots, size_t NumCounters,
                               const Buffers &B, CUstream Stream) {
  unsigned long long S = Slots, N = NumCounters;
  CUdeviceptr Out = B.Dev;
  void *Params[] = {&Counters, &S, &N, &Out};
  return cuLaunchKernel(B.Kernel, unsigned(NumCounters), 1, 1, CounterSumThreads, 1, 1, 0, Stream,
                        Params, nullptr);
}

} // namespace rt
} // namespace hroof
