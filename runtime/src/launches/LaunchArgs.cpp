//===- LaunchArgs.cpp - a kernel launch's arguments from its API callback -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "launches/LaunchArgs.h"

namespace hroof {
namespace rt {

bool decodeLaunch(CUpti_CallbackId Id, const void *Params, LaunchArgs &A) {
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
    auto *P = static_cast<const cuLaunchKernel_params *>(Params);
    A = {P->f,
         {P->gridDimX, P->gridDimY, P->gridDimZ},
         {P->blockDimX, P->blockDimY, P->blockDimZ},
         P->sharedMemBytes,
         P->hStream,
         P->kernelParams,
         P->extra,
         Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
         "cuLaunchKernel"};
    return true;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
    auto *P = static_cast<const cuLaunchCooperativeKernel_params *>(Params);
    A = {P->f,
         {P->gridDimX, P->gridDimY, P->gridDimZ},
         {P->blockDimX, P->blockDimY, P->blockDimZ},
         P->sharedMemBytes,
         P->hStream,
         P->kernelParams,
         nullptr,
         Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
         "cuLaunchCooperativeKernel"};
    return true;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    auto *P = static_cast<const cuLaunchKernelEx_params *>(Params);
    if (!P->config)
      return false;
    const CUlaunchConfig *C = P->config;
    A = {P->f,
         {C->gridDimX, C->gridDimY, C->gridDimZ},
         {C->blockDimX, C->blockDimY, C->blockDimZ},
         C->sharedMemBytes,
         C->hStream,
         P->kernelParams,
         P->extra,
         Id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
         "cuLaunchKernelEx"};
    return true;
  }
  default:
    return false;
  }
}

bool streamCapturing(CUstream S) {
  CUstreamCaptureStatus Cap = CU_STREAM_CAPTURE_STATUS_NONE;
  return cuStreamIsCapturing(S, &Cap) != CUDA_SUCCESS || Cap != CU_STREAM_CAPTURE_STATUS_NONE;
}

bool launchCaptured(CUpti_CallbackId Id, const void *Params) {
  LaunchArgs A;
  return decodeLaunch(Id, Params, A) && streamCapturing(launchStream(A));
}

} // namespace rt
} // namespace hroof
