//===- WarpCost.h - what one warp request costs ---------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The warp-level model (WarpModel.cpp) reduces a launch to warp requests: the
// lanes' addresses relative to the lowest one, and where that lowest address
// lies modulo 128 bytes. Sectors (32 B) and shared banks (32 x 4 B) both
// repeat every 128 bytes, so that pair decides a request's distinct bytes,
// sectors and bank-conflict passes. This file computes them, and the residues
// modulo 128 that a loop's steps add to an address.
//===----------------------------------------------------------------------===//
#ifndef HROOF_COMMON_WARPCOST_H
#define HROOF_COMMON_WARPCOST_H

#include "hroof/ThreadSum.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace hroof {

constexpr int WarpSize = 32;
/// Sectors (32 B) and banks (32 x 4 B) both repeat every 128 bytes.
constexpr int64_t Period = 128;
constexpr int64_t SectorBytes = 32;
constexpr int64_t NoLane = INT64_MIN;

inline int64_t residue(int64_t A) { return ((A % Period) + Period) % Period; }

/// What one warp request costs: distinct bytes, sectors, wavefronts.
struct RequestCost {
  uint64_t Bytes = 0, Sectors = 0, Wavefronts = 0;
};

/// Cost of one request whose active lanes access [Rel[l], Rel[l] + Width)
/// (relative to the lowest address; NoLane: inactive), the lowest address
/// being \p Res modulo 128.
RequestCost requestCost(const std::array<int64_t, WarpSize> &Rel, int64_t Width, int64_t Res);

/// How often each residue modulo 128 is added to the address over the
/// iteration space of the loops ((step, trips) pairs, innermost first; steps
/// and trip counts uniform in the warp), starting at iteration \p First of
/// the innermost loop.
using Histogram = std::array<u128, Period>;
Histogram iterationResidues(const std::vector<std::pair<int64_t, int64_t>> &StepTrips,
                            int64_t First = 0);

} // namespace hroof

#endif // HROOF_COMMON_WARPCOST_H
