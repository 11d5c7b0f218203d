//===- SessionDelivery.cpp - a closed session's values to their groups ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// deliverSession and splitValues (GroupSession.h): no CUDA, no CUPTI.
//===----------------------------------------------------------------------===//
#include "replay/GroupSession.h"

#include <cmath>

namespace hroof {
namespace rt {

void splitValues(const std::vector<std::string> &Metrics, const std::vector<double> &V,
                 std::map<std::string, double> &Values, std::string &NotEvaluated) {
  for (size_t I = 0; I < V.size() && I < Metrics.size(); ++I) {
    if (std::isnan(V[I]))
      NotEvaluated += (NotEvaluated.empty() ? "" : ", ") + Metrics[I];
    else
      Values[Metrics[I]] = V[I];
  }
}

SessionDelivery deliverSession(const std::vector<HwSession::Entry> &Entries, bool Match,
                               const std::vector<std::string> &Metrics,
                               const RangeEvaluator &Evaluate, ApplicationReplay &App,
                               std::vector<LaunchRecord> &Done) {
  SessionDelivery D;
  std::vector<double> V(Metrics.size(), 0.0);
  for (size_t I = 0; I < Entries.size(); ++I) {
    const HwSession::Entry &En = Entries[I];
    if (!En.Ticket)
      continue;
    if (!Match || !Evaluate(I, V).empty()) {
      App.retry(*En.Ticket); // the launch ran: its record stays
      ++D.Retried;
      continue;
    }
    std::map<std::string, double> Values;
    std::string NotEvaluated;
    splitValues(Metrics, V, Values, NotEvaluated);
    ++D.Delivered;
    if (auto R = App.deliver(*En.Ticket, std::move(Values), NotEvaluated))
      Done.push_back(std::move(*R));
  }
  return D;
}

} // namespace rt
} // namespace hroof
