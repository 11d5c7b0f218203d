//===- Settings.h - every hroof setting, declared once --------------------===//
//
// Each runtime setting is an environment variable declared here with its help
// text; `hroof --help` prints this table.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_SETTINGS_H
#define HROOF_TOOLS_SETTINGS_H

#include <cstdlib>
#include <string>

namespace hroof {

enum class Setting { Clang, Plugin, CudaPath, Examples, Count };

struct SettingInfo {
  const char *Env;
  const char *Help;
};

inline const SettingInfo &settingInfo(Setting S) {
  static const SettingInfo Table[] = {
      {"HROOF_CLANG", "clang++ used to compile CUDA files (default: the LLVM 22 "
                      "clang++ found at build time)"},
      {"HROOF_PLUGIN", "the hroof pass plugin (default: <bin>/../lib/hroof.so)"},
      {"CUDA_PATH", "CUDA toolkit root (default: the toolkit found at build time)"},
      {"HROOF_EXAMPLES", "directory of the demo's example kernels (default: the "
                         "source tree's examples/)"},
  };
  return Table[int(S)];
}

/// Value of the setting's environment variable, or "".
inline std::string setting(Setting S) {
  const char *V = std::getenv(settingInfo(S).Env);
  return V ? V : "";
}

} // namespace hroof

#endif
