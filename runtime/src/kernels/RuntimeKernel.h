//===- RuntimeKernel.h - the runtime's own PTX kernels ------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime launches two kernels of its own, written as PTX text: the L2
// flush of cache-control all (L2FlushPtx.h) and the counter sum
// (CounterSumPtx.h). Both are loaded the same way, in the current context,
// and report a failed driver call the same way: "WHO: CALL failed: NAME".
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_RUNTIMEKERNEL_H
#define HROOF_RUNTIME_RUNTIMEKERNEL_H

#include <cuda.h>

#include <string>

namespace hroof {
namespace rt {

/// "Who: What failed: CUDA_ERROR_..." for a failed driver call.
inline std::string driverFailure(const char *Who, const char *What, CUresult R) {
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  return std::string(Who) + ": " + What + " failed: " + (Name ? Name : "unknown error");
}

/// Loads PTX module \p Ptx into the current context and finds kernel
/// \p Name; "" or the failure (driverFailure with \p Who).
inline std::string loadRuntimeKernel(const char *Who, const char *Ptx, const char *Name,
                                     CUmodule &Module, CUfunction &Kernel) {
  CUresult R;
  if ((R = cuModuleLoadData(&Module, Ptx)) != CUDA_SUCCESS)
    return driverFailure(Who, "cuModuleLoadData", R);
  if ((R = cuModuleGetFunction(&Kernel, Module, Name)) != CUDA_SUCCESS)
    return driverFailure(Who, "cuModuleGetFunction", R);
  return "";
}

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_RUNTIMEKERNEL_H
