//===- Subcommand.h - how a subcommand plugs into the hroof CLI -----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#ifndef HROOF_TOOLS_SUBCOMMAND_H
#define HROOF_TOOLS_SUBCOMMAND_H

#include "Toolchain.h"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace hroof {

/// `--version` on \p App (the hroof CLI and each subcommand): prints
/// "hroof VERSION" (HROOF_VERSION: the project version in CMakeLists.txt).
inline void addVersionFlag(CLI::App &App) {
  App.set_version_flag("--version", "hroof " HROOF_VERSION);
}

/// A subcommand registered on the CLI: its parser and what runs when it was
/// given. Run returns the exit status; it may throw UserError.
struct Subcommand {
  CLI::App *Parser = nullptr;
  std::function<int()> Run;
};

/// `hroof run [options] -- CMD ARGS...` (RunCommand.cpp).
Subcommand addRunCommand(CLI::App &App);
/// `hroof report PROFILE...` (ReportCommand.cpp).
Subcommand addReportCommand(CLI::App &App);
/// `hroof compare PROFILE...` (CompareCommand.cpp).
Subcommand addCompareCommand(CLI::App &App);
/// `hroof ncu EXPORT.csv` (NcuCommand.cpp).
Subcommand addNcuCommand(CLI::App &App);

/// Runs one subcommand in this process as if `hroof NAME ARGS...` had been
/// given (`hroof demo` runs report and compare this way): \p Add registers
/// it, \p Args are its arguments. Returns its exit status; throws UserError
/// as the subcommand does, and for arguments it does not accept.
inline int runSubcommand(Subcommand (*Add)(CLI::App &), const std::vector<std::string> &Args) {
  CLI::App App("hroof");
  Subcommand S = Add(App);
  std::vector<std::string> Reversed(Args.rbegin(), Args.rend());
  Reversed.push_back(S.Parser->get_name());
  try {
    App.parse(Reversed);
  } catch (const CLI::ParseError &E) {
    throw UserError(std::string("bad arguments to hroof ") + S.Parser->get_name() + ": " +
                    E.what());
  }
  return S.Run();
}

} // namespace hroof

#endif
