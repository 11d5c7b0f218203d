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
// their ranges (nvtx/NvtxPayload.h). Those payloads come with
// nvtxDomainRangePushEx, which libcupti implements and reports with a kept
// copy of the first call's attributes: its slot is wrapped to hand the
// callback the caller's own (NvtxCallbacks.h, CallerAttributes).
//===----------------------------------------------------------------------===//
#include "Injection.h"
#include "nvtx/NvtxCallbacks.h"

#include <nvtx3/nvToolsExtPayload.h>

#include <atomic>

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

namespace {

using DomainRangePushExFn = int(NVTX_API *)(nvtxDomainHandle_t, const nvtxEventAttributes_t *);
/// libcupti's nvtxDomainRangePushEx, which the wrapper below calls.
std::atomic<DomainRangePushExFn> CuptiDomainRangePushEx{nullptr};

/// NVTX's nvtxDomainRangePushEx slot: the caller's attributes for the CUPTI
/// callback that libcupti's implementation makes (NvtxCallbacks.h,
/// CallerAttributes: CUPTI's copy has a stale payload pointer).
int NVTX_API domainRangePushEx(nvtxDomainHandle_t Domain, const nvtxEventAttributes_t *A) {
  CallerAttributes Scope(A);
  DomainRangePushExFn F = CuptiDomainRangePushEx.load(std::memory_order_acquire);
  return F ? F(Domain, A) : 0;
}

/// After libcupti filled this NVTX client's function table: its
/// nvtxDomainRangePushEx slot gets the wrapper. A client whose slot holds
/// another implementation than the first one seen is left alone (its
/// payloads are then not read).
void wrapDomainRangePushEx(const void *GetExportTable) {
  using GetFn = const void *(NVTX_API *)(uint32_t);
  auto Get = reinterpret_cast<GetFn>(const_cast<void *>(GetExportTable));
  auto *Callbacks = Get ? static_cast<const NvtxExportTableCallbacks *>(Get(NVTX_ETID_CALLBACKS))
                        : nullptr;
  if (!Callbacks || Callbacks->struct_size < sizeof(NvtxExportTableCallbacks) ||
      !Callbacks->GetModuleFunctionTable)
    return;
  NvtxFunctionTable Table = nullptr;
  unsigned int Last = 0; // the highest valid index
  if (!Callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &Table, &Last) || !Table ||
      Last < NVTX_CBID_CORE2_DomainRangePushEx)
    return;
  NvtxFunctionPointer *Slot = Table[NVTX_CBID_CORE2_DomainRangePushEx];
  if (!Slot || !*Slot)
    return;
  auto Impl = reinterpret_cast<DomainRangePushExFn>(*Slot);
  if (Impl == &domainRangePushEx)
    return;
  DomainRangePushExFn Expected = nullptr;
  if (!CuptiDomainRangePushEx.compare_exchange_strong(Expected, Impl) && Expected != Impl)
    return;
  *Slot = reinterpret_cast<NvtxFunctionPointer>(&domainRangePushEx);
}

} // namespace

/// NVTX's injection entry (NVTX_INJECTION64_PATH=libhroof_rt.so): starts the
/// runtime, then lets libcupti (the library that defines cuptiSubscribe in
/// this process) implement NVTX, so that its NVTX callbacks reach us, and
/// wraps its nvtxDomainRangePushEx (NCCL's payloads).
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
  int Ok = Init(GetExportTable);
  if (Ok)
    wrapDomainRangePushEx(GetExportTable);
  return Ok;
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
