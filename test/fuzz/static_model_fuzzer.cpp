// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Fuzzes the static-model reader (hroof/StaticModel.h) and what hroof static
// and the runtime do with what it accepts: the thread-level totals, their
// bounds and the warp-level traffic of a small launch, with small budgets.
// Accepted rejections: std::runtime_error from the reader, ExprError from
// the evaluators.
#include "FuzzInput.h"
#include "hroof/StaticModel.h"
#include "hroof/WarpModel.h"

using namespace hroof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  nlohmann::json J = nlohmann::json::parse(fuzz::text(Data, Size), nullptr, false);
  if (J.is_discarded())
    return 0;
  StaticModule M;
  try {
    M = parseStaticModel(J);
  } catch (const std::runtime_error &) {
    return 0;
  }
  LaunchShape L{{2, 1, 1}, {40, 1, 1}};
  for (const KernelModel &K : M.Kernels) {
    EvalEnv E;
    E.Args.assign(K.Params.size(), 3);
    E.HasArg.assign(K.Params.size(), true);
    ThreadSumOptions TO;
    TO.MaxEvaluations = 1 << 14;
    WarpModelOptions WO;
    WO.MaxLaneEvaluations = 1 << 14;
    WO.MaxFootprintIntervals = 1 << 14;
    try {
      evaluateKernel(K, L, E, TO);
      evaluateKernelBounds(K, L, E, TO);
      std::vector<std::string> Names(K.Params.size(), "p");
      evaluateWarpTraffic(K.Accesses, L, E, PointerValues(K.Params.size()), Names, WO);
    } catch (const ExprError &) {
    }
  }
  return 0;
}
