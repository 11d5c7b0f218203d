//===- ApplicationReplay.cpp - counters gathered across launches of a shape ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one-pass grouping of a metric set and the per-shape records of
// HROOF_REPLAY=application (ApplicationReplay.h).
//===----------------------------------------------------------------------===//
#include "replay/ApplicationReplay.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace hroof {
namespace rt {

namespace {

const char *const TimeMetric = "gpu__time_duration.sum";
const char *const L2Metric = "lts__t_bytes.sum";

bool endsWith(const std::string &S, const std::string &Suffix) {
  return S.size() >= Suffix.size() &&
         S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

} // namespace

bool signatureMetric(const std::string &Metric) {
  return Metric == TimeMetric || Metric == L2Metric;
}

bool sassMetric(const std::string &Metric) { return Metric.rfind("sm__sass_", 0) == 0; }

bool timeDependentMetric(const std::string &Metric) {
  return Metric.rfind("gpu__time_duration", 0) == 0 || endsWith(Metric, ".per_second");
}

GroupPlan planOnePassGroups(const std::vector<std::string> &Metrics, const PassOracle &Passes,
                            const std::vector<std::vector<std::string>> &Together) {
  GroupPlan P;
  std::vector<std::string> Order;
  for (const std::string &M : Metrics)
    if (timeDependentMetric(M))
      Order.push_back(M);
  for (const std::string &M : Metrics)
    if (!timeDependentMetric(M))
      Order.push_back(M);
  // The metrics placed with M: its bundle's members in Metrics (M alone if
  // none, or if the bundle alone needs more than one pass).
  std::set<std::string> Done;
  auto UnitOf = [&](const std::string &M) {
    for (const auto &B : Together) {
      if (std::find(B.begin(), B.end(), M) == B.end())
        continue;
      std::vector<std::string> U;
      for (const std::string &X : B)
        if (std::find(Metrics.begin(), Metrics.end(), X) != Metrics.end())
          U.push_back(X);
      if (Passes(U) == 1)
        return U;
    }
    return std::vector<std::string>{M};
  };
  std::vector<bool> Closed; // a multi-pass metric's own group takes no other
  for (const std::string &M : Order) {
    if (Done.count(M))
      continue;
    std::vector<std::string> Unit = UnitOf(M);
    Done.insert(Unit.begin(), Unit.end());
    bool Placed = false;
    for (size_t G = 0; G < P.Groups.size() && !Placed; ++G) {
      if (Closed[G] || sassMetric(P.Groups[G][0]) != sassMetric(M))
        continue;
      std::vector<std::string> Trial = P.Groups[G];
      Trial.insert(Trial.end(), Unit.begin(), Unit.end());
      if (Passes(Trial) == 1) {
        P.Groups[G] = std::move(Trial);
        Placed = true;
      }
    }
    if (Placed)
      continue;
    if (Unit.size() > 1) { // a one-pass bundle starts a group of its own
      P.Groups.push_back(Unit);
      Closed.push_back(false);
      continue;
    }
    bool One = Passes({M}) == 1;
    P.Groups.push_back({M});
    Closed.push_back(!One);
    if (!One)
      P.MultiPass.push_back(M);
  }
  // The signatures in every group they fit without a pass more: the
  // duration (a replay launch inside the range gets no activity record in
  // kernel replay, its record keeps a duration) and the L2 bytes. With them
  // each group's launch is checked against the recorded one (sameWork).
  for (const char *Sig : {TimeMetric, L2Metric}) {
    if (std::find(Metrics.begin(), Metrics.end(), Sig) == Metrics.end())
      continue;
    for (size_t G = 0; G < P.Groups.size(); ++G) {
      if (sassMetric(P.Groups[G][0]) ||
          std::find(P.Groups[G].begin(), P.Groups[G].end(), Sig) != P.Groups[G].end())
        continue;
      std::vector<std::string> Trial = P.Groups[G];
      Trial.push_back(Sig);
      size_t Own = Closed[G] ? Passes({P.Groups[G][0]}) : 1;
      if (Passes(Trial) <= Own)
        P.Groups[G] = std::move(Trial);
    }
  }
  return P;
}

std::vector<size_t> groupsFor(const std::vector<std::vector<std::string>> &Groups,
                              const std::vector<std::string> &Need) {
  // A metric's home is the first group that holds it: the signatures
  // (duration, L2 bytes) are in many groups and make none of them needed.
  std::vector<bool> Needed(Groups.size(), false);
  if (!Groups.empty())
    Needed[0] = true;
  for (const std::string &M : Need)
    for (size_t G = 0; G < Groups.size(); ++G)
      if (std::find(Groups[G].begin(), Groups[G].end(), M) != Groups[G].end()) {
        Needed[G] = true;
        break;
      }
  std::vector<size_t> R;
  for (size_t G = 0; G < Groups.size(); ++G)
    if (Needed[G])
      R.push_back(G);
  return R;
}

bool sameWork(double RecordedNs, double Ns) {
  return std::fabs(Ns - RecordedNs) <= 0.25 * std::max(Ns, RecordedNs) + 1500.0;
}

bool sameTraffic(double RecordedBytes, double Bytes) {
  return std::fabs(Bytes - RecordedBytes) <= 0.25 * std::max(Bytes, RecordedBytes) + 65536.0;
}

std::string describeGroup(size_t Group, size_t Groups, const std::vector<std::string> &Metrics) {
  std::string S = "group " + std::to_string(Group + 1) + " of " + std::to_string(Groups) + ":";
  size_t Shown = std::min<size_t>(Metrics.size(), 3);
  for (size_t I = 0; I < Shown; ++I)
    S += std::string(I ? ", " : " ") + Metrics[I];
  if (Metrics.size() > Shown)
    S += " (+" + std::to_string(Metrics.size() - Shown) + " more)";
  return S;
}

std::optional<AppTicket> ApplicationReplay::findSlot(const std::string &Shape,
                                                     const std::vector<std::string> *Only) {
  auto It = ByShape.find(Shape);
  if (It == ByShape.end())
    return std::nullopt;
  for (uint32_t Corr : It->second) {
    Record &Rec = Records.at(Corr);
    // Group 0 is the recorded launch's own, missing only after a retry.
    for (size_t G = 0; G < Rec.State.size(); ++G)
      if (Rec.State[G] == GroupState::Missing && (!Only || Rec.Metrics[G] == *Only) &&
          !waitsForPipes(Rec, G))
        return AppTicket{Corr, G, Rec.State.size(), false, Rec.Mask};
  }
  return std::nullopt;
}

std::optional<AppTicket> ApplicationReplay::take(std::optional<AppTicket> T) {
  if (T)
    Records.at(T->Record).State[T->Group] = GroupState::UnderWay;
  return T;
}

std::optional<AppTicket> ApplicationReplay::replaySlot(const std::string &Shape,
                                                       const std::vector<std::string> *Prefer) {
  std::lock_guard<std::mutex> L(M);
  std::optional<AppTicket> T = Prefer ? findSlot(Shape, Prefer) : std::nullopt;
  return take(T ? T : findSlot(Shape, nullptr));
}

AppRole ApplicationReplay::role(const std::string &Shape, bool InRange,
                                const std::function<bool()> &Take, AppTicket &T,
                                const std::vector<std::string> *Prefer) {
  std::optional<AppTicket> Slot;
  {
    std::lock_guard<std::mutex> L(M);
    if (Prefer && (Slot = findSlot(Shape, Prefer))) {
      Waited = 0;
    } else if ((Slot = findSlot(Shape, nullptr)) && Prefer) {
      // Only groups other than the object's are missing here: this launch
      // would need a fresh object (a costly first Start: ReplayPolicy.h). It waits (no
      // counters) until more launches than there are open records have gone
      // by without collecting the object's group: in a loop, every open
      // shape has had its turn on the object's group by then.
      size_t Open = 0;
      for (const auto &[Corr, Rec] : Records)
        Open += std::count(Rec.State.begin(), Rec.State.end(), GroupState::Missing) > 0;
      if (++Waited <= Open)
        return AppRole::None;
      Waited = 0;
    }
    take(Slot);
  }
  if (Slot) {
    T = *Slot;
    return InRange ? AppRole::Replay : AppRole::ReplayOnly;
  }
  return InRange && Take() ? AppRole::Record : AppRole::None;
}

bool ApplicationReplay::wantsReplay(const std::string &Shape) {
  std::lock_guard<std::mutex> L(M);
  auto It = ByShape.find(Shape);
  if (It == ByShape.end())
    return false;
  for (uint32_t Corr : It->second) {
    const Record &Rec = Records.at(Corr);
    for (size_t G = 0; G < Rec.State.size(); ++G)
      if (Rec.State[G] == GroupState::Missing && !waitsForPipes(Rec, G))
        return true;
  }
  return false;
}

namespace {

/// A group whose metrics are tensor types and signatures only.
bool typeOnlyGroup(const std::vector<std::string> &Metrics) {
  const std::vector<std::string> &Types = tensorTypeMetrics();
  bool AnyType = false;
  for (const std::string &M : Metrics) {
    bool Type = std::find(Types.begin(), Types.end(), M) != Types.end();
    if (!Type && !signatureMetric(M))
      return false;
    AnyType |= Type;
  }
  return AnyType;
}

/// Whether \p Metric tells the tensor types idle (a pipe, or HFMA2.MMA).
bool pipeMetric(const std::string &Metric) {
  const std::vector<std::string> &Pipes = tensorPipeMetrics();
  return Metric == hfma2PipeMetric() ||
         std::find(Pipes.begin(), Pipes.end(), Metric) != Pipes.end();
}

} // namespace

/// The pipes' values of \p Rec, once group 0 (the recorded launch, which
/// dropOtherWork checks every other group against) and every group holding
/// a pipe metric are collected; null before. A value CUPTI left NaN, or a
/// pipe the chip lacks, is simply absent: typesIdleByPipes then infers none
/// of the types that pipe may issue, and their groups are collected.
std::optional<std::map<std::string, double>> ApplicationReplay::pipeValues(const Record &Rec) const {
  if (Rec.State.empty() || Rec.State[0] != GroupState::Done)
    return std::nullopt;
  std::map<std::string, double> V;
  for (size_t G = 0; G < Rec.State.size(); ++G) {
    bool Holds = std::any_of(Rec.Metrics[G].begin(), Rec.Metrics[G].end(), pipeMetric);
    if (Holds && Rec.State[G] != GroupState::Done)
      return std::nullopt;
    if (Holds)
      for (const auto &[Name, X] : Rec.Values[G])
        if (pipeMetric(Name))
          V.emplace(Name, X);
  }
  return V;
}

bool ApplicationReplay::waitsForPipes(const Record &Rec, size_t G) const {
  return Rec.Types.Learning && !Rec.PipesIn && typeOnlyGroup(Rec.Metrics[G]);
}

void ApplicationReplay::inferIdleTypes(Record &Rec) {
  if (!Rec.Types.Learning || Rec.PipesIn)
    return;
  std::optional<std::map<std::string, double>> Pipes = pipeValues(Rec);
  if (!Pipes)
    return;
  Rec.PipesIn = true;
  // Only the types this record collects (a shared group may hold others).
  for (const std::string &T : typesIdleByPipes(*Pipes))
    if ((Rec.Wanted.empty() || std::binary_search(Rec.Wanted.begin(), Rec.Wanted.end(), T)) &&
        std::any_of(Rec.Metrics.begin(), Rec.Metrics.end(), [&](const auto &G) {
          return std::find(G.begin(), G.end(), T) != G.end();
        }))
      Rec.IdleTypes.push_back(T);
  for (size_t G = 1; G < Rec.State.size(); ++G) {
    if (Rec.State[G] != GroupState::Missing || !typeOnlyGroup(Rec.Metrics[G]))
      continue;
    bool Known = std::all_of(Rec.Metrics[G].begin(), Rec.Metrics[G].end(), [&](const auto &M) {
      return signatureMetric(M) ||
             std::find(Rec.IdleTypes.begin(), Rec.IdleTypes.end(), M) != Rec.IdleTypes.end();
    });
    if (Known) {
      Rec.State[G] = GroupState::Done; // with no values: its types are the zeros above
      ++S.IdleTypeGroups;
    }
  }
}

AppTicket ApplicationReplay::startRecord(const std::string &Shape, uint32_t Corr, unsigned Mask,
                                         std::vector<std::vector<std::string>> Groups,
                                         AppTypes Types, std::vector<std::string> Wanted) {
  std::lock_guard<std::mutex> L(M);
  Record &Rec = Records[Corr];
  Rec.Shape = Shape;
  std::sort(Wanted.begin(), Wanted.end());
  Rec.Wanted = std::move(Wanted);
  Rec.Mask = Mask;
  Rec.State.assign(Groups.size(), GroupState::Missing);
  Rec.State[0] = GroupState::UnderWay;
  Rec.Values.assign(Groups.size(), {});
  Rec.Metrics = std::move(Groups);
  Rec.Types = std::move(Types);
  ByShape[Shape].push_back(Corr);
  ++S.Records;
  return AppTicket{Corr, 0, Rec.State.size(), true, Mask};
}

void ApplicationReplay::leaveOut(uint32_t Corr, const std::vector<std::string> &Metrics,
                                 const std::string &Why) {
  std::lock_guard<std::mutex> L(M);
  auto It = Records.find(Corr);
  if (It == Records.end() || Metrics.empty())
    return;
  Record &Rec = It->second;
  std::string Names;
  for (const std::string &N : Metrics) {
    Names += (Names.empty() ? "" : ", ") + N;
    Rec.LeftOut.push_back(N);
  }
  Rec.NotEvaluated += (Rec.NotEvaluated.empty() ? "" : ", ") + Names + " (" + Why + ")";
  Rec.Types.Partial = true;
}

std::optional<std::vector<std::string>> ApplicationReplay::idleTypes(uint32_t Corr) const {
  std::lock_guard<std::mutex> L(M);
  auto It = Records.find(Corr);
  if (It == Records.end() || !It->second.Types.Learning || !It->second.PipesIn)
    return std::nullopt;
  return It->second.IdleTypes;
}

void ApplicationReplay::failed(const AppTicket &T) {
  std::lock_guard<std::mutex> L(M);
  auto It = Records.find(T.Record);
  if (It == Records.end())
    return;
  if (!T.NewRecord) {
    It->second.State[T.Group] = GroupState::Missing; // a later launch collects it
    return;
  }
  auto &Open = ByShape[It->second.Shape];
  Open.erase(std::remove(Open.begin(), Open.end(), T.Record), Open.end());
  if (Open.empty())
    ByShape.erase(It->second.Shape);
  Records.erase(It);
  ++S.Failed;
}

void ApplicationReplay::retry(const AppTicket &T) {
  std::lock_guard<std::mutex> L(M);
  auto It = Records.find(T.Record);
  if (It != Records.end() && T.Group < It->second.State.size())
    It->second.State[T.Group] = GroupState::Missing;
}

nlohmann::json ApplicationReplay::assemble(Record &Rec, std::vector<std::string> *Missing) {
  // Lowest group first: a metric collected twice (the duration) keeps the
  // recorded launch's own value.
  std::map<std::string, double> Merged;
  for (size_t G = 0; G < Rec.Values.size(); ++G) {
    if (Rec.State[G] != GroupState::Done) {
      if (Missing)
        Missing->push_back(describeGroup(G, Rec.Values.size(), Rec.Metrics[G]));
      continue;
    }
    for (const auto &[Name, V] : Rec.Values[G])
      if (Rec.Wanted.empty() || std::binary_search(Rec.Wanted.begin(), Rec.Wanted.end(), Name))
        Merged.emplace(Name, V);
  }
  // Types the idle pipes show zero and no group measured: zero for the
  // learning (a metric not measured counts as used) and named as inferred.
  std::map<std::string, double> Checked = Merged;
  std::vector<std::string> IdleZero;
  for (const std::string &T : Rec.IdleTypes)
    if (Checked.emplace(T, 0.0).second)
      IdleZero.push_back(T);
  std::vector<std::string> InferredZero;
  std::string TypesProblem;
  // Types are learned or checked on complete counters only: a missing group
  // may be the one with the tensor types.
  bool Complete = !Missing || Missing->empty();
  if (Check && Complete)
    TypesProblem = Check(Rec.Types, Checked, InferredZero);
  InferredZero.insert(InferredZero.end(), IdleZero.begin(), IdleZero.end());
  // A metric left out was not measured: its type is not known to be zero.
  InferredZero.erase(std::remove_if(InferredZero.begin(), InferredZero.end(),
                                    [&](const std::string &T) {
                                      return std::find(Rec.LeftOut.begin(), Rec.LeftOut.end(),
                                                       T) != Rec.LeftOut.end();
                                    }),
                     InferredZero.end());
  nlohmann::json J = countersToJson(Merged, InferredZero);
  J["replay_groups"] = Rec.Values.size();
  if (!TypesProblem.empty())
    J["tensor_flops_problem"] = TypesProblem;
  if (!Rec.NotEvaluated.empty())
    J["not_evaluated"] = Rec.NotEvaluated;
  return J;
}

void ApplicationReplay::dropOtherWork(Record &Rec, uint32_t Corr) {
  // Group 0 is the recorded launch's; it may come after the others (a retry).
  auto Value = [&](size_t G, const char *Metric) {
    auto It = Rec.Values[G].find(Metric);
    return It == Rec.Values[G].end() || !(It->second >= 0) ? -1.0 : It->second;
  };
  if (Rec.State.empty() || Rec.State[0] != GroupState::Done)
    return;
  double Ns0 = Value(0, TimeMetric), L20 = Value(0, L2Metric);
  for (size_t G = 1; G < Rec.State.size(); ++G) {
    if (Rec.State[G] != GroupState::Done)
      continue;
    double Ns = Value(G, TimeMetric), L2 = Value(G, L2Metric);
    bool Other = (Ns0 > 0 && Ns > 0 && !sameWork(Ns0, Ns)) ||
                 (L20 >= 0 && L2 >= 0 && !sameTraffic(L20, L2));
    if (Other) {
      Rec.State[G] = GroupState::Missing; // a later launch collects it
      Rec.Values[G].clear();
      ++S.OtherWork;
      ++Rec.OtherWork;
    }
  }
  if (Rec.OtherWork > 2 * Rec.State.size() && !Rec.Abandoned) {
    Rec.Abandoned = true;
    auto &Open = ByShape[Rec.Shape];
    Open.erase(std::remove(Open.begin(), Open.end(), Corr), Open.end());
    if (Open.empty())
      ByShape.erase(Rec.Shape);
  }
}

void ApplicationReplay::writeAbandoned(Record &Rec, LaunchRecord &R) {
  R.Hw = assemble(Rec, &R.HwIncomplete);
  R.HwIncomplete.push_back("launches of this shape did other work than the recorded one "
                           "(their duration or L2 bytes differ): " +
                           std::to_string(Rec.OtherWork) + " groups given back");
  ++S.Incomplete;
}

std::optional<LaunchRecord> ApplicationReplay::deliver(const AppTicket &T,
                                                       std::map<std::string, double> Values,
                                                       const std::string &NotEvaluated) {
  std::lock_guard<std::mutex> L(M);
  auto It = Records.find(T.Record);
  if (It == Records.end())
    return std::nullopt; // its recorded launch failed: nothing to complete
  Record &Rec = It->second;
  Rec.Values[T.Group] = std::move(Values);
  Rec.State[T.Group] = GroupState::Done;
  dropOtherWork(Rec, T.Record);
  inferIdleTypes(Rec);
  if (Rec.Abandoned) {
    if (!Rec.Held)
      return std::nullopt; // hold() writes it
    LaunchRecord R = std::move(*Rec.Held);
    writeAbandoned(Rec, R);
    Records.erase(It);
    return R;
  }
  if (Rec.State[T.Group] != GroupState::Done)
    return std::nullopt;
  if (!NotEvaluated.empty())
    Rec.NotEvaluated += (Rec.NotEvaluated.empty() ? "" : ", ") + NotEvaluated;
  if (!T.NewRecord)
    ++S.ReplayLaunches;
  if (std::any_of(Rec.State.begin(), Rec.State.end(),
                  [](GroupState G) { return G != GroupState::Done; }))
    return std::nullopt;
  Rec.Counters = assemble(Rec, nullptr);
  ++S.Completed;
  S.NotEvaluated += !Rec.NotEvaluated.empty();
  auto &Open = ByShape[Rec.Shape];
  Open.erase(std::remove(Open.begin(), Open.end(), T.Record), Open.end());
  if (Open.empty())
    ByShape.erase(Rec.Shape);
  if (!Rec.Held)
    return std::nullopt; // written at its finalize (hold)
  LaunchRecord R = std::move(*Rec.Held);
  R.Hw = std::move(Rec.Counters);
  Records.erase(It);
  return R;
}

bool ApplicationReplay::hold(LaunchRecord &R) {
  std::lock_guard<std::mutex> L(M);
  auto It = Records.find(R.Correlation);
  if (It == Records.end())
    return false;
  if (It->second.Counters) {
    R.Hw = std::move(It->second.Counters);
    Records.erase(It);
    return false;
  }
  if (It->second.Abandoned) {
    writeAbandoned(It->second, R);
    Records.erase(It);
    return false;
  }
  It->second.Held = std::move(R);
  return true;
}

std::vector<LaunchRecord> ApplicationReplay::takeIncomplete() {
  std::lock_guard<std::mutex> L(M);
  std::vector<LaunchRecord> Out;
  for (auto &[Corr, Rec] : Records) {
    if (!Rec.Held)
      continue;
    LaunchRecord R = std::move(*Rec.Held);
    R.Hw = assemble(Rec, &R.HwIncomplete);
    ++S.Incomplete;
    Out.push_back(std::move(R));
  }
  Records.clear();
  ByShape.clear();
  return Out;
}

ApplicationReplay::Stats ApplicationReplay::stats() {
  std::lock_guard<std::mutex> L(M);
  return S;
}

} // namespace rt
} // namespace hroof
