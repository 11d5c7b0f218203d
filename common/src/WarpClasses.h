//===- WarpClasses.h - a launch's blocks grouped by what they cost --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The warp-level model needs, for each warp request, the lanes that run it,
// their addresses relative to the lowest one and where that lowest address
// lies modulo 128 bytes (WarpCost.h). When an access's address is affine in
// tid and ctaid, two blocks whose lanes run the same requests differ only by
// the address shift between them; so blocks fall into classes with the same
// lanes active and the same counts, and within a class only the shift modulo
// 128 matters. planBlockClasses() finds the classes in closed form per grid
// dimension, without visiting the blocks:
//  - every factor of the multiplicity that reads ctaid must read one grid
//    dimension only (guards like x < n, clamped trip counts);
//  - per dimension, the block indices split into runs where every such
//    factor has one value for all threads of the run's blocks (decided by
//    interval arithmetic, ExprInterval.h, bisecting the index range), and
//    single blocks where some factor differs between threads (edges);
//  - a class is one group per dimension (equal values, or one edge block);
//    its blocks' shifts modulo 128 are counted per run in closed form;
//  - a grid dimension that the address reads other than affinely (a
//    `blockIdx.z % G`) has each of its blocks as its own group;
//  - the address must be affine over the class's blocks (affineFormOver:
//    checked for the whole class, else lane by lane), so that its blocks'
//    lanes all move by the same shift; a class where it is not is
//    "irregular" and its blocks are evaluated one by one.
// The host cost is the number of classes times the threads of one block,
// whatever the number of blocks.
//===----------------------------------------------------------------------===//
#ifndef HROOF_COMMON_WARPCLASSES_H
#define HROOF_COMMON_WARPCLASSES_H

#include "AffineForm.h"
#include "WarpCost.h"

#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace hroof {

/// Blocks of a launch that cost the same but for their address shift.
struct BlockClass {
  /// The block to evaluate: per dimension, the edge block's index, or the
  /// first block of the class's runs.
  std::array<int64_t, 3> CtaId{};
  /// The address is not one shift apart between the class's blocks: each
  /// block is evaluated (forEachBlock).
  bool Irregular = false;
  /// Factors with one value in every thread of the class (the rest are
  /// evaluated lane by lane).
  std::vector<std::pair<const Expr *, int64_t>> Fixed;
  /// Blocks of the class by their address shift from CtaId's, modulo 128.
  Histogram Shifts{};
  /// Per dimension, the block-index runs [first, last] of a uniform group
  /// (empty where the class is one edge block).
  std::array<std::vector<std::pair<int64_t, int64_t>>, 3> Runs;
  u128 blocks() const;
};

struct BlockClasses {
  /// The ctaid coefficients of the address (zero where it reads no ctaid).
  AffineForm Off;
  std::vector<BlockClass> Classes;
};

/// The classes of the launch's blocks for an access whose address is
/// \p Offset (null: none) and whose multiplicity's factors are \p Factors,
/// or nullopt when some factor reads ctaid of two dimensions, the address
/// reads ctaid and is not affine, or finding the classes would take more
/// than \p MaxWork evaluations (\p Work counts them).
std::optional<BlockClasses> planBlockClasses(const std::vector<const Expr *> &Factors,
                                             const Expr *Offset, const LaunchShape &L,
                                             const EvalEnv &Env, uint64_t MaxWork,
                                             uint64_t &Work);

/// Calls \p F with the index of every block of \p C and its exact address
/// shift from C.CtaId's (Off's ctaid part); stops when \p F returns false.
void forEachBlock(const BlockClass &C, const AffineForm &Off,
                  const std::function<bool(const std::array<int64_t, 3> &, int64_t)> &F);

} // namespace hroof

#endif // HROOF_COMMON_WARPCLASSES_H
