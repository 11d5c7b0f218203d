//===- ProfileReader.cpp - the one reader of hroof profile files ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ProfileReader.h"
#include "ReportData.h"

#include "../Toolchain.h"

#include <cmath>

namespace hroof {
namespace report {

nlohmann::json parseProfileJson(const std::string &Path, const std::string &Text) {
  try {
    return nlohmann::json::parse(Text);
  } catch (const nlohmann::json::parse_error &E) {
    bool Truncated = E.byte >= Text.size();
    throw UserError("'" + Path + "' is not valid JSON" +
                    (Truncated ? " (truncated: it ends before the JSON does)"
                               : " (error at byte " + std::to_string(E.byte) + ")"));
  } catch (const nlohmann::json::out_of_range &E) {
    // A number beyond a double's range ("1e999"): valid JSON text that no
    // profile field can hold.
    throw UserError("'" + Path + "' holds a number out of range: " + E.what());
  }
}

nlohmann::json readProfile(const std::string &Path) {
  std::string Text = readFile(Path);
  if (Text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw UserError("'" + Path + "' is empty");
  return parseProfileJson(Path, Text);
}

/// "a string", "an array", ... for messages.
static std::string typeName(const nlohmann::json &V) {
  if (V.is_number_integer() || V.is_number_unsigned())
    return "the integer " + V.dump();
  if (V.is_number())
    return "the number " + V.dump();
  std::string T = V.type_name();
  bool Vowel = T[0] == 'a' || T[0] == 'o';
  return (Vowel ? "an " : "a ") + T;
}

static const nlohmann::json *field(const nlohmann::json &Obj, const char *Key) {
  if (!Obj.is_object())
    return nullptr;
  auto It = Obj.find(Key);
  // null reads as absent: the runtime writes it for what it did not measure.
  return It == Obj.end() || It->is_null() ? nullptr : &*It;
}

void ProfileFields::fail(const std::string &Where, const std::string &What) const {
  throw UserError("'" + Path + "': malformed profile: " + Where + " " + What);
}

uint64_t ProfileFields::count(const nlohmann::json &Obj, const std::string &Where,
                              const char *Key) const {
  const nlohmann::json *V = field(Obj, Key);
  if (!V)
    return 0;
  if (V->is_number_unsigned())
    return V->get<uint64_t>();
  if (V->is_number_integer() && V->get<int64_t>() >= 0)
    return uint64_t(V->get<int64_t>());
  if (V->is_number())
    fail(Where + "/" + Key, "is " + V->dump() + ", not a count (a whole number >= 0)");
  fail(Where + "/" + Key, "is " + typeName(*V) + ", not a count (a whole number >= 0)");
}

double ProfileFields::number(const nlohmann::json &Obj, const std::string &Where, const char *Key,
                             double Default) const {
  const nlohmann::json *V = field(Obj, Key);
  if (!V)
    return Default;
  if (!V->is_number())
    fail(Where + "/" + Key, "is " + typeName(*V) + ", not a number");
  return V->get<double>();
}

bool ProfileFields::flag(const nlohmann::json &Obj, const std::string &Where, const char *Key,
                         bool Default) const {
  const nlohmann::json *V = field(Obj, Key);
  if (!V)
    return Default;
  if (!V->is_boolean())
    fail(Where + "/" + Key, "is " + typeName(*V) + ", not true or false");
  return V->get<bool>();
}

std::string ProfileFields::text(const nlohmann::json &Obj, const std::string &Where,
                                const char *Key, const std::string &Default) const {
  const nlohmann::json *V = field(Obj, Key);
  if (!V)
    return Default;
  if (!V->is_string())
    fail(Where + "/" + Key, "is " + typeName(*V) + ", not a string");
  return V->get<std::string>();
}

} // namespace report
} // namespace hroof
