//===- NvtxRanges.cpp - the NVTX ranges open on each host thread ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "nvtx/NvtxRanges.h"

#include "hroof/RangePath.h"

namespace hroof {
namespace rt {

namespace {
/// Correlation ids of communication launches whose collective waits for the
/// record kept at most (a record that never comes must not grow memory).
constexpr size_t MaxKeptCollectives = 1 << 16;
/// Grouped calls kept per thread until a launch takes them.
constexpr size_t MaxGrouped = 4096;
} // namespace

void NvtxRanges::domainCreated(uint64_t Domain, const std::string &Name) {
  std::lock_guard<std::mutex> L(M);
  DomainNames[Domain] = Name;
  if (Name == "NCCL")
    LeafDomains[Domain] = true;
}

uint64_t NvtxRanges::registerSchema(uint64_t Domain, const nvtxPayloadSchemaAttr_t *A) {
  std::lock_guard<std::mutex> L(M);
  return Schemas.registerSchema(Domain, A);
}

uint64_t NvtxRanges::registerEnum(uint64_t Domain, const nvtxPayloadEnumAttr_t *A) {
  std::lock_guard<std::mutex> L(M);
  return Schemas.registerEnum(Domain, A);
}

void NvtxRanges::stringRegistered(uint64_t Domain, uint64_t Handle, const std::string &Text) {
  std::lock_guard<std::mutex> L(M);
  Strings[{Domain, Handle}] = Text;
}

std::string NvtxRanges::textLocked(uint64_t Domain, const NvtxMessage &Msg) {
  std::string Text = Msg.Text;
  if (Msg.Registered) {
    auto It = Strings.find({Domain, Msg.Handle});
    if (It != Strings.end()) {
      Text = It->second;
    } else {
      ++S.UnknownStrings;
      Text = "<unregistered string>";
    }
  }
  if (Text.empty()) // an empty element would vanish from the path
    Text = "(empty)";
  return Text;
}

std::string NvtxRanges::elementLocked(uint64_t Domain, const NvtxMessage &Msg) {
  std::string Text = textLocked(Domain, Msg);
  std::string DomainName;
  if (Domain) {
    auto It = DomainNames.find(Domain);
    DomainName = It != DomainNames.end() ? It->second : "<unnamed domain>";
  }
  return rangeElement(DomainName, Text);
}

void NvtxRanges::push(uint64_t Thread, uint64_t Domain, const NvtxMessage &Msg) {
  std::lock_guard<std::mutex> L(M);
  pushLocked(Thread, Domain, Msg, std::nullopt);
}

void NvtxRanges::pushPayload(uint64_t Thread, uint64_t Domain, const NvtxMessage &Msg,
                             const nvtxPayloadData_t *Data, size_t Count) {
  std::lock_guard<std::mutex> L(M);
  std::optional<CollectiveCall> C = Schemas.decode(Domain, Data, Count);
  if (C) {
    ++S.Collectives;
    C->Call = textLocked(Domain, Msg);
  }
  pushLocked(Thread, Domain, Msg, std::move(C));
}

void NvtxRanges::pushLocked(uint64_t Thread, uint64_t Domain, const NvtxMessage &Msg,
                            std::optional<CollectiveCall> C) {
  Active.store(true, std::memory_order_relaxed);
  ++S.Pushes;
  ThreadRanges &T = Threads[Thread];
  if (T.Stack.size() >= MaxDepth) {
    ++T.Overflow;
    ++S.DroppedTooDeep;
    return;
  }
  T.Stack.push_back({Domain, elementLocked(Domain, Msg), NextSeq++, std::move(C)});
  T.Dirty = true;
}

void NvtxRanges::pop(uint64_t Thread, uint64_t Domain) {
  std::lock_guard<std::mutex> L(M);
  ThreadRanges &T = Threads[Thread];
  if (T.Overflow) {
    --T.Overflow; // the innermost pushes were the dropped ones
    return;
  }
  for (size_t I = T.Stack.size(); I-- > 0;)
    if (T.Stack[I].Domain == Domain) {
      Open &O = T.Stack[I];
      if (O.Collective) { // a grouped call: its kernel launches in the group's end
        if (T.Grouped.size() < MaxGrouped)
          T.Grouped.push_back(std::move(*O.Collective));
      } else if (!T.Grouped.empty() && leafDomain(Domain)) {
        T.Grouped.clear(); // the library's next call (ncclGroupEnd) has launched, or none will
      }
      T.Stack.erase(T.Stack.begin() + long(I));
      T.Dirty = true;
      return;
    }
  ++S.UnbalancedPops;
}

void NvtxRanges::start(uint64_t Id, uint64_t Domain, const NvtxMessage &Msg) {
  std::lock_guard<std::mutex> L(M);
  Active.store(true, std::memory_order_relaxed);
  ++S.Starts;
  if (StartEnd.size() >= MaxStartEnd) {
    ++S.DroppedStartEnd;
    return;
  }
  auto Old = StartOrder.find(Id);
  if (Old != StartOrder.end()) // an id reused before its end: the new range wins
    StartEnd.erase(Old->second);
  uint64_t Key = NextSeq++;
  StartEnd[Key] = {Domain, elementLocked(Domain, Msg), Key};
  StartOrder[Id] = Key;
  ++StartEndGeneration;
}

void NvtxRanges::end(uint64_t Id) {
  std::lock_guard<std::mutex> L(M);
  auto It = StartOrder.find(Id);
  if (It == StartOrder.end()) {
    ++S.UnknownEnds;
    return;
  }
  StartEnd.erase(It->second);
  StartOrder.erase(It);
  ++StartEndGeneration;
}

std::string NvtxRanges::path(uint64_t Thread) {
  std::lock_guard<std::mutex> L(M);
  ThreadRanges &T = Threads[Thread];
  if (!T.Dirty && T.CachedGeneration == StartEndGeneration)
    return T.Cached;
  std::string P;
  auto Add = [&](const std::string &E) {
    if (!P.empty())
      P += RangePathSeparator;
    P += E;
  };
  for (const auto &[Key, O] : StartEnd)
    Add(O.Element);
  // A thread's range older than the newest open start/end range spans that
  // range's start: inside it in the path, it would claim every later step.
  uint64_t Newest = StartEnd.empty() ? 0 : StartEnd.rbegin()->first;
  for (size_t I = 0; I < T.Stack.size(); ++I) {
    const Open &O = T.Stack[I];
    if (!StartEnd.empty() && O.Seq < Newest)
      continue;
    bool Spans = false; // an NCCL range with another domain's range opened inside
    for (size_t J = I + 1; J < T.Stack.size() && leafDomain(O.Domain) && !Spans; ++J)
      Spans = T.Stack[J].Domain != O.Domain;
    if (!Spans)
      Add(O.Element);
  }
  T.Cached = P;
  T.CachedGeneration = StartEndGeneration;
  T.Dirty = false;
  return P;
}

std::optional<CollectiveCall> NvtxRanges::groupedLocked(ThreadRanges &T) {
  if (T.Grouped.empty())
    return std::nullopt;
  CollectiveCall Sum = T.Grouped.front();
  bool Same = true;
  for (size_t I = 1; I < T.Grouped.size() && Same; ++I) {
    const CollectiveCall &C = T.Grouped[I];
    Same = C.Call == Sum.Call && C.HasComm == Sum.HasComm && C.Comm == Sum.Comm && C.Op == Sum.Op;
    Sum.Bytes += C.Bytes;
    Sum.Calls += C.Calls;
  }
  T.Grouped.clear();
  if (!Same) { // several collectives or communicators in one launch: bytes not shared out
    ++S.MixedGroups;
    return std::nullopt;
  }
  return Sum;
}

void NvtxRanges::communicationLaunch(uint64_t Thread, uint32_t Correlation) {
  std::lock_guard<std::mutex> L(M);
  auto TI = Threads.find(Thread);
  if (TI == Threads.end())
    return;
  ThreadRanges &T = TI->second;
  std::optional<CollectiveCall> C;
  for (size_t I = T.Stack.size(); I-- > 0 && !C;)
    if (T.Stack[I].Collective) {
      C = std::move(T.Stack[I].Collective);
      T.Stack[I].Collective.reset(); // one launch per call: a second kernel gets none
      break;
    }
  if (!C)
    C = groupedLocked(T);
  if (!C)
    return;
  if (ByCorrelation.size() >= MaxKeptCollectives)
    ByCorrelation.clear();
  ByCorrelation[Correlation] = std::move(*C);
  KeptCollectives.store(ByCorrelation.size(), std::memory_order_relaxed);
}

std::optional<CollectiveCall> NvtxRanges::takeCollective(uint32_t Correlation) {
  if (!KeptCollectives.load(std::memory_order_relaxed))
    return std::nullopt;
  std::lock_guard<std::mutex> L(M);
  auto It = ByCorrelation.find(Correlation);
  if (It == ByCorrelation.end())
    return std::nullopt;
  CollectiveCall C = std::move(It->second);
  ByCorrelation.erase(It);
  KeptCollectives.store(ByCorrelation.size(), std::memory_order_relaxed);
  return C;
}

NvtxRanges::Stats NvtxRanges::stats() const {
  std::lock_guard<std::mutex> L(M);
  return S;
}

} // namespace rt
} // namespace hroof
