//===- OpaqueCondition.h - why a branch condition is not expressible ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// When KernelModel cannot turn a branch condition into a factor, the kernel
// is inexact and its reason should say what the condition depends on, so
// that a user (and the corpus table) can tell a branch on data, which no
// static model can count, from a branch on a loop variable of a shape hroof
// does not count yet. describeOpaqueCondition() walks the condition's
// operands and names the first of, in this order: a value loaded from
// memory, an atomic's result, a call's result, a floating-point value, a
// loop variable (with how it is used), anything else.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_OPAQUECONDITION_H
#define HROOF_PASSES_OPAQUECONDITION_H

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Value.h"

#include <string>

namespace hroof {

/// What condition \p C of a branch in \p Where depends on, as the words
/// after "branch on" ("data loaded from memory", "a loop variable (an
/// unsigned compare)", ...). \p Counted is the loop whose trip count the
/// model knows and whose iteration index it can branch on, or null.
std::string describeOpaqueCondition(const llvm::Value *C, const llvm::BasicBlock &Where,
                                    const llvm::LoopInfo &LI, const llvm::Loop *Counted);

/// Why the trip count of \p L cannot be expressed, as the words after "its
/// trip count cannot be expressed: " ("it has several exits", "its bound is
/// data loaded from memory", "its start depends on an enclosing loop's
/// variable", ...). Called only after every trip-count form has failed.
std::string describeOpaqueLoop(const llvm::Loop &L, const llvm::LoopInfo &LI);

} // namespace hroof

#endif // HROOF_PASSES_OPAQUECONDITION_H
