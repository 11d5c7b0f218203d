//===- Collectives.h - per collective and rank: bytes, bandwidth, skew -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The communication table of `hroof report --by rank`: for each collective
// (AllReduce, ...), communicator and (rank, GPU) row, from the launch
// records of its communication kernels:
//  - calls, and the bytes of the calls NCCL's NVTX payload gave the runtime
//    (a launch's "collective"; docs/multi-gpu.md says when there are none);
//  - the algorithm time (the kernels' time), algBw = S / time and busBw =
//    algBw x the collective's factor, with nccl-tests' conventions
//    (doc/PERFORMANCE.md): S is the message size, except AllGather,
//    ReduceScatter, AllToAll, Gather and Scatter, where NCCL's payload is
//    the per-rank part and S = n x bytes; factor AllReduce 2(n-1)/n, those
//    five (n-1)/n, Broadcast, Reduce, Send, Recv 1; n the ranks that ran
//    the communicator's collectives;
//  - each call's time split into skew (waiting for the last rank to arrive)
//    and transfer: the k-th communication kernel of a communicator on every
//    rank is one instance; arrival is its kernel's start, and on rank r
//    skew = last start - start_r, transfer = end_r - last start. Start times
//    are CUPTI's GPU timestamps, which share the host's clock only among
//    processes of one host: ranks on several hosts get no split.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_COLLECTIVES_H
#define HROOF_TOOLS_REPORT_COLLECTIVES_H

#include "RankView.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// One (collective, communicator, rank row).
struct CollectiveRow {
  std::string Collective;   ///< "AllReduce"; from the call, else the kernel's name
  std::string Comm;         ///< communicator hash ("0x..."), "" unknown
  std::string Row;          ///< the rank row's label
  size_t RowIndex = 0;      ///< into RankView::Rows
  size_t Ranks = 0;         ///< n: rows with this communicator (and collective)
  uint64_t Calls = 0;       ///< kernels (a grouped launch counts once)
  uint64_t CallsWithBytes = 0;
  double PayloadBytes = 0;  ///< summed payload bytes
  double SizeBytes = 0;     ///< summed S (nccl-tests' size convention)
  double TimeNs = 0;        ///< every call's kernel time
  double TimeWithBytesNs = 0; ///< ... of the calls with bytes
  double BusFactor = 0;
  /// Instances matched across ranks (the split below is over these).
  uint64_t Matched = 0;
  double SkewNs = 0, TransferNs = 0, MatchedTimeNs = 0, MatchedSizeBytes = 0,
         MatchedTransferWithBytesNs = 0;
  /// GB/s (1e9 bytes per second); 0 when unknown.
  double algBw() const { return TimeWithBytesNs > 0 ? SizeBytes / TimeWithBytesNs : 0; }
  double busBw() const { return algBw() * BusFactor; }
  /// busBw over the transfer part only (the waiting left out).
  double busBwTransfer() const {
    return MatchedTransferWithBytesNs > 0 ? MatchedSizeBytes / MatchedTransferWithBytesNs * BusFactor
                                          : 0;
  }
};

struct CollectiveView {
  std::vector<CollectiveRow> Rows;
  std::vector<std::string> Notes;
  bool Split = false; ///< skew/transfer computed (one host, 2+ ranks)
};

/// busBw / algBw of \p Collective over \p N ranks (nccl-tests); 0 unknown.
double busFactor(const std::string &Collective, size_t N);
/// S / payload bytes: N for collectives whose NCCL payload is per rank.
double sizeFactor(const std::string &Collective, size_t N);

/// The compared rows of \p V, their profiles' communication launch records.
CollectiveView buildCollectives(const RankView &V);
void printCollectives(std::ostream &OS, const CollectiveView &C);
nlohmann::json collectivesJson(const CollectiveView &C);

} // namespace report
} // namespace hroof

#endif // HROOF_TOOLS_REPORT_COLLECTIVES_H
