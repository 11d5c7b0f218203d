//===- StepTiming.cpp - time from the steps that were not profiled --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// See StepTiming.h.
//===----------------------------------------------------------------------===//
#include "StepTiming.h"

#include "hroof/Communication.h"

#include <algorithm>
#include <set>

namespace hroof {
namespace report {

/// Where the step part of \p Path ends: after the first element with a
/// digit in it ("train/step 11/forward" -> after "train/step 11"), else
/// after the first element.
static size_t stepEnd(const std::string &Path) {
  size_t Begin = 0;
  while (true) {
    size_t End = Path.find('/', Begin);
    size_t Stop = End == std::string::npos ? Path.size() : End;
    for (size_t I = Begin; I < Stop; ++I)
      if (Path[I] >= '0' && Path[I] <= '9')
        return Stop;
    if (End == std::string::npos)
      return Path.find('/') == std::string::npos ? Path.size() : Path.find('/');
    Begin = End + 1;
  }
}

std::string stepOf(const std::string &Path) { return Path.substr(0, stepEnd(Path)); }

std::string pathBelowStep(const std::string &Path) {
  size_t End = stepEnd(Path);
  return End >= Path.size() ? std::string() : Path.substr(End + 1);
}


static std::string label(const CommunicationKernel &C) {
  return C.Library + (C.Collective.empty() ? "" : " " + C.Collective);
}

std::string StepTiming::describe() const {
  if (Steps.empty())
    return "";
  std::string N = std::to_string(Steps.size()) + " unprofiled step" + (Steps.size() == 1 ? "" : "s");
  if (Steps.size() == 1)
    return Steps.front() + " (" + N + ")";
  return Steps.front() + " .. " + Steps.back() + " (" + N + ")";
}

namespace {

/// The timing entries of device \p Device (-1: every device).
std::vector<TimingEntry> entriesOn(const std::vector<TimingEntry> &All, int64_t Device) {
  std::vector<TimingEntry> Out;
  for (const TimingEntry &E : All)
    if (Device < 0 || E.Device == Device)
      Out.push_back(E);
  return Out;
}

} // namespace

bool StepTiming::useSteps(const std::vector<std::string> &Names) {
  std::set<std::string> Keep(Names.begin(), Names.end());
  std::vector<std::string> Used;
  for (const std::string &St : Steps)
    (Keep.count(St) ? Used : LeftOut).push_back(St);
  Steps = Used;
  ComputeNs = CommNs = 0;
  CommByLabel.clear();
  RangeNs.clear();
  Launches = 0;
  if (Steps.empty())
    return false;
  double N = double(Steps.size());
  for (const std::string &St : Steps) {
    const StepTotals &T = Clean.at(St);
    ComputeNs += T.ComputeNs / N;
    CommNs += T.CommNs / N;
    for (const auto &[L, Ns] : T.CommByLabel)
      CommByLabel[L] += Ns / N;
    for (const auto &[R, Ns] : T.RangeNs)
      RangeNs[R] += Ns / N;
    Launches += T.Launches;
  }
  return true;
}

StepTiming readStepTiming(const Profile &P, int64_t Device) {
  StepTiming S;
  if (!P.HasTiming)
    return S;
  S.Filter = P.TimingFilter;
  std::vector<TimingEntry> Es = entriesOn(P.Timing, Device);
  // Steps (stepOf); one with a replayed launch is left out whole.
  std::map<std::string, uint64_t> FirstStart;
  std::set<std::string> Replayed;
  std::set<std::string> Untimed; // steps whose launches have no time at all
  for (const TimingEntry &E : Es) {
    std::string Top = stepOf(E.Range);
    // first_start_ns 0: launches counted without time (a round with the
    // kernel activity off), replayed.
    auto [It, New] = FirstStart.emplace(Top, E.FirstStartNs);
    if (!New && E.FirstStartNs)
      It->second = It->second ? std::min(It->second, E.FirstStartNs) : E.FirstStartNs;
    if (E.Replayed)
      Replayed.insert(Top);
  }
  std::vector<std::pair<uint64_t, std::string>> Order;
  for (const auto &[Top, Start] : FirstStart) {
    if (Start)
      Order.push_back({Start, Top});
    else
      Untimed.insert(Top);
  }
  std::sort(Order.begin(), Order.end());
  // The step after a replayed one is left out too: the round's decoding
  // and the records it completes are written on the host there, and the
  // other ranks wait for that in their collectives. (A step without time
  // has no place in the order; the round's last step, where the records
  // come back, has time.)
  bool AfterReplay = false;
  for (const auto &[Start, Top] : Order) {
    bool Was = Replayed.count(Top) > 0;
    if (AfterReplay)
      Replayed.insert(Top);
    AfterReplay = Was;
  }
  for (const std::string &Top : Untimed)
    S.LeftOut.push_back(Top);
  for (const auto &[Start, Top] : Order)
    (Replayed.count(Top) ? S.LeftOut : S.Steps).push_back(Top);
  for (const TimingEntry &E : Es) {
    std::string Top = stepOf(E.Range);
    if (Replayed.count(Top))
      continue;
    StepTotals &St = S.Clean[Top];
    St.Launches += E.Launches;
    St.RangeNs[pathBelowStep(E.Range)] += E.TotalNs;
    if (CommunicationKernel C = communicationKernel(E.Kernel)) {
      St.CommNs += E.TotalNs;
      St.CommByLabel[label(C)] += E.TotalNs;
    } else {
      St.ComputeNs += E.TotalNs;
    }
  }
  S.useSteps(std::vector<std::string>(S.Steps));
  return S;
}

} // namespace report
} // namespace hroof
