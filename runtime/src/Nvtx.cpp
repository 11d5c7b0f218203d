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
// before cuInit) and hands over to libcupti's own. NVTX's payload extension
// (schema and enum registration, nvtxRangePushPayload / nvtxRangePopPayload:
// NCCL closes its init ranges with the latter) is not reported by CUPTI;
// NVTX asks the injection library for it through
// InitializeInjectionNvtxExtension, which this library answers. The schemas
// let NvtxRanges read the bytes of NCCL's collectives from the payloads of
// their ranges (nvtx/NvtxPayload.h).
//===----------------------------------------------------------------------===//
#include "Injection.h"
#include "nvtx/NvtxCallbacks.h"

#include <nvtx3/nvToolsExtPayload.h>

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

namespace {

uint64_t NVTX_API schemaRegister(nvtxDomainHandle_t Domain, const nvtxPayloadSchemaAttr_t *A) {
  return rt().Ranges.registerSchema(reinterpret_cast<uint64_t>(Domain), A);
}

uint64_t NVTX_API enumRegister(nvtxDomainHandle_t Domain, const nvtxPayloadEnumAttr_t *A) {
  return rt().Ranges.registerEnum(reinterpret_cast<uint64_t>(Domain), A);
}

int NVTX_API payloadPush(nvtxDomainHandle_t Domain, const nvtxPayloadData_t *Data, size_t Count) {
  payloadRangePush(rt().Ranges, threadId(), reinterpret_cast<uint64_t>(Domain), Data, Count);
  return 0;
}

int NVTX_API payloadPop(nvtxDomainHandle_t Domain, const nvtxPayloadData_t *, size_t) {
  payloadRangePop(rt().Ranges, threadId(), reinterpret_cast<uint64_t>(Domain));
  return 0;
}

} // namespace

/// NVTX's extension entry: for the payload extension, the schema and enum
/// registration and the range push and pop slots (the others stay
/// unimplemented: NVTX makes them no-ops).
extern "C" __attribute__((visibility("default"))) int
InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *Info) {
  if (!Info || Info->moduleId != NVTX_EXT_PAYLOAD_MODULEID || !Info->segments)
    return 1;
  for (size_t I = 0; I < Info->segmentsCount; ++I) {
    nvtxExtModuleSegment_t &Seg = Info->segments[I];
    if (!Seg.functionSlots || Seg.slotCount <= NVTX3EXT_CBID_nvtxRangePopPayload)
      continue;
    Seg.functionSlots[NVTX3EXT_CBID_nvtxPayloadSchemaRegister] =
        reinterpret_cast<intptr_t>(&schemaRegister);
    Seg.functionSlots[NVTX3EXT_CBID_nvtxPayloadEnumRegister] = reinterpret_cast<intptr_t>(&enumRegister);
    Seg.functionSlots[NVTX3EXT_CBID_nvtxRangePushPayload] = reinterpret_cast<intptr_t>(&payloadPush);
    Seg.functionSlots[NVTX3EXT_CBID_nvtxRangePopPayload] = reinterpret_cast<intptr_t>(&payloadPop);
  }
  return 1;
}
