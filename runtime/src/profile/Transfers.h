//===- Transfers.h - memory copies and memsets seen by the runtime --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A copy or memset of the application (CUPTI MEMCPY, MEMCPY2 and MEMSET
// activity records, Activity.cpp) as the profile keeps it: its kind, bytes,
// duration, achieved bandwidth, device, stream and NVTX range path; and the
// aggregate per kind. No CUDA, no CUPTI: unit-testable anywhere.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_TRANSFERS_H
#define HROOF_RUNTIME_TRANSFERS_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace hroof {
namespace rt {

/// One copy or memset.
struct TransferRecord {
  /// "HtoD", "DtoH", "DtoD", "PtoP" (between devices), "HtoH", "array"
  /// (a CUDA array on either side), "memset".
  std::string Kind;
  uint64_t Bytes = 0;
  uint64_t StartNs = 0, DurationNs = 0;
  int64_t Device = -1, Stream = -1;
  int64_t SrcDevice = -1, DstDevice = -1; ///< PtoP only
  uint32_t Correlation = 0;
  std::string Range; ///< NVTX range path (hroof/RangePath.h), "" outside all
};

/// GB/s of \p Bytes moved in \p Ns (0 when no time).
inline double achievedGBps(uint64_t Bytes, uint64_t Ns) {
  return Ns ? double(Bytes) / double(Ns) : 0.0; // byte/ns == GB/s
}

nlohmann::json transferToJson(const TransferRecord &R);

/// The transfers of one kind (and range): count, bytes, time.
struct TransferAggregate {
  uint64_t Count = 0, Bytes = 0, TotalNs = 0;
  void add(const TransferRecord &R) {
    ++Count;
    Bytes += R.Bytes;
    TotalNs += R.DurationNs;
  }
  nlohmann::json toJson(const std::string &Kind) const;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_TRANSFERS_H
