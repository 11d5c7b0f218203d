//===- hroof/Communication.h - which kernels are communication -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Collective-communication libraries run their transfers as kernels: NCCL's
// ncclDevKernel_AllReduce_Sum_f32_RING_LL, PyTorch's intra-node all-reduce,
// NVSHMEM. Such a kernel's time is time on the interconnect (or waiting for
// the other ranks), not a point of the roofline: its FLOPs are a reduction's
// adds at best, and its bytes are what it moved. The runtime does not replay
// them for hardware counters (kernel replay of a kernel that waits on other
// GPUs can hang: docs/multi-gpu.md) and `hroof report` shows them as
// communication time. One table, used by both.
//
// Header-only, no dependencies.
//===----------------------------------------------------------------------===//
#ifndef HROOF_COMMUNICATION_H
#define HROOF_COMMUNICATION_H

#include <string>

namespace hroof {

/// A communication kernel: the library it belongs to and its collective.
struct CommunicationKernel {
  std::string Library;    ///< "NCCL", "PyTorch c10d", ...; "" when not communication
  std::string Collective; ///< "AllReduce", "AllGather", ...; "" when the name does not say
  explicit operator bool() const { return !Library.empty(); }
};

namespace detail {

/// Name fragments that mark a kernel of a communication library. Searched
/// in the demangled (or mangled) name; the first match names the library.
struct CommunicationMarker {
  const char *Fragment, *Library;
};
inline constexpr CommunicationMarker CommunicationMarkers[] = {
    {"ncclDevKernel", "NCCL"},   // NCCL >= 2.19
    {"ncclKernel", "NCCL"},      // NCCL 2.x before 2.19
    {"ncclAllReduce", "NCCL"},   // NCCL 2.4-2.6 (ncclAllReduceRingLLKernel_sum_f32)
    {"ncclAllGather", "NCCL"},   //
    {"ncclReduceScatter", "NCCL"},
    {"ncclBroadcast", "NCCL"},
    {"ncclReduce", "NCCL"},
    {"ncclSendRecv", "NCCL"},
    {"mscclKernel", "MSCCL"},
    {"c10d::intra_node_comm", "PyTorch c10d"},
    {"c10d::symmetric_memory", "PyTorch c10d"},
    {"cross_device_reduce", "vLLM custom all-reduce"},
    {"nvshmem", "NVSHMEM"},
};

/// Collectives in the spellings the libraries use, most specific first
/// ("ReduceScatter" before "Reduce", "AllReduce" before "Reduce").
struct CollectiveSpelling {
  const char *Spelling, *Collective;
};
inline constexpr CollectiveSpelling CollectiveSpellings[] = {
    {"AllReduce", "AllReduce"},         {"all_reduce", "AllReduce"},
    {"allreduce", "AllReduce"},         {"AllReduceKernel", "AllReduce"},
    {"cross_device_reduce", "AllReduce"}, {"ReduceScatter", "ReduceScatter"},
    {"reduce_scatter", "ReduceScatter"}, {"AllGather", "AllGather"},
    {"all_gather", "AllGather"},        {"AllToAll", "AllToAll"},
    {"all_to_all", "AllToAll"},         {"Broadcast", "Broadcast"},
    {"SendRecv", "SendRecv"},           {"Send", "Send"},
    {"Recv", "Recv"},                   {"Reduce", "Reduce"},
};

} // namespace detail

/// The library and collective of \p Name (demangled or mangled), or an
/// empty result when it is not a known communication kernel.
inline CommunicationKernel communicationKernel(const std::string &Name) {
  CommunicationKernel K;
  // The function's own name, before its template arguments and parameters:
  // a compute kernel that takes an ncclDevComm* or an nvshmem type is not
  // communication.
  std::string Head = Name.substr(0, Name.find_first_of("(<"));
  for (const auto &M : detail::CommunicationMarkers)
    if (Head.find(M.Fragment) != std::string::npos) {
      K.Library = M.Library;
      break;
    }
  if (K.Library.empty())
    return K;
  // NCCL's generic kernel (ncclDevKernel_Generic) names no collective.
  for (const auto &C : detail::CollectiveSpellings)
    if (Head.find(C.Spelling) != std::string::npos) {
      K.Collective = C.Collective;
      break;
    }
  return K;
}

/// "NCCL AllReduce", or "NCCL" alone when the collective is unknown.
inline std::string communicationLabel(const CommunicationKernel &K) {
  return K.Collective.empty() ? K.Library : K.Library + " " + K.Collective;
}

} // namespace hroof

#endif // HROOF_COMMUNICATION_H
