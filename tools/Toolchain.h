//===- Toolchain.h - find clang, the plugin and CUDA; compile with them ---===//
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
/// compile.
CompileResult compileStaticModel(const Toolchain &TC, const std::string &File,
                                 const std::string &Arch,
                                 const std::vector<std::string> &ExtraArgs);

/// Directory of the running executable.
std::string executableDir();

} // namespace hroof

#endif
