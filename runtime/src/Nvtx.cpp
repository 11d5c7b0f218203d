//===- Nvtx.cpp - CUPTI's NVTX callbacks into the range tracker -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The thin CUPTI side of NVTX ranges: decodes each NVTX callback
// (CUPTI_CB_DOMAIN_NVTX, parameters from generated_nvtx_meta.h) into a call
// of the CUPTI-free tracker (NvtxRanges.h).
//
// NVTX calls reach CUPTI only when CUPTI is NVTX's injection library: NVTX v2
// and v3 load the library named by NVTX_INJECTION64_PATH and call its
// InitializeInjectionNvtx2. `hroof run` sets that variable to this library,
// whose InitializeInjectionNvtx2 (below) starts the runtime (NVTX may come
// before cuInit) and hands over to libcupti's own.
//===----------------------------------------------------------------------===//
#include "Injection.h"

#include <generated_nvtx_meta.h>

#include <dlfcn.h>

namespace hroof {
namespace rt {

namespace {

/// A message pointer as text ("" for NULL, which NVTX allows).
std::string text(const char *S) { return S ? S : ""; }

std::string fromWide(const wchar_t *W) {
  std::string S;
  for (; W && *W; ++W) // ranges are names: ASCII kept, the rest marked
    S += *W > 0 && *W < 128 ? char(*W) : '?';
  return S;
}

NvtxMessage messageOf(const nvtxEventAttributes_t *A) {
  if (!A)
    return NvtxMessage::text("");
  switch (A->messageType) {
  case NVTX_MESSAGE_TYPE_ASCII:
    return NvtxMessage::text(text(A->message.ascii));
  case NVTX_MESSAGE_TYPE_UNICODE:
    return NvtxMessage::text(fromWide(A->message.unicode));
  case NVTX_MESSAGE_TYPE_REGISTERED:
    return NvtxMessage::registered(reinterpret_cast<uint64_t>(A->message.registered));
  default:
    return NvtxMessage::text("");
  }
}

uint64_t handle(const void *P) { return reinterpret_cast<uint64_t>(P); }

/// The value NVTX returned (range id, domain or string handle); CUPTI passes
/// it when it is NVTX's implementation.
template <typename T> bool returned(const CUpti_NvtxData *D, T &Out) {
  if (!D->functionReturnValue)
    return false;
  Out = *static_cast<const T *>(D->functionReturnValue);
  return true;
}

void startRange(const CUpti_NvtxData *D, uint64_t Domain, const NvtxMessage &Msg) {
  nvtxRangeId_t Id = 0;
  if (returned(D, Id) && Id) // 0 is no range
    rt().Ranges.start(Id, Domain, Msg);
  else
    rt().noteOnce("NVTX start/end ranges are not followed: CUPTI gave no range id");
}

} // namespace

void onNvtx(CUpti_CallbackId Id, const CUpti_NvtxData *D) {
  NvtxRanges &R = rt().Ranges;
  const void *P = D->functionParams;
  switch (Id) {
  case CUPTI_CBID_NVTX_nvtxRangePushA:
    R.push(threadId(), 0,
           NvtxMessage::text(text(static_cast<const nvtxRangePushA_params *>(P)->message)));
    break;
  case CUPTI_CBID_NVTX_nvtxRangePushW:
    R.push(threadId(), 0,
           NvtxMessage::text(fromWide(static_cast<const nvtxRangePushW_params *>(P)->message)));
    break;
  case CUPTI_CBID_NVTX_nvtxRangePushEx:
    R.push(threadId(), 0, messageOf(static_cast<const nvtxRangePushEx_params *>(P)->eventAttrib));
    break;
  case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
    auto *Q = static_cast<const nvtxDomainRangePushEx_params *>(P);
    R.push(threadId(), handle(Q->domain), messageOf(Q->core.eventAttrib));
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangePop:
    R.pop(threadId(), 0);
    break;
  case CUPTI_CBID_NVTX_nvtxDomainRangePop:
    R.pop(threadId(), handle(static_cast<const nvtxDomainRangePop_params *>(P)->domain));
    break;
  case CUPTI_CBID_NVTX_nvtxRangeStartA:
    startRange(D, 0,
               NvtxMessage::text(text(static_cast<const nvtxRangeStartA_params *>(P)->message)));
    break;
  case CUPTI_CBID_NVTX_nvtxRangeStartW:
    startRange(
        D, 0, NvtxMessage::text(fromWide(static_cast<const nvtxRangeStartW_params *>(P)->message)));
    break;
  case CUPTI_CBID_NVTX_nvtxRangeStartEx:
    startRange(D, 0, messageOf(static_cast<const nvtxRangeStartEx_params *>(P)->eventAttrib));
    break;
  case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx: {
    auto *Q = static_cast<const nvtxDomainRangeStartEx_params *>(P);
    startRange(D, handle(Q->domain), messageOf(Q->core.eventAttrib));
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangeEnd:
    R.end(static_cast<const nvtxRangeEnd_params *>(P)->id);
    break;
  case CUPTI_CBID_NVTX_nvtxDomainRangeEnd:
    R.end(static_cast<const nvtxDomainRangeEnd_params *>(P)->core.id);
    break;
  case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
    nvtxDomainHandle_t H = nullptr;
    if (returned(D, H))
      R.domainCreated(handle(H), text(static_cast<const nvtxDomainCreateA_params *>(P)->name));
    break;
  }
  case CUPTI_CBID_NVTX_nvtxDomainRegisterStringA: {
    auto *Q = static_cast<const nvtxDomainRegisterStringA_params *>(P);
    nvtxStringHandle_t H = nullptr;
    if (returned(D, H) && Q->string)
      R.stringRegistered(handle(Q->domain), handle(H), Q->string);
    break;
  }
  default:
    break;
  }
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
