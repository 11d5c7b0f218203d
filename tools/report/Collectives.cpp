//===- Collectives.cpp - per collective and rank: bytes, bandwidth, skew ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Collectives.h"

#include "Format.h"
#include "TextTable.h"

#include "hroof/Communication.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace hroof {
namespace report {

using nlohmann::json;

double busFactor(const std::string &Collective, size_t N) {
  if (N == 0)
    return 0;
  double Nd = double(N);
  if (Collective == "AllReduce")
    return 2 * (Nd - 1) / Nd;
  if (Collective == "AllGather" || Collective == "ReduceScatter" || Collective == "AlltoAll" ||
      Collective == "AllToAll" || Collective == "Gather" || Collective == "Scatter")
    return (Nd - 1) / Nd;
  if (Collective == "Broadcast" || Collective == "Reduce" || Collective == "Send" ||
      Collective == "Recv" || Collective == "SendRecv")
    return 1;
  return 0;
}

double sizeFactor(const std::string &Collective, size_t N) {
  if (Collective == "AllGather" || Collective == "ReduceScatter" || Collective == "AlltoAll" ||
      Collective == "AllToAll" || Collective == "Gather" || Collective == "Scatter")
    return double(N);
  return 1;
}

namespace {

/// One communication kernel of one row.
struct Call {
  std::string Collective, Comm;
  bool Timed = false; ///< has a start (the split needs it)
  double Start = 0, End = 0, Ns = 0;
  bool HasBytes = false;
  double Bytes = 0;
};

struct Input {
  std::vector<const ProfileLaunch *> Launches;
  std::string Host;
  bool AnyPayload = false; ///< some launch has a collective payload
  uint64_t Unrecorded = 0; ///< communication launches without a record
};

Input readInput(const Profile *P) {
  Input In;
  if (!P)
    return In; // the rank view already says what is wrong with it
  In.Host = P->Host;
  for (const ProfileLaunch &L : P->Launches) {
    In.Launches.push_back(&L);
    In.AnyPayload |= L.Collective.has_value();
  }
  for (const ProfileKernel &K : P->Kernels)
    if (communicationKernel(K.Name)) {
      uint64_t N = K.Launches, R = K.RecordedLaunches.value_or(N);
      In.Unrecorded += N > R ? N - R : 0;
    }
  return In;
}

/// The call's collective: NCCL's API name without "nccl" (ncclAllReduce),
/// else the kernel name's, else "?".
std::string collectiveOf(const std::optional<CollectivePayload> &Payload,
                         const CommunicationKernel &K) {
  if (Payload && Payload->Call.rfind("nccl", 0) == 0 && Payload->Call.size() > 4)
    return Payload->Call.substr(4);
  return K.Collective.empty() ? "?" : K.Collective;
}

std::optional<Call> callOf(const ProfileLaunch &L) {
  CommunicationKernel K = communicationKernel(L.Kernel);
  if (L.Kernel.empty() || !K)
    return std::nullopt;
  Call C;
  C.Collective = collectiveOf(L.Collective, K);
  if (L.Collective) {
    C.Comm = L.Collective->Comm;
    C.HasBytes = L.Collective->Bytes.has_value();
    C.Bytes = L.Collective->Bytes.value_or(0);
  }
  C.Ns = L.DurationNs.value_or(0);
  if (L.StartNs) {
    C.Timed = true;
    C.Start = *L.StartNs;
    C.End = C.Start + C.Ns;
  }
  return C;
}

using RowKey = std::tuple<std::string, std::string, size_t>; ///< collective, comm, row

struct Builder {
  const RankView &V;
  CollectiveView Out;
  std::map<RowKey, CollectiveRow> Rows;
  /// comm -> row -> its calls in start order
  std::map<std::string, std::map<size_t, std::vector<Call>>> ByComm;
  std::set<std::string> Hosts;
  /// Why bytes are missing -> the rows concerned.
  std::map<std::string, std::vector<std::string>> BytesMissing;
  uint64_t Unrecorded = 0;

  CollectiveRow &row(const std::string &Coll, const std::string &Comm, size_t R) {
    CollectiveRow &Row = Rows[{Coll, Comm, R}];
    Row.Collective = Coll;
    Row.Comm = Comm;
    Row.RowIndex = R;
    Row.Row = V.Rows[R].Label;
    return Row;
  }

