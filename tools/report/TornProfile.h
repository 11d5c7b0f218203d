//===- TornProfile.h - profiles that a kill left incomplete ---------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime keeps its profile valid JSON after every write (HEADER RECORDS
// TRAILER, docs/profile-format.md), but a process killed during a write
// leaves the file cut short: a torn file. Its header and every launch record
// before the cut are whole, one record a line, so the report rebuilds the
// kernel (and NVTX range) aggregates from those records rather than losing
// the process: a lower bound, since only the first launch_limit launches of
// each kernel have a record. A file whose JSON parses but whose "complete"
// is false was not finished by the runtime at exit (the process was killed
// between writes): its aggregates stop at its last write. incompleteReason()
// (ProfileData.h) says which.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_TORNPROFILE_H
#define HROOF_TOOLS_REPORT_TORNPROFILE_H

#include <nlohmann/json.hpp>

#include <string>

namespace hroof {
namespace report {

/// A profile as the report reads it.
struct ProfileInput {
  nlohmann::json J;
  bool Torn = false;       ///< the file ends inside its JSON; J is rebuilt
  size_t Recovered = 0;    ///< launch records recovered from a torn file
  int64_t LaunchLimit = 0; ///< records per kernel the runtime kept (settings)
};

/// Parses \p Text (read from \p Path); a torn profile is rebuilt from its
/// header and its whole launch records. Throws parseProfileJson's UserError
/// when the text is not JSON and not a torn profile with a whole header.
ProfileInput readProfileInput(const std::string &Path, const std::string &Text);

} // namespace report
} // namespace hroof

#endif
