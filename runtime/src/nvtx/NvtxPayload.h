//===- NvtxPayload.h - NVTX payload schemas and NCCL's collective payload --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// NVTX's payload extension lets a library attach a binary payload to a range
// and describe its layout once, as a schema (nvtxPayloadSchemaRegister) of
// named, typed entries at byte offsets; enums (nvtxPayloadEnumRegister) give
// names to values. NCCL (2.19 and later) pushes each API call's range in its
// "NCCL" domain with such a payload: the communicator's hash ("NCCL
// communicator ID"), the message size ("Message size [bytes]") and, for
// reductions, the operation ("Reduction operation", an enum).
//
// PayloadSchemas keeps copies of the registered schemas and enums (the
// caller's arrays need not outlive the call) by (domain, id), and reads those
// three fields from a payload by their entry names, so that the layout is
// the one NCCL registered, whatever its version. Every read is checked
// against the payload's size and the schema's; an unknown schema, a type
// that is not a plain integer, an entry past the end: nothing is read,
// nothing fails.
//
// NVTX's header types only: no CUPTI, no CUDA. Not thread-safe by itself
// (NvtxRanges holds it under its lock).
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_NVTXPAYLOAD_H
#define HROOF_RUNTIME_NVTXPAYLOAD_H

#include <nvtx3/nvToolsExtPayload.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

/// The communication library call a launch ran for, from its NVTX range's
/// payload (NCCL: the range of ncclAllReduce, ncclGroupEnd's grouped calls).
struct CollectiveCall {
  std::string Call;      ///< the range's message: "ncclAllReduce"
  bool HasBytes = false; ///< the payload had a message size
  uint64_t Bytes = 0;    ///< NCCL: count x type size (AllGather: per-rank send, ReduceScatter: per-rank receive)
  bool HasComm = false;
  uint64_t Comm = 0; ///< the communicator's hash
  std::string Op;    ///< reduction: the enum's name ("Sum"), or the value; "" none
  uint32_t Calls = 1; ///< calls of one group (ncclGroupStart/End) launched together
};

class PayloadSchemas {
public:
  /// Most schemas and enums kept, entries per schema, enum values per enum:
  /// a program registering without end must not grow memory forever.
  static constexpr size_t MaxSchemas = 1024, MaxEntries = 256, MaxEnumValues = 1024;

  /// Returns the schema's id (the one given, or a new dynamic id), 0 when
  /// the attributes are unusable (nothing kept).
  uint64_t registerSchema(uint64_t Domain, const nvtxPayloadSchemaAttr_t *A);
  uint64_t registerEnum(uint64_t Domain, const nvtxPayloadEnumAttr_t *A);

  /// The collective fields of \p Count payloads (the first one whose schema
  /// has a message size); nullopt when none has one.
  std::optional<CollectiveCall> decode(uint64_t Domain, const nvtxPayloadData_t *Data,
                                       size_t Count) const;

  size_t schemas() const { return Schemas.size(); }

private:
  struct Entry {
    uint64_t Flags = 0, Type = 0, Offset = 0;
    std::string Name;
  };
  struct Schema {
    uint64_t StaticSize = 0; ///< 0: not given
    std::vector<Entry> Entries;
  };
  struct Enum {
    uint64_t Size = 0;
    std::map<uint64_t, std::string> Names;
  };

  /// Size in bytes of a value of entry type \p Type: a predefined integer
  /// type or a registered enum; 0 for anything else (not read).
  uint64_t sizeOf(uint64_t Domain, uint64_t Type) const;
  bool decodeOne(uint64_t Domain, const nvtxPayloadData_t &D, CollectiveCall &C) const;

  std::map<std::pair<uint64_t, uint64_t>, Schema> Schemas; ///< (domain, id)
  std::map<std::pair<uint64_t, uint64_t>, Enum> Enums;
  uint64_t NextDynamicId = NVTX_PAYLOAD_SCHEMA_ID_DYNAMIC_START;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_NVTXPAYLOAD_H
