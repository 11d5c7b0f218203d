//===- TornProfile.cpp - profiles that a kill left incomplete -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "TornProfile.h"
#include "ProfileData.h"
#include "ProfileReader.h"

#include "../Toolchain.h"

#include "hroof/ProfileKeys.h"

#include <cctype>
#include <map>
#include <optional>
#include <vector>

namespace hroof {
namespace report {

namespace pk = hroof::profile_keys;
using nlohmann::json;

namespace {

/// Adds the numbers of \p Add into \p Sum, nested objects alike; the
/// per-launch fields that do not add up (reference peaks, raw metrics, the
/// clock, application replay's group count) are left out, as the runtime's
/// aggregates leave them out.
void addNumbers(json &Sum, const json &Add) {
  for (auto It = Add.begin(); Add.is_object() && Sum.is_object() && It != Add.end(); ++It) {
    if (It.key() == pk::Peak || It.key() == pk::Raw || It.key() == pk::SmHz ||
        It.key() == pk::ReplayGroups)
      continue;
    auto S = Sum.find(It.key());
    if (It->is_number() && (S == Sum.end() || S->is_number()))
      Sum[It.key()] = (S == Sum.end() ? 0.0 : S->get<double>()) + It->get<double>();
    else if (It->is_object() && (S == Sum.end() || S->is_object())) {
      if (S == Sum.end())
        Sum[It.key()] = json::object();
      addNumbers(Sum[It.key()], *It);
    }
  }
}

/// The string field \p Key of a record, "" when absent or not a string.
std::string text(const json &R, const char *Key) {
  auto It = R.find(Key);
  return It != R.end() && It->is_string() ? It->get<std::string>() : "";
}

/// One kernel aggregate (docs/profile-format.md, kernels[]) of launch records.
struct Aggregate {
  json A = json::object();
  uint64_t Launches = 0, Timed = 0, Errors = 0, Counted = 0, Dynamic = 0;
  double DurationNs = 0;
  json Counters = json::object(), DynamicTotal = json::object();

  void add(const json &R) {
    ++Launches;
    if (R.contains(pk::Error))
      ++Errors;
    if (R.contains(pk::DurationNs) && R[pk::DurationNs].is_number())
      ++Timed, DurationNs += R[pk::DurationNs].get<double>();
    if (R.contains(pk::Counters) && R[pk::Counters].is_object() &&
        !R.contains(pk::CountersIncomplete))
      ++Counted, addNumbers(Counters, R[pk::Counters]);
    if (R.contains(pk::Dynamic) && R[pk::Dynamic].is_object())
      ++Dynamic, addNumbers(DynamicTotal, R[pk::Dynamic]);
  }

