//===- ProfileReader.h - the one reader of hroof profile files ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `hroof report`, `compare`, the `run` summary and `demo` read profiles
// (docs/profile-format.md) through these functions, so a bad file gets the
// same message whichever subcommand reads it: the file, and for a field of
// the wrong type or a bad count, the field as a JSON pointer
// ("/kernels/0/launches").
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_PROFILEREADER_H
#define HROOF_TOOLS_REPORT_PROFILEREADER_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace hroof {
namespace report {

/// Parses \p Text, read from \p Path, as JSON. Throws UserError "'PATH' is
/// not valid JSON (...)", saying where it broke or that it is truncated.
nlohmann::json parseProfileJson(const std::string &Path, const std::string &Text);

/// Reads and parses the profile at \p Path. Throws UserError: "'PATH' is a
/// directory", "cannot read 'PATH'", "'PATH' is empty", or as above.
nlohmann::json readProfile(const std::string &Path);

/// Checked reads of one profile's fields. A missing field gives the default;
/// a present one of the wrong type (or a count that is negative or not a
/// whole number) throws UserError "'PATH': malformed profile: POINTER ...".
class ProfileFields {
public:
  explicit ProfileFields(std::string Path) : Path(std::move(Path)) {}

  /// A number of launches, warps, ...: a non-negative integer.
  uint64_t count(const nlohmann::json &Obj, const std::string &Where, const char *Key) const;
  double number(const nlohmann::json &Obj, const std::string &Where, const char *Key,
                double Default = 0) const;
  bool flag(const nlohmann::json &Obj, const std::string &Where, const char *Key,
            bool Default = false) const;
  std::string text(const nlohmann::json &Obj, const std::string &Where, const char *Key,
                   const std::string &Default = "") const;

  /// Throws "'PATH': malformed profile: WHERE WHAT".
  [[noreturn]] void fail(const std::string &Where, const std::string &What) const;

private:
  std::string Path;
};

} // namespace report
} // namespace hroof

#endif
