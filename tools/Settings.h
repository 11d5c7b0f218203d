//===- Settings.h - every hroof setting, declared once --------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each runtime setting is an environment variable declared here with its help
// text; `hroof --help` prints this table.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_SETTINGS_H
#define HROOF_TOOLS_SETTINGS_H

#include <cstdlib>
#include <initializer_list>
#include <string>

namespace hroof {

enum class Setting {
  Clang,
  Plugin,
  CudaPath,
  Examples,
  MachinesDir,
  ReportJs,
  ReportAssets,
  WarpEvalLimit,
  Count
};

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
      {"HROOF_EXAMPLES", "directory of the demo's example kernels (default: "
                         "<bin>/../share/hroof/examples)"},
      {"HROOF_MACHINES_DIR", "directory of machine JSON files that `hroof report` "
                             "picks the ceilings from (default: "
                             "<bin>/../share/hroof/machines, a copy of docs/machines/)"},
      {"HROOF_REPORT_JS", "node_modules directory of the report's chart "
                          "libraries (default: <bin>/../share/hroof/report-js, "
                          "else the build's report-js/node_modules)"},
      {"HROOF_REPORT_ASSETS", "directory of the report's page template "
                              "chart.html and SVG renderer (default: "
                              "<bin>/../share/hroof/report)"},
      {"HROOF_WARP_EVAL_LIMIT", "most lane evaluations of the warp-level model per "
                                "launch (default 268435456; the runtime's default is "
                                "1048576, docs/runtime.md)"},
  };
  static_assert(sizeof(Table) / sizeof(Table[0]) == size_t(Setting::Count), "one row per Setting");
  return Table[int(S)];
}

/// Value of the setting's environment variable, or "".
inline std::string setting(Setting S) {
  const char *V = std::getenv(settingInfo(S).Env);
  return V ? V : "";
}

/// Value of the setting's environment variable (also when set to ""), or
/// \p Default when it is not set.
inline std::string setting(Setting S, const char *Default) {
  const char *V = std::getenv(settingInfo(S).Env);
  return V ? V : Default;
}

/// The "Environment:" block of a subcommand's --help: the variables it
/// reads, each with its help text from the table above.
inline std::string environmentHelp(std::initializer_list<Setting> Read) {
  std::string Help = "\nEnvironment:\n";
  for (Setting S : Read)
    Help += "  " + std::string(settingInfo(S).Env) + ": " + settingInfo(S).Help + "\n";
  if (Read.size() == 0)
    Help += "  (none read)\n";
  return Help;
}

} // namespace hroof

#endif