  json toJson(const json &First) const {
    auto Instr = First.find(pk::Instrumented);
    json Out = {
        {pk::Kernel, text(First, pk::Kernel)},
        {pk::Mangled, text(First, pk::Mangled)},
        {pk::Instrumented, Instr != First.end() && Instr->is_boolean() && Instr->get<bool>()},
        {pk::Launches, Launches},
        {pk::RecordedLaunches, Launches},
        {pk::Errors, Errors},
        {pk::DurationNs, {{pk::TimedLaunches, Timed}, {pk::Total, DurationNs}}}};
    if (Counted)
      Out[pk::Counters] = {{pk::Launches, Counted}, {pk::Total, Counters}};
    if (Dynamic)
      Out[pk::Dynamic] = {{pk::Launches, Dynamic}, {pk::Total, DynamicTotal}};
    return Out;
  }
};

int64_t deviceOf(const json &R) {
  return R.contains(pk::Device) && R[pk::Device].is_number_integer() ? R[pk::Device].get<int64_t>()
                                                                     : -1;
}

/// Kernel aggregates of \p Records: "device" where a kernel ran on one,
/// "by_device" entries where it ran on several.
json kernelAggregates(const std::vector<const json *> &Records) {
  std::map<std::string, std::map<int64_t, Aggregate>> ByKernel;
  std::map<std::string, const json *> First;
  for (const json *R : Records) {
    std::string Key = text(*R, pk::Mangled) + "\n" + text(*R, pk::Kernel);
    ByKernel[Key][deviceOf(*R)].add(*R);
    First.emplace(Key, R);
  }
  json Out = json::array();
  for (const auto &[Key, ByDevice] : ByKernel) {
    Aggregate Whole;
    for (const json *R : Records)
      if (text(*R, pk::Mangled) + "\n" + text(*R, pk::Kernel) == Key)
        Whole.add(*R);
    json A = Whole.toJson(*First[Key]);
    if (ByDevice.size() == 1) {
      A[pk::Device] = ByDevice.begin()->first;
    } else {
      A[pk::ByDevice] = json::array();
      for (const auto &[Dev, Part] : ByDevice) {
        json E = Part.toJson(*First[Key]);
        E[pk::Device] = Dev;
        for (const char *Name :
             {pk::Kernel, pk::Mangled, pk::Instrumented, pk::RecordedLaunches, pk::Errors})
          E.erase(Name);
        A[pk::ByDevice].push_back(std::move(E));
      }
    }
    Out.push_back(std::move(A));
  }
  return Out;
}

/// The header's fields: the text before "launches": [, closed as an object.
std::optional<json> parseHeader(const std::string &Text, size_t &RecordsAt) {
  const std::string Marker = "\"" + std::string(pk::Launches) + "\": [";
  size_t At = Text.find(Marker);
  if (At == std::string::npos)
    return std::nullopt;
  std::string Head = Text.substr(0, At);
  while (!Head.empty() && (std::isspace((unsigned char)Head.back()) || Head.back() == ','))
    Head.pop_back();
  json H = json::parse(Head + "}", nullptr, false);
  if (H.is_discarded() || !H.is_object() || !H.contains(pk::Version))
    return std::nullopt;
  RecordsAt = At + Marker.size();
  return H;
}

/// The whole launch records after \p At, one a line, up to the first line
/// that is not one (the trailer's "]," or the record the cut went through).
json wholeRecords(const std::string &Text, size_t At) {
  json Records = json::array();
  while (At < Text.size()) {
    size_t End = Text.find('\n', At);
    std::string Line = Text.substr(At, End == std::string::npos ? std::string::npos : End - At);
    At = End == std::string::npos ? Text.size() : End + 1;
    size_t B = Line.find_first_not_of(" \t\r");
    if (B == std::string::npos)
      continue;
    Line = Line.substr(B);
    while (!Line.empty() && (Line.back() == ',' || std::isspace((unsigned char)Line.back())))
      Line.pop_back();
    if (Line.empty() || Line[0] != '{')
      break;
    json R = json::parse(Line, nullptr, false);
    if (R.is_discarded() || !R.is_object())
      break;
    Records.push_back(std::move(R));
  }
  return Records;
}

void rebuild(ProfileInput &P, json Records);

} // namespace

ProfileInput readProfileInput(const std::string &Path, const std::string &Text) {
  ProfileInput P;
  P.J = json::parse(Text, nullptr, false);
  auto LaunchLimit = [&P] {
    if (P.J.is_object() && P.J.contains(pk::Settings) && P.J[pk::Settings].is_object() &&
        P.J[pk::Settings].contains(pk::LaunchLimit) &&
        P.J[pk::Settings][pk::LaunchLimit].is_number_integer())
      P.LaunchLimit = P.J[pk::Settings][pk::LaunchLimit].get<int64_t>();
  };
  if (!P.J.is_discarded()) {
    LaunchLimit();
    return P;
  }
  bool CutShort = false; // only a file that ends early is torn, not one with an error inside
  try {
    (void)json::parse(Text);
  } catch (const json::parse_error &E) {
    CutShort = E.byte >= Text.size();
  } catch (const json::exception &) {
  }
  size_t RecordsAt = 0;
  std::optional<json> Header = CutShort ? parseHeader(Text, RecordsAt) : std::nullopt;
  if (!Header) {
    P.J = parseProfileJson(Path, Text); // throws the reader's message
    return P;
  }
  P.Torn = true;
  P.J = std::move(*Header);
  LaunchLimit();
  try {
    rebuild(P, wholeRecords(Text, RecordsAt));
  } catch (const json::exception &E) {
    throw UserError("'" + Path + "': malformed profile: " + E.what());
  }
  return P;
}

namespace {

/// The torn profile's kernel and range aggregates from its whole records.
void rebuild(ProfileInput &P, json Records) {
  P.Recovered = Records.size();
  std::vector<const json *> All;
  std::map<std::string, std::vector<const json *>> ByRange;
  bool AnyRange = false;
  for (const json &R : Records) {
    if (!R.contains(pk::Kernel) || !R[pk::Kernel].is_string())
      continue;
    All.push_back(&R);
    std::string Range = text(R, pk::Range);
    AnyRange |= !Range.empty();
    ByRange[Range].push_back(&R);
  }
  P.J[pk::Kernels] = kernelAggregates(All);
  if (AnyRange) {
    P.J[pk::Ranges] = json::array();
    for (const auto &[Range, Rs] : ByRange)
      P.J[pk::Ranges].push_back({{pk::Range, Range},
                                 {pk::Kernels, kernelAggregates(Rs)},
                                 {pk::Transfers, json::array()}});
  }
  P.J[pk::Launches] = std::move(Records);
  P.J[pk::Complete] = false;
}

} // namespace

std::string incompleteStatus(const Profile &P) {
  if (P.Torn)
    return "torn";
  if (P.Complete && !*P.Complete)
    return "unfinished";
  return "";
}

std::string incompleteReason(const Profile &P) {
  const std::string &Path = P.Path;
  std::string Limit =
      P.LaunchLimit > 0 ? std::to_string(P.LaunchLimit) : std::string(pk::LaunchLimit);
  if (P.Torn)
    return "'" + Path + "' is torn (it ends inside its JSON: the process was killed while " +
           "writing it): its kernels are rebuilt from its " + std::to_string(P.Recovered) +
           " whole launch record(s), and launches past the first " + Limit +
           " of a kernel, its copies and its devices' names are missing";
  if (incompleteStatus(P) == "unfinished")
    return "'" + Path + "' was not finished by the runtime (\"" + pk::Complete +
           "\": false: the process ended without exiting, e.g. killed): launches after its "
           "last write are missing";
  return "";
}

} // namespace report
} // namespace hroof
