//===- RunCommand.cpp - hroof run (placeholder until the runtime lands) ---===//
#include "Subcommand.h"
#include "Toolchain.h"

namespace hroof {

Subcommand addRunCommand(CLI::App &App) {
  Subcommand S;
  S.Parser = App.add_subcommand("run", "Run a CUDA application under the hroof "
                                       "runtime (not available in this build)");
  S.Parser->allow_extras();
  S.Run = []() -> int {
    throw UserError("'hroof run' is not available in this build yet");
  };
  return S;
}

} // namespace hroof
