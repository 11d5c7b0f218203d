//===- ParamBytes.h - a launch's argument bytes and the model's fields ----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Where a launch's argument bytes are (the kernelParams array of per-argument
// pointers, or the packed buffer of the launch's `extra` list), and the
// fields of by-value struct arguments that a kernel's static model reads
// (["field", I, OFF, W], hroof/Expr.h) taken from those bytes. CPU-only (CUDA
// headers, no driver call): unit-tested in test/unit/runtime.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_PARAMBYTES_H
#define HROOF_RUNTIME_PARAMBYTES_H

#include "hroof/StaticModel.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hroof {
namespace rt {

/// Offset and size of each kernel parameter in the ABI's parameter buffer
/// (cuFuncGetParamInfo).
using ParamLayout = std::vector<std::pair<size_t, size_t>>;

/// Pointer to parameter \p I's bytes in a launch given \p KernelParams or
/// \p Extra (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE), or null.
const void *paramBytes(void **KernelParams, void **Extra, const ParamLayout &Layout, size_t I);

/// Puts the value of every field in \p K.Fields into \p Env.FieldVals, read
/// from the launch's bytes of its argument, and appends ("NAME+OFF", value)
/// to \p Record. Returns why a field could not be read (empty if all were).
std::string readModelFields(const KernelModel &K, void **KernelParams, void **Extra,
                            const ParamLayout &Layout, EvalEnv &Env,
                            std::vector<std::pair<std::string, int64_t>> &Record);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_PARAMBYTES_H
