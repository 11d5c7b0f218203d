//===- ParamBytes.cpp - a launch's argument bytes and the model's fields --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "launches/ParamBytes.h"

#include <cuda.h>

namespace hroof {
namespace rt {

const void *paramBytes(void **KernelParams, void **Extra, const ParamLayout &Layout, size_t I) {
  if (I >= Layout.size())
    return nullptr;
  if (KernelParams)
    return KernelParams[I];
  if (!Extra)
    return nullptr;
  void *Buf = nullptr;
  size_t BufSize = 0;
  for (void **E = Extra; *E != CU_LAUNCH_PARAM_END; E += 2) {
    if (*E == CU_LAUNCH_PARAM_BUFFER_POINTER)
      Buf = E[1];
    else if (*E == CU_LAUNCH_PARAM_BUFFER_SIZE && E[1])
      BufSize = *static_cast<size_t *>(E[1]);
  }
  // The packed buffer holds each argument at its ABI offset (alignment
  // padding included), as the kernel's parameter space does.
  if (Buf && Layout[I].first + Layout[I].second <= BufSize)
    return static_cast<char *>(Buf) + Layout[I].first;
  return nullptr;
}

std::string readModelFields(const KernelModel &K, void **KernelParams, void **Extra,
                            const ParamLayout &Layout, EvalEnv &Env,
                            std::vector<std::pair<std::string, int64_t>> &Record) {
  Env.FieldVals.clear();
  if (K.Fields.empty())
    return ""; // every launch of a modelled kernel comes here: nothing to build
  std::vector<std::string> Names;
  for (const ModelParam &P : K.Params)
    Names.push_back(P.Name);
  for (const FieldRef &F : K.Fields) {
    size_t I = size_t(F.Arg);
    // The field's offset is the one in the device's layout of the struct,
    // which CUDA keeps equal to the host's: the argument's bytes as passed.
    const void *P = I < Layout.size() ? paramBytes(KernelParams, Extra, Layout, I) : nullptr;
    std::optional<int64_t> V = P ? readField(F, P, Layout[I].second) : std::nullopt;
    if (!V)
      return "cannot read field " + fieldName(F, &Names) + " (" + std::to_string(F.Bits) +
             " bits) of the launch's arguments";
    Env.FieldVals[F] = *V;
    Record.push_back({fieldName(F, &Names), *V});
  }
  return "";
}

} // namespace rt
} // namespace hroof
