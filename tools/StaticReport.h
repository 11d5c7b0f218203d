//===- StaticReport.h - evaluate and print static models ------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Shared by `hroof static` and `hroof demo`: select kernels, evaluate a
// kernel's static model for one launch, and print counts as a table or as JSON
// with the profile's count keys, docs/profile-format.md (total.flops.f32,
// total.bytes.global.load, ...).
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_STATICREPORT_H
#define HROOF_TOOLS_STATICREPORT_H

#include "hroof/StaticModel.h"

#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace hroof {

struct LaunchRequest {
  std::optional<LaunchShape> Shape;        ///< both --grid and --block given
  std::map<std::string, std::string> Args; ///< --arg NAME=VALUE
};

struct KernelResult {
  const KernelModel *Kernel = nullptr;
  std::optional<TotalVector> Total;
  /// For a kernel that is not exact: its totals' bounds (Total is then the
  /// sum of every term, the upper bound when there is one).
  std::optional<TotalBounds> Bounds;
  std::string Problem; ///< why no total (missing argument, ...)
  /// What the totals assume for values not given (a pointer not null).
  std::vector<std::string> Assumes;
  /// Warp-level traffic (hroof/WarpModel.h), or why it was not evaluated.
  std::optional<WarpTraffic> Warp;
  std::string WarpProblem;
};

/// Evaluates \p K for \p Req. Throws UserError for a malformed value.
KernelResult evaluateForLaunch(const KernelModel &K, const LaunchRequest &Req);

/// The "warp" object of `hroof static --json`: the traffic, or the problem.
nlohmann::json warpResultToJson(const KernelResult &R);

/// FLOPs (CUDA cores + Tensor Cores) and requested global bytes.
u128 totalFlops(const TotalVector &T);
u128 globalBytes(const TotalVector &T);

/// Human-readable block for one kernel.
void printKernelText(std::ostream &OS, const KernelResult &R, bool ShowTerms);

/// Parses "X[,Y[,Z]]"; throws UserError naming \p What.
std::array<int64_t, 3> parseDims(const std::string &S, const std::string &What);
/// --grid and --block: parsed, and checked against CUDA's launch limits
/// (grid x <= 2^31-1, y and z <= 65535; block x, y <= 1024, z <= 64, at most
/// 1024 threads). Throws UserError naming the option and its value.
LaunchShape parseLaunchShape(const std::string &Grid, const std::string &Block);

} // namespace hroof

#endif
