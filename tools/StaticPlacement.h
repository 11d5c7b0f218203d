//===- StaticPlacement.h - a kernel on the roofline before it runs -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// `hroof static ... --machine FILE`: the static FLOPs of a launch and its
// static traffic at each level of the hierarchical roofline (L1: 32-byte
// sectors of global requests; shared: 128-byte wavefronts; HBM: the launch's
// footprint, its distinct global bytes read and written), set against the
// machine file's ceilings (docs/ert.md): the arithmetic intensity at each
// level, the time each level needs at its ceiling, and the lower bound on the
// kernel's time that they imply, with the limiting level named. L2 has no
// static model: its traffic depends on what other SMs cached.
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_STATICPLACEMENT_H
#define HROOF_TOOLS_STATICPLACEMENT_H

#include "StaticReport.h"
#include "report/ReportData.h"

#include <ostream>

namespace hroof {

/// The placement of \p R (a launch with totals) on machine \p M as JSON;
/// {"problem": ...} when it cannot be placed.
nlohmann::json staticPlacement(const KernelResult &R, const report::Machine &M);

/// The same as text, under the kernel's block.
void printStaticPlacement(std::ostream &OS, const nlohmann::json &P);

} // namespace hroof

#endif // HROOF_TOOLS_STATICPLACEMENT_H
