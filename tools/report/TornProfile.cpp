//===- TornProfile.cpp - profiles that a kill left incomplete -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "TornProfile.h"
#include "ProfileReader.h"

#include "../Toolchain.h"

#include <cctype>
#include <map>
#include <optional>
#include <vector>

namespace hroof {
namespace report {

using nlohmann::json;

namespace {

/// Adds the numbers of \p Add into \p Sum, nested objects alike; the
/// per-launch fields that do not add up (reference peaks, raw metrics) are
/// left out, as the runtime's aggregates leave them out.
void addNumbers(json &Sum, const json &Add) {
  for (auto It = Add.begin(); Add.is_object() && Sum.is_object() && It != Add.end(); ++It) {
    if (It.key() == "peak" || It.key() == "raw" || It.key() == "sm_hz")
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
    if (R.contains("error"))
      ++Errors;
    if (R.contains("duration_ns") && R["duration_ns"].is_number())
      ++Timed, DurationNs += R["duration_ns"].get<double>();
    if (R.contains("counters") && R["counters"].is_object() && !R.contains("counters_incomplete"))
      ++Counted, addNumbers(Counters, R["counters"]);
    if (R.contains("dynamic") && R["dynamic"].is_object())
      ++Dynamic, addNumbers(DynamicTotal, R["dynamic"]);
  }

  json toJson(const json &First) const {
    auto Instr = First.find("instrumented");
    json Out = {{"kernel", text(First, "kernel")},
                {"mangled", text(First, "mangled")},
                {"instrumented", Instr != First.end() && Instr->is_boolean() && Instr->get<bool>()},
                {"launches", Launches},
                {"recorded_launches", Launches},
                {"errors", Errors},
                {"duration_ns", {{"timed_launches", Timed}, {"total", DurationNs}}}};
    if (Counted)
      Out["counters"] = {{"launches", Counted}, {"total", Counters}};
    if (Dynamic)
      Out["dynamic"] = {{"launches", Dynamic}, {"total", DynamicTotal}};
    return Out;
  }
};

int64_t deviceOf(const json &R) {
  return R.contains("device") && R["device"].is_number_integer() ? R["device"].get<int64_t>() : -1;
}

/// Kernel aggregates of \p Records: "device" where a kernel ran on one,
/// "by_device" entries where it ran on several.
json kernelAggregates(const std::vector<const json *> &Records) {
  std::map<std::string, std::map<int64_t, Aggregate>> ByKernel;
  std::map<std::string, const json *> First;
  for (const json *R : Records) {
    std::string Key = text(*R, "mangled") + "\n" + text(*R, "kernel");
    ByKernel[Key][deviceOf(*R)].add(*R);
    First.emplace(Key, R);
  }
  json Out = json::array();
  for (const auto &[Key, ByDevice] : ByKernel) {
    Aggregate Whole;
    for (const json *R : Records)
      if (text(*R, "mangled") + "\n" + text(*R, "kernel") == Key)
        Whole.add(*R);
    json A = Whole.toJson(*First[Key]);
    if (ByDevice.size() == 1) {
      A["device"] = ByDevice.begin()->first;
    } else {
      A["by_device"] = json::array();
      for (const auto &[Dev, Part] : ByDevice) {
        json E = Part.toJson(*First[Key]);
        E["device"] = Dev;
        for (const char *Name :
             {"kernel", "mangled", "instrumented", "recorded_launches", "errors"})
          E.erase(Name);
        A["by_device"].push_back(std::move(E));
      }
    }
    Out.push_back(std::move(A));
  }
  return Out;
}

/// The header's fields: the text before "launches": [, closed as an object.
std::optional<json> parseHeader(const std::string &Text, size_t &RecordsAt) {
  const std::string Marker = "\"launches\": [";
  size_t At = Text.find(Marker);
  if (At == std::string::npos)
    return std::nullopt;
  std::string Head = Text.substr(0, At);
  while (!Head.empty() && (std::isspace((unsigned char)Head.back()) || Head.back() == ','))
    Head.pop_back();
  json H = json::parse(Head + "}", nullptr, false);
  if (H.is_discarded() || !H.is_object() || !H.contains("hroof_profile"))
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
    if (P.J.is_object() && P.J.contains("settings") && P.J["settings"].is_object() &&
        P.J["settings"].contains("launch_limit") &&
        P.J["settings"]["launch_limit"].is_number_integer())
      P.LaunchLimit = P.J["settings"]["launch_limit"].get<int64_t>();
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
    if (!R.contains("kernel") || !R["kernel"].is_string())
      continue;
    All.push_back(&R);
    std::string Range = text(R, "range");
    AnyRange |= !Range.empty();
    ByRange[Range].push_back(&R);
  }
  P.J["kernels"] = kernelAggregates(All);
  if (AnyRange) {
    P.J["ranges"] = json::array();
    for (const auto &[Range, Rs] : ByRange)
      P.J["ranges"].push_back(
          {{"range", Range}, {"kernels", kernelAggregates(Rs)}, {"transfers", json::array()}});
  }
  P.J["launches"] = std::move(Records);
  P.J["complete"] = false;
}

} // namespace

std::string incompleteStatus(const ProfileInput &P) {
  if (P.Torn)
    return "torn";
  if (P.J.is_object() && P.J.contains("complete") && P.J["complete"].is_boolean() &&
      !P.J["complete"].get<bool>())
    return "unfinished";
  return "";
}

std::string incompleteReason(const std::string &Path, const ProfileInput &P) {
  std::string Limit =
      P.LaunchLimit > 0 ? std::to_string(P.LaunchLimit) : std::string("launch_limit");
  if (P.Torn)
    return "'" + Path + "' is torn (it ends inside its JSON: the process was killed while " +
           "writing it): its kernels are rebuilt from its " + std::to_string(P.Recovered) +
           " whole launch record(s), and launches past the first " + Limit +
           " of a kernel, its copies and its devices' names are missing";
  if (incompleteStatus(P) == "unfinished")
    return "'" + Path + "' was not finished by the runtime (\"complete\": false: the process " +
           "ended without exiting, e.g. killed): launches after its last write are missing";
  return "";
}

} // namespace report
} // namespace hroof
