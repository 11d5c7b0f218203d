//===- NvtxRanges.h - the NVTX ranges open on each host thread ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Follows NVTX ranges as CUPTI's NVTX callbacks report them (Nvtx.cpp is the
// thin CUPTI glue) and answers one question at each kernel launch: which
// ranges are open for the launching thread, as a path (hroof/RangePath.h).
//
//  - push/pop ranges belong to one thread; each domain has its own stack
//    (NVTX's rule), so a pop closes the innermost open range of its domain
//    on that thread, wherever it sits among other domains' ranges;
//  - start/end ranges belong to the process and may end on another thread:
//    they are outermost in every thread's path, in the order they started;
//  - a push/pop range opened before the newest open start/end range began
//    spans that range's start (NCCL's init range, pushed before a step and
//    popped inside it or later): it is left out of paths while that range
//    is open, so it never appears inside a later range;
//  - NCCL's ranges wrap its API calls, which never call the application:
//    an NCCL range with a newer open range of another domain on its thread
//    does not contain it (the init range again, with push/pop steps) and is
//    left out of paths while that range is open;
//  - ranges whose NVTX payload carries a collective (NvtxPayload.h) hand it
//    to the communication kernel launched inside them, or, for calls of a
//    group (ncclGroupStart/End: the kernels launch in ncclGroupEnd, after
//    the calls' ranges closed), to the next one launched on that thread;
//  - messages may be registered strings (nvtxDomainRegisterString), resolved
//    here to their text; an empty or NULL message is "(empty)";
//  - a pop with nothing open, an end of an unknown id, a message naming an
//    unknown registered string: tolerated and counted (stats()), never fatal.
//
// No CUPTI, no CUDA: the unit tests drive it with a fake event stream.
// Thread-safe (one lock; a launch's path is cached per thread until that
// thread's or the process's ranges change).
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_NVTXRANGES_H
#define HROOF_RUNTIME_NVTXRANGES_H

#include "nvtx/NvtxPayload.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace hroof {
namespace rt {

/// A range's message as NVTX passes it: text, or a registered string handle.
struct NvtxMessage {
  std::string Text;
  bool Registered = false;
  uint64_t Handle = 0; ///< nvtxStringHandle_t when Registered
  static NvtxMessage text(std::string T) { return {std::move(T), false, 0}; }
  static NvtxMessage registered(uint64_t H) { return {"", true, H}; }
};

class NvtxRanges {
public:
  /// Most ranges kept open per thread, and start/end ranges per process: an
  /// application that pushes without popping must not grow memory forever.
  static constexpr size_t MaxDepth = 64, MaxStartEnd = 4096;

  struct Stats {
    uint64_t Pushes = 0, Starts = 0;
    uint64_t UnbalancedPops = 0;  ///< pop with no open range of its domain
    uint64_t UnknownEnds = 0;     ///< end of an id never started (or ended twice)
    uint64_t UnknownStrings = 0;  ///< registered-string handle never registered
    uint64_t DroppedTooDeep = 0;  ///< pushes past MaxDepth (their pops are absorbed)
    uint64_t DroppedStartEnd = 0; ///< starts past MaxStartEnd
    uint64_t Collectives = 0;     ///< ranges with a collective payload
    uint64_t MixedGroups = 0;     ///< grouped calls of several collectives or communicators: not attached
  };

  /// Domain 0 is NVTX's default domain (no name in the path).
  void domainCreated(uint64_t Domain, const std::string &Name);
  void stringRegistered(uint64_t Domain, uint64_t Handle, const std::string &Text);

  void push(uint64_t Thread, uint64_t Domain, const NvtxMessage &M);
  /// A push whose event carries \p Count NVTX payloads (NVTX_PAYLOAD_TYPE_EXT,
  /// nvtxRangePushPayload): a collective's fields are decoded and kept with
  /// the range.
  void pushPayload(uint64_t Thread, uint64_t Domain, const NvtxMessage &M,
                   const nvtxPayloadData_t *Data, size_t Count);
  void pop(uint64_t Thread, uint64_t Domain);
  /// nvtxPayloadSchemaRegister / nvtxPayloadEnumRegister: their return values.
  uint64_t registerSchema(uint64_t Domain, const nvtxPayloadSchemaAttr_t *A);
  uint64_t registerEnum(uint64_t Domain, const nvtxPayloadEnumAttr_t *A);

  /// A communication kernel launched from \p Thread (correlation id
  /// \p Correlation): the collective of the innermost open range that has one
  /// and gave it to no launch yet, else the thread's grouped calls closed
  /// since its last such launch (one collective and communicator: their
  /// bytes summed), is kept for the launch's record.
  void communicationLaunch(uint64_t Thread, uint32_t Correlation);
  /// The collective kept for a launch's record, once (nullopt: none).
  std::optional<CollectiveCall> takeCollective(uint32_t Correlation);
  void start(uint64_t Id, uint64_t Domain, const NvtxMessage &M);
  void end(uint64_t Id);

  /// The ranges open for a launch from \p Thread: start/end ranges first,
  /// then the thread's push/pop ranges, outermost first; "" outside all.
  std::string path(uint64_t Thread);

  /// True once any range was opened: until then launches need no path.
  bool active() const { return Active.load(std::memory_order_relaxed); }
  Stats stats() const;

private:
  struct Open {
    uint64_t Domain;
    std::string Element; ///< rangeElement(domain name, message)
    uint64_t Seq = 0;    ///< when it opened, among pushes and starts
    std::optional<CollectiveCall> Collective; ///< from its payload, until a launch takes it
  };
  struct ThreadRanges {
    std::vector<Open> Stack;
    uint64_t Overflow = 0; ///< pushes dropped past MaxDepth, not yet popped
    std::string Cached;
    uint64_t CachedGeneration = UINT64_MAX; ///< StartEndGeneration of Cached
    bool Dirty = true;
    std::vector<CollectiveCall> Grouped; ///< calls closed without a launch inside
  };

  std::string elementLocked(uint64_t Domain, const NvtxMessage &M);
  std::string textLocked(uint64_t Domain, const NvtxMessage &M);
  void pushLocked(uint64_t Thread, uint64_t Domain, const NvtxMessage &M,
                  std::optional<CollectiveCall> C);
  std::optional<CollectiveCall> groupedLocked(ThreadRanges &T);
  bool leafDomain(uint64_t Domain) const { return LeafDomains.count(Domain) != 0; }

  mutable std::mutex M;
  std::atomic<bool> Active{false};
  std::unordered_map<uint64_t, std::string> DomainNames;
  std::map<std::pair<uint64_t, uint64_t>, std::string> Strings; ///< (domain, handle)
  std::unordered_map<uint64_t, ThreadRanges> Threads;
  std::map<uint64_t, Open> StartEnd;                 ///< by Seq (start order)
  std::unordered_map<uint64_t, uint64_t> StartOrder; ///< range id -> key in StartEnd
  uint64_t NextSeq = 0, StartEndGeneration = 0;
  Stats S;
  PayloadSchemas Schemas;
  std::unordered_map<uint64_t, bool> LeafDomains; ///< NCCL's domain handles
  std::unordered_map<uint32_t, CollectiveCall> ByCorrelation;
  std::atomic<size_t> KeptCollectives{0}; ///< ByCorrelation's size, read without the lock
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_NVTXRANGES_H