  void read();
  void sizes();
  void split();
  void splitComm(const std::string &Comm, std::map<size_t, std::vector<Call>> &PerRow);
};

void Builder::read() {
  std::map<std::string, size_t> RowsOfInput;
  for (const RankRow &R : V.Rows)
    ++RowsOfInput[R.Input];
  std::map<std::string, Input> Inputs;
  for (size_t I = 0; I < V.Rows.size(); ++I) {
    const RankRow &R = V.Rows[I];
    if (!R.Compared || R.Input.empty())
      continue;
    auto It = Inputs.find(R.Input);
    if (It == Inputs.end()) {
      auto P = V.Profiles.find(R.Input);
      It = Inputs.emplace(R.Input, readInput(P == V.Profiles.end() ? nullptr : P->second)).first;
      Unrecorded += It->second.Unrecorded;
    }
    const Input &In = It->second;
    for (const ProfileLaunch *L : In.Launches) {
      std::optional<Call> C = callOf(*L);
      if (!C)
        continue;
      int64_t Dev = L->Device;
      if (RowsOfInput[R.Input] > 1 && Dev != R.Device)
        continue; // another GPU's row of the same process
      Hosts.insert(In.Host);
      CollectiveRow &Row = row(C->Collective, C->Comm, I);
      ++Row.Calls;
      Row.TimeNs += C->Ns;
      if (C->HasBytes) {
        ++Row.CallsWithBytes;
        Row.PayloadBytes += C->Bytes;
        Row.TimeWithBytesNs += C->Ns;
      } else {
        std::vector<std::string> &Where =
            BytesMissing[In.AnyPayload
                             ? "have communication kernels without bytes: launched outside "
                               "NCCL's call ranges, or for a group of several collectives or "
                               "communicators"
                             : "have no collective payloads in their profiles (NCCL before "
                               "2.19, NCCL_NVTX_DISABLE=1, a library other than NCCL, or a "
                               "runtime that did not read them): times without bytes"];
        if (Where.empty() || Where.back() != R.Label)
          Where.push_back(R.Label);
      }
      ByComm[C->Comm][I].push_back(*C);
    }
  }
}

/// n per communicator; S and the factors with it.
void Builder::sizes() {
  for (auto &[Key, Row] : Rows) {
    Row.Ranks = ByComm[Row.Comm].size();
    Row.BusFactor = busFactor(Row.Collective, Row.Ranks);
    Row.SizeBytes = Row.PayloadBytes * sizeFactor(Row.Collective, Row.Ranks);
  }
}

void Builder::splitComm(const std::string &Comm, std::map<size_t, std::vector<Call>> &PerRow) {
  std::string Name = Comm.empty() ? "the communication kernels without a communicator" : "communicator " + Comm;
  size_t M = SIZE_MAX, Most = 0;
  for (auto &[R, Calls] : PerRow) {
    for (const Call &C : Calls)
      if (!C.Timed) {
        Out.Notes.push_back(Name + ": a kernel without a start time on " + V.Rows[R].Label +
                            "; no skew/transfer split");
        return;
      }
    std::stable_sort(Calls.begin(), Calls.end(),
                     [](const Call &A, const Call &B) { return A.Start < B.Start; });
    M = std::min(M, Calls.size());
    Most = std::max(Most, Calls.size());
  }
  if (M != Most)
    Out.Notes.push_back(Name + ": the ranks recorded " + std::to_string(M) + " to " +
                        std::to_string(Most) + " calls; the first " + std::to_string(M) +
                        " are matched");
  uint64_t Early = 0;
  for (size_t K = 0; K < M; ++K) {
    double Last = 0;
    std::string Coll = PerRow.begin()->second[K].Collective;
    for (auto &[R, Calls] : PerRow) {
      Last = std::max(Last, Calls[K].Start);
      if (Calls[K].Collective != Coll) {
        Out.Notes.push_back(Name + ": call " + std::to_string(K + 1) + " is " + Coll + " on " +
                            V.Rows[PerRow.begin()->first].Label + " but " + Calls[K].Collective +
                            " on " + V.Rows[R].Label + "; matching stops there");
        return;
      }
    }
    for (auto &[R, Calls] : PerRow) {
      const Call &C = Calls[K];
      CollectiveRow &Row = row(C.Collective, Comm, R);
      double Skew = Last - C.Start, Transfer = C.End - Last;
      if (Transfer < 0) { // done before the last rank arrived: it did not wait for it
        ++Early;
        Skew = 0;
        Transfer = C.Ns;
      }
      ++Row.Matched;
      Row.SkewNs += Skew;
      Row.TransferNs += Transfer;
      Row.MatchedTimeNs += C.Ns;
      if (C.HasBytes && Transfer > 0) {
        Row.MatchedSizeBytes += C.Bytes * sizeFactor(C.Collective, PerRow.size());
        Row.MatchedTransferWithBytesNs += Transfer;
      }
    }
  }
  if (Early)
    Out.Notes.push_back(Name + ": " + std::to_string(Early) +
                        " kernel(s) ended before the last rank's kernel of their call started "
                        "(a Broadcast root, or a sender whose data fit in its peers' buffers, "
                        "does not wait for them): their time counts as transfer, with no skew");
}

void Builder::split() {
  Hosts.erase("");
  if (Hosts.size() > 1) {
    std::string List;
    for (const std::string &H : Hosts)
      List += (List.empty() ? "" : ", ") + H;
    Out.Notes.push_back("ranks on several hosts (" + List +
                        "): CUPTI's timestamps share a clock only within one host, so there is "
                        "no skew/transfer split");
    return;
  }
  for (auto &[Comm, PerRow] : ByComm)
    if (PerRow.size() >= 2) {
      Out.Split = true;
      splitComm(Comm, PerRow);
    }
}

} // namespace

CollectiveView buildCollectives(const RankView &V) {
  Builder B{V, {}, {}, {}, {}, {}, 0};
  B.read();
  B.sizes();
  B.split();
  for (auto &[Key, Row] : B.Rows)
    B.Out.Rows.push_back(std::move(Row));
  std::stable_sort(B.Out.Rows.begin(), B.Out.Rows.end(),
                   [](const CollectiveRow &A, const CollectiveRow &C) {
                     if (A.Collective != C.Collective || A.Comm != C.Comm)
                       return std::tie(A.Collective, A.Comm) < std::tie(C.Collective, C.Comm);
                     return A.RowIndex < C.RowIndex;
                   });
  for (const auto &[Why, Where] : B.BytesMissing) {
    std::string List;
    for (const std::string &W : Where)
      List += (List.empty() ? "" : ", ") + W;
    B.Out.Notes.push_back(List + " " + Why);
  }
  if (B.Unrecorded)
    B.Out.Notes.push_back(std::to_string(B.Unrecorded) +
                          " communication launch(es) have no launch record (--launch-limit): "
                          "the collectives table is over the recorded ones, and the matching "
                          "by order may pair different calls");
  return B.Out;
}

namespace {

std::string ms(double Ns) { return fmtFixed(Ns / 1e6, 3); }
std::string gbs(double V) {
  return V >= 0.01 ? fmtFixed(V, 2) : V > 0 ? fmtSignificant(V, 2) : "-";
}

} // namespace

void printCollectives(std::ostream &OS, const CollectiveView &C) {
  if (C.Rows.empty())
    return;
  std::vector<std::vector<std::string>> T = {
      {"collective", "communicator", "rank", "n", "calls", "size/call", "kernel ms", "algBw GB/s",
       "busBw GB/s", "skew ms", "transfer ms", "busBw@transfer GB/s"}};
  for (const CollectiveRow &R : C.Rows)
    T.push_back({R.Collective, R.Comm.empty() ? "?" : R.Comm, R.Row, std::to_string(R.Ranks),
                 std::to_string(R.Calls),
                 R.CallsWithBytes ? fmtSi(R.SizeBytes / double(R.CallsWithBytes), SiStyle::Counts) + "B"
                                  : "-",
                 ms(R.TimeNs), gbs(R.algBw()), gbs(R.busBw()), R.Matched ? ms(R.SkewNs) : "-",
                 R.Matched ? ms(R.TransferNs) : "-", gbs(R.busBwTransfer())});
  OS << "collectives per rank:\n";
  printTextTable(OS, T, {0, 1, 2});
  OS << "size: NCCL's message size (AllGather, ReduceScatter, AlltoAll, Gather, Scatter: n x the "
        "per-rank part); algBw = size / kernel time; busBw = algBw x 2(n-1)/n (AllReduce), "
        "(n-1)/n (those five), 1 (Broadcast, Reduce, Send, Recv); skew: waiting for the last "
        "rank's kernel to start, transfer: from then to the end (calls matched by order per "
        "communicator; starts are CUPTI's GPU timestamps, one clock per host)\n";
  for (const std::string &N : C.Notes)
    OS << "note: " << N << "\n";
}

json collectivesJson(const CollectiveView &C) {
  json Rows = json::array();
  for (const CollectiveRow &R : C.Rows)
    Rows.push_back({{"collective", R.Collective},
                    {"communicator", R.Comm},
                    {"row", R.Row},
                    {"ranks", R.Ranks},
                    {"calls", R.Calls},
                    {"calls_with_bytes", R.CallsWithBytes},
                    {"payload_bytes", R.PayloadBytes},
                    {"size_bytes", R.SizeBytes},
                    {"kernel_ns", R.TimeNs},
                    {"kernel_with_bytes_ns", R.TimeWithBytesNs},
                    {"alg_bw_gbs", R.algBw()},
                    {"bus_factor", R.BusFactor},
                    {"bus_bw_gbs", R.busBw()},
                    {"matched", R.Matched},
                    {"skew_ns", R.SkewNs},
                    {"transfer_ns", R.TransferNs},
                    {"bus_bw_transfer_gbs", R.busBwTransfer()}});
  return {{"rows", Rows}, {"split", C.Split}, {"notes", C.Notes}};
}

} // namespace report
} // namespace hroof
