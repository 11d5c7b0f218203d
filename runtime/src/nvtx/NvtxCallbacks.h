//===- NvtxCallbacks.h - CUPTI NVTX callback data into the range tracker --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Decodes one CUPTI NVTX callback (its id and CUpti_NvtxData: the NVTX
// function's parameters, generated_nvtx_meta.h, and its return value: range
// id, domain or string handle) into a call of NvtxRanges. Uses CUPTI's and
// NVTX's headers only (no CUPTI call), so the unit tests feed it fake
// callback data.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_NVTXCALLBACKS_H
#define HROOF_RUNTIME_NVTXCALLBACKS_H

#include "nvtx/NvtxRanges.h"

#include <cupti.h> // callbacks and NVTX callback ids (cupti_nvtx_cbid.h has no guard)

namespace hroof {
namespace rt {

/// Applies NVTX callback \p Id of host thread \p Thread to \p R. Returns
/// false when a start/end range came without its id (not followed).
bool dispatchNvtx(NvtxRanges &R, uint64_t Thread, CUpti_CallbackId Id, const CUpti_NvtxData *D);

/// The event attributes of the nvtxDomainRangePushEx call in progress on
/// this thread, as its caller passed them. CUPTI hands its NVTX callback a
/// copy of the attributes that it keeps per registered message: the copy's
/// payload pointer is the first call's (a stack address of that call, stale
/// afterwards, possibly on another thread's stack). So a payload is read
/// only from these attributes; Nvtx.cpp sets them around the call by
/// wrapping NVTX's nvtxDomainRangePushEx slot, and without them a range
/// push carries no payload (no bytes, never a stale read).
class CallerAttributes {
public:
  explicit CallerAttributes(const nvtxEventAttributes_t *A);
  ~CallerAttributes();
  CallerAttributes(const CallerAttributes &) = delete;
  CallerAttributes &operator=(const CallerAttributes &) = delete;
  static const nvtxEventAttributes_t *current();

private:
  const nvtxEventAttributes_t *Previous;
};

/// The payload extension's range calls (nvtxRangePushPayload,
/// nvtxRangePopPayload), which CUPTI does not report; \p Domain is the
/// domain handle as a number (0: the default domain). NCCL closes its
/// init range with nvtxRangePopPayload. A push's payloads are decoded
/// (NvtxRanges::pushPayload); a pop's are not needed.
void payloadRangePush(NvtxRanges &R, uint64_t Thread, uint64_t Domain,
                      const nvtxPayloadData_t *Data, size_t Count);
void payloadRangePop(NvtxRanges &R, uint64_t Thread, uint64_t Domain);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_NVTXCALLBACKS_H
