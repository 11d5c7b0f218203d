//===- Subcommand.h - how a subcommand plugs into the hroof CLI -----------===//
#ifndef HROOF_TOOLS_SUBCOMMAND_H
#define HROOF_TOOLS_SUBCOMMAND_H

#include <CLI/CLI.hpp>

#include <functional>

namespace hroof {

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

} // namespace hroof

#endif
