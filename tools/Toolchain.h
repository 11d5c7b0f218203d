//===- Toolchain.h - find clang, the plugin and CUDA; compile with them ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `hroof static` and `hroof demo` compile CUDA files with clang and the hroof
// plugin. Each location is an environment variable (declared in Settings.h)
// with a default fixed at build time, and a missing one is one clear error.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_TOOLCHAIN_H
#define HROOF_TOOLS_TOOLCHAIN_H

#include <stdexcept>
#include <string>
#include <vector>

namespace hroof {

/// A user-facing error: printed as one line "hroof: <what>", exit 1.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A usage error found after parsing (a bad value of an option): `hroof`
/// prints it as "hroof: SUBCOMMAND: WHAT" and exits 2, like a parse error.
struct UsageError : UserError {
  using UserError::UserError;
};

/// Exit status of a command line that hroof cannot use.
constexpr int UsageExitStatus = 2;

struct Toolchain {
  std::string Clang, Plugin, CudaPath;
  /// Locates everything or throws UserError naming what is missing.
  static Toolchain find();
};

struct CompileResult {
  std::string ModelJson; ///< the static model written by the plugin
  std::string Diagnostics;
};

/// Compiles \p File for \p Arch with the plugin (device side only, no GPU
/// needed) and returns the static model. Throws UserError if it does not
/// compile, UsageError if clang does not know \p Arch.
CompileResult compileStaticModel(const Toolchain &TC, const std::string &File,
                                 const std::string &Arch,
                                 const std::vector<std::string> &ExtraArgs);

/// Runs \p Argv (the program found on PATH when it has no '/') and waits for
/// it; its stdout and stderr go to the files \p OutPath and \p ErrPath
/// (truncated; empty: this process's own). Returns its exit status, 127 when
/// it cannot be run, 128 + N when signal N ended it.
int runProgram(const std::vector<std::string> &Argv, const std::string &OutPath,
               const std::string &ErrPath);

/// The path of \p Program on PATH, or "" when there is none.
std::string findOnPath(const std::string &Program);

/// Why \p Path cannot be read: the OS's reason (strerror: "No such file or
/// directory", "Permission denied"), or "it is a directory"; "" when it can.
std::string unreadableReason(const std::string &Path);

/// The contents of \p Path; throws UserError "cannot read 'PATH': REASON".
std::string readTextFile(const std::string &Path);

/// Directory of the running executable.
std::string executableDir();

/// The folder above the executable's (build/ or the install prefix).
std::string installPrefix();

/// \p Rel under hroof's data folder, <dir of hroof>/../share/hroof (machine
/// files, the report's page, the demo's examples): the install tree has it
/// and the build tree is laid out the same (cmake/HroofInstall.cmake), so no
/// source-tree path is compiled in. "" when it is not there.
std::string dataPath(const std::string &Rel);

} // namespace hroof

#endif
