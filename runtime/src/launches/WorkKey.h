//===- WorkKey.h - which launches may share hardware counters -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A launch's work key: its launch shape (kernel, grid, block, dynamic shared
// memory: launchShapeKey) and a digest of its parameter bytes other than
// pointers. Launches whose counters come from another launch (per-shape
// sampling, application and pass replay) must have equal work keys: a
// persistent kernel (cuBLAS GEMMs with a grid set by the SM count) keeps one
// shape across problem sizes, and only its by-value parameters (sizes,
// strides, scalars) tell them apart. Pointers are left out, since the same
// work on other buffers is the same work. CPU-only: the caller says which
// 8-byte words are pointers (the driver knows); unit-tested in
// test/unit/runtime/WorkKeyTest.cpp. docs/runtime.md, "Work keys".
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_LAUNCHES_WORKKEY_H
#define HROOF_RUNTIME_LAUNCHES_WORKKEY_H

#include "launches/ParamBytes.h"

#include <cstdint>
#include <functional>
#include <string>

namespace hroof {
namespace rt {

/// \p ShapeKey followed by " p=" and a 64-bit FNV-1a digest (16 hex digits)
/// of the parameter bytes of the launch (\p KernelParams or \p Extra, laid
/// out by \p Layout), where every 8-byte-aligned word of a parameter for
/// which \p IsPointer is true counts as one marker byte instead of its
/// value. " p=?" when the layout is unknown (empty) or a parameter's bytes
/// cannot be found: such launches can only be told apart by shape.
std::string launchWorkKey(const std::string &ShapeKey, void **KernelParams, void **Extra,
                          const ParamLayout &Layout,
                          const std::function<bool(uint64_t)> &IsPointer);

/// Whether a work key says its parameter bytes were compared (not " p=?").
bool workKeyHasParams(const std::string &Key);

/// \p Key without its " p=..." digest (whatever follows the digest, such as
/// a context suffix, is kept): the launch shape it was made from.
std::string workKeyShape(const std::string &Key);

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_LAUNCHES_WORKKEY_H
