//===- LaunchArgs.h - a kernel launch's arguments from its API callback ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The driver-API launch callbacks' parameter structures (cuLaunchKernel,
// cuLaunchCooperativeKernel, cuLaunchKernelEx and their _ptsz forms) decoded
// into one struct, and the stream questions asked of a launch.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_LAUNCHARGS_H
#define HROOF_RUNTIME_LAUNCHARGS_H

#include <cuda.h>
#include <cupti.h>

namespace hroof {
namespace rt {

struct LaunchArgs {
  CUfunction F = nullptr;
  unsigned Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  unsigned SharedMem = 0;
  CUstream Stream = nullptr;
  void **KernelParams = nullptr, **Extra = nullptr;
  bool PerThread = false;
  const char *Api = "";
};

/// Decodes the launch of callback \p Id; false for other callbacks.
bool decodeLaunch(CUpti_CallbackId Id, const void *Params, LaunchArgs &A);

/// The stream the launch goes to (the per-thread default stream for a
/// _ptsz launch on stream 0).
inline CUstream launchStream(const LaunchArgs &A) {
  return !A.Stream && A.PerThread ? CU_STREAM_PER_THREAD : A.Stream;
}

/// Whether launches to \p S are being captured into a graph (or the driver
/// cannot tell): such a launch runs no kernel now.
bool streamCapturing(CUstream S);

/// Whether the launch of callback \p Id with \p Params is captured into a
/// graph (false for a launch that does not decode).
bool launchCaptured(CUpti_CallbackId Id, const void *Params);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_LAUNCHARGS_H
