//===- NvtxCallbacks.cpp - CUPTI NVTX callback data into the range tracker -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "nvtx/NvtxCallbacks.h"

#include <generated_nvtx_meta.h>
#include <nvtx3/nvToolsExtPayload.h>

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

thread_local const nvtxEventAttributes_t *CallersAttributes = nullptr;

/// A push with its event attributes (\p A: CUPTI's copy). The caller's own
/// attributes (CallerAttributes) with an NVTX_PAYLOAD_TYPE_EXT payload
/// (payload.ullValue points to reserved0 nvtxPayloadData_t, NCCL's
/// collectives) go to pushPayload, to be decoded.
void pushEx(NvtxRanges &R, uint64_t Thread, uint64_t Domain, const nvtxEventAttributes_t *A) {
  const nvtxEventAttributes_t *C = CallerAttributes::current();
  if (C && C->payloadType == NVTX_PAYLOAD_TYPE_EXT && C->payload.ullValue && C->reserved0 > 0)
    R.pushPayload(Thread, Domain, messageOf(A),
                  reinterpret_cast<const nvtxPayloadData_t *>(C->payload.ullValue),
                  size_t(C->reserved0));
  else
    R.push(Thread, Domain, messageOf(A));
}

/// The value NVTX returned (range id, domain or string handle); CUPTI passes
/// it when it is NVTX's implementation.
template <typename T> bool returned(const CUpti_NvtxData *D, T &Out) {
  if (!D->functionReturnValue)
    return false;
  Out = *static_cast<const T *>(D->functionReturnValue);
  return true;
}

/// False when CUPTI gave no range id (the range cannot be ended).
bool startRange(NvtxRanges &R, const CUpti_NvtxData *D, uint64_t Domain, const NvtxMessage &Msg) {
  nvtxRangeId_t Id = 0;
  if (!returned(D, Id) || !Id) // 0 is no range
    return false;
  R.start(Id, Domain, Msg);
  return true;
}

} // namespace

bool dispatchNvtx(NvtxRanges &R, uint64_t Thread, CUpti_CallbackId Id, const CUpti_NvtxData *D) {
  const void *P = D->functionParams;
  switch (Id) {
  case CUPTI_CBID_NVTX_nvtxRangePushA:
    R.push(Thread, 0,
           NvtxMessage::text(text(static_cast<const nvtxRangePushA_params *>(P)->message)));
    break;
  case CUPTI_CBID_NVTX_nvtxRangePushW:
    R.push(Thread, 0,
           NvtxMessage::text(fromWide(static_cast<const nvtxRangePushW_params *>(P)->message)));
    break;
  case CUPTI_CBID_NVTX_nvtxRangePushEx:
    pushEx(R, Thread, 0, static_cast<const nvtxRangePushEx_params *>(P)->eventAttrib);
    break;
  case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
    auto *Q = static_cast<const nvtxDomainRangePushEx_params *>(P);
    pushEx(R, Thread, handle(Q->domain), Q->core.eventAttrib);
    break;
  }
  case CUPTI_CBID_NVTX_nvtxRangePop:
    R.pop(Thread, 0);
    break;
  case CUPTI_CBID_NVTX_nvtxDomainRangePop:
    R.pop(Thread, handle(static_cast<const nvtxDomainRangePop_params *>(P)->domain));
    break;
  case CUPTI_CBID_NVTX_nvtxRangeStartA:
    return startRange(
        R, D, 0, NvtxMessage::text(text(static_cast<const nvtxRangeStartA_params *>(P)->message)));
  case CUPTI_CBID_NVTX_nvtxRangeStartW:
    return startRange(
        R, D, 0,
        NvtxMessage::text(fromWide(static_cast<const nvtxRangeStartW_params *>(P)->message)));
  case CUPTI_CBID_NVTX_nvtxRangeStartEx:
    return startRange(R, D, 0,
                      messageOf(static_cast<const nvtxRangeStartEx_params *>(P)->eventAttrib));
  case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx: {
    auto *Q = static_cast<const nvtxDomainRangeStartEx_params *>(P);
    return startRange(R, D, handle(Q->domain), messageOf(Q->core.eventAttrib));
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
  return true;
}

CallerAttributes::CallerAttributes(const nvtxEventAttributes_t *A) : Previous(CallersAttributes) {
  CallersAttributes = A;
}

CallerAttributes::~CallerAttributes() { CallersAttributes = Previous; }

const nvtxEventAttributes_t *CallerAttributes::current() { return CallersAttributes; }

void payloadRangePush(NvtxRanges &R, uint64_t Thread, uint64_t Domain,
                      const nvtxPayloadData_t *Data, size_t Count) {
  // No message: a name would be an entry of the payload's schema.
  R.pushPayload(Thread, Domain, NvtxMessage::text("(payload range)"), Data, Count);
}

void payloadRangePop(NvtxRanges &R, uint64_t Thread, uint64_t Domain) { R.pop(Thread, Domain); }

} // namespace rt
} // namespace hroof
