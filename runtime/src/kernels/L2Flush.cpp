//===- L2Flush.cpp - flush the L2 before a counter range (cache-control) --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "kernels/L2Flush.h"
#include "kernels/L2FlushPtx.h"
#include "kernels/RuntimeKernel.h"

namespace hroof {
namespace rt {

namespace {
std::string driverErr(const char *What, CUresult R) {
  return driverFailure("L2 flush (cache-control all)", What, R);
}
} // namespace

std::string L2Flusher::prepare(CUcontext Ctx, PerContext &P) {
  CUresult R;
  CUdevice Dev;
  if ((R = cuCtxPushCurrent(Ctx)) != CUDA_SUCCESS)
    return driverErr("cuCtxPushCurrent", R);
  auto Fail = [&](const char *What, CUresult E) {
    CUcontext Popped;
    cuCtxPopCurrent(&Popped);
    return driverErr(What, E);
  };
  int L2Bytes = 0, SMs = 0;
  if ((R = cuCtxGetDevice(&Dev)) != CUDA_SUCCESS)
    return Fail("cuCtxGetDevice", R);
  if ((R = cuDeviceGetAttribute(&L2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, Dev)) !=
      CUDA_SUCCESS)
    return Fail("cuDeviceGetAttribute(L2_CACHE_SIZE)", R);
  if ((R = cuDeviceGetAttribute(&SMs, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev)) !=
      CUDA_SUCCESS)
    return Fail("cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)", R);
  // Twice the L2: the L2 is not a strict LRU, one pass of its size may leave
  // some earlier lines in it.
  size_t Bytes = 2 * size_t(L2Bytes > 0 ? L2Bytes : 0);
  if (std::string E = loadRuntimeKernel("L2 flush (cache-control all)", L2FlushPtx,
                                        L2FlushKernelName, P.Module, P.Kernel);
      !E.empty()) {
    CUcontext Popped;
    cuCtxPopCurrent(&Popped);
    return E;
  }
  if ((R = cuMemAlloc(&P.Buffer, Bytes ? Bytes : 4)) != CUDA_SUCCESS)
    return Fail("cuMemAlloc", R);
  if ((R = cuMemAlloc(&P.Sink, 4)) != CUDA_SUCCESS)
    return Fail("cuMemAlloc", R);
  // Zero-filled: the kernel's XOR of it is 0, never its store's condition.
  if ((R = cuMemsetD8(P.Buffer, 0, Bytes ? Bytes : 4)) != CUDA_SUCCESS)
    return Fail("cuMemsetD8", R);
  if ((R = cuCtxSynchronize()) != CUDA_SUCCESS)
    return Fail("cuCtxSynchronize", R);
  P.Words = Bytes / 4;
  P.Blocks = unsigned(SMs > 0 ? 4 * SMs : 128); // a few blocks per SM keep loads in flight
  CUcontext Popped;
  cuCtxPopCurrent(&Popped);
  return "";
}

std::string L2Flusher::flush(CUcontext Ctx, CUstream Stream) {
  std::lock_guard<std::mutex> Lock(M);
  auto [It, New] = Contexts.try_emplace(Ctx);
  PerContext &P = It->second;
  if (New)
    P.Problem = prepare(Ctx, P);
  if (!P.Problem.empty())
    return P.Problem;
  CUresult R;
  if ((R = cuCtxPushCurrent(Ctx)) != CUDA_SUCCESS)
    return driverErr("cuCtxPushCurrent", R);
  unsigned long long Words = P.Words;
  void *Params[] = {&P.Buffer, &Words, &P.Sink};
  R = cuLaunchKernel(P.Kernel, P.Blocks, 1, 1, 256, 1, 1, 0, Stream, Params, nullptr);
  std::string E = R == CUDA_SUCCESS ? "" : driverErr("cuLaunchKernel", R);
  if (E.empty() && (R = cuStreamSynchronize(Stream)) != CUDA_SUCCESS)
    E = driverErr("cuStreamSynchronize", R);
  CUcontext Popped;
  cuCtxPopCurrent(&Popped);
  return E;
}

} // namespace rt
} // namespace hroof
