//===- NvtxRanges.cpp - the NVTX ranges open on each host thread ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "nvtx/NvtxRanges.h"

#include "hroof/RangePath.h"

namespace hroof {
namespace rt {

void NvtxRanges::domainCreated(uint64_t Domain, const std::string &Name) {
  std::lock_guard<std::mutex> L(M);
  DomainNames[Domain] = Name;
}

void NvtxRanges::stringRegistered(uint64_t Domain, uint64_t Handle, const std::string &Text) {
  std::lock_guard<std::mutex> L(M);
  Strings[{Domain, Handle}] = Text;
}

std::string NvtxRanges::elementLocked(uint64_t Domain, const NvtxMessage &Msg) {
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
  std::string DomainName;
  if (Domain) {
    auto It = DomainNames.find(Domain);
    DomainName = It != DomainNames.end() ? It->second : "<unnamed domain>";
  }
  return rangeElement(DomainName, Text);
}

void NvtxRanges::push(uint64_t Thread, uint64_t Domain, const NvtxMessage &Msg) {
  std::lock_guard<std::mutex> L(M);
  Active.store(true, std::memory_order_relaxed);
  ++S.Pushes;
  ThreadRanges &T = Threads[Thread];
  if (T.Stack.size() >= MaxDepth) {
    ++T.Overflow;
    ++S.DroppedTooDeep;
    return;
  }
  T.Stack.push_back({Domain, elementLocked(Domain, Msg), NextSeq++});
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
  for (const Open &O : T.Stack)
    if (StartEnd.empty() || O.Seq > Newest)
      Add(O.Element);
  T.Cached = P;
  T.CachedGeneration = StartEndGeneration;
  T.Dirty = false;
  return P;
}

NvtxRanges::Stats NvtxRanges::stats() const {
  std::lock_guard<std::mutex> L(M);
  return S;
}

} // namespace rt
} // namespace hroof
