//===- Nvtx.cpp - CUPTI's NVTX callbacks into the range tracker -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The thin CUPTI side of NVTX ranges: each NVTX callback
// (CUPTI_CB_DOMAIN_NVTX) goes to dispatchNvtx (NvtxCallbacks.h), which
// decodes it into a call of the CUPTI-free tracker (NvtxRanges.h).
//
// NVTX calls reach CUPTI only when CUPTI is NVTX's injection library: NVTX v2
// and v3 load the library named by NVTX_INJECTION64_PATH and call its
// InitializeInjectionNvtx2. `hroof run` sets that variable to this library,
// whose InitializeInjectionNvtx2 (below) starts the runtime (NVTX may come
// before cuInit) and hands over to libcupti's own.
//===----------------------------------------------------------------------===//
#include "Injection.h"
#include "nvtx/NvtxCallbacks.h"

#include <dlfcn.h>

namespace hroof {
namespace rt {

void onNvtx(CUpti_CallbackId Id, const CUpti_NvtxData *D) {
  if (!dispatchNvtx(rt().Ranges, threadId(), Id, D))
    rt().noteOnce("NVTX start/end ranges are not followed: CUPTI gave no range id");
}

} // namespace rt
} // namespace hroof

using namespace hroof::rt;

/// NVTX's injection entry (NVTX_INJECTION64_PATH=libhroof_rt.so): starts the
/// runtime, then lets libcupti (the library that defines cuptiSubscribe in
/// this process) implement NVTX, so that its NVTX callbacks reach us.
extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtx2(const void *GetExportTable) {
  InitializeInjection();
  Dl_info Info{};
  void *Cupti = nullptr;
  if (dladdr(reinterpret_cast<void *>(&cuptiSubscribe), &Info) && Info.dli_fname)
    Cupti = dlopen(Info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  using InitFn = int (*)(const void *);
  auto Init = Cupti ? reinterpret_cast<InitFn>(dlsym(Cupti, "InitializeInjectionNvtx2")) : nullptr;
  if (!Init) {
    logLine("libcupti has no InitializeInjectionNvtx2: NVTX ranges are not followed");
    return 0;
  }
  return Init(GetExportTable);
}
