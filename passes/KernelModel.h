//===- KernelModel.h - the static model of every kernel in a module -------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// KernelModelAnalysis (module analysis, registered as "hroof-kernels") builds
// for each kernel (ptx_kernel calling convention) and each device function it
// calls a list of terms: per-thread counts of one basic block (Counting.h)
// times the block's per-thread multiplicity, a product of expressions
// (ExprBuilder.h) of the kernel's arguments and the PTX special registers:
//  - branch conditions on the path to the block (control dependence, as a
//    sum of disjoint path conjunctions; a block that post-dominates its
//    immediate dominator inherits the dominator's condition),
//  - trip counts of the enclosing loops (ScalarEvolution's backedge-taken
//    count, else the induction-variable pattern of a rotated loop, which
//    covers thread-dependent starts such as grid-stride loops),
//  - the terms of called device functions, with their arguments substituted.
// Summing a term over every thread of a launch (common/ThreadSum) gives exact
// launch totals. Whatever cannot be expressed is listed in Unknown, and the
// kernel is not exact.
//
//   opt -load-pass-plugin=build/lib/hroof.so -passes='print<hroof-kernels>' \
//       -disable-output kernel.ll
//   opt -load-pass-plugin=build/lib/hroof.so -passes=hroof-static-json \
//       -hroof-static-json=model.json -disable-output kernel.ll
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_KERNELMODEL_H
#define HROOF_PASSES_KERNELMODEL_H

#include "Counting.h"
#include "ExprBuilder.h"
#include "WarpAccess.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace hroof {

struct IRModelTerm {
  CountVector Counts{};
  std::vector<JExpr> Factors; ///< product; empty = 1 per thread
  std::string Where;          ///< "function:block"
  /// Bytes through a device function's pointer argument, per (argument,
  /// direction): resolved at each call site (never left in a kernel's terms).
  std::map<std::pair<unsigned, MemDir>, uint64_t> ArgBytes;
  /// The multiplicity lacks a condition the model cannot express: the term
  /// is an upper bound of what runs (its lower bound is 0).
  bool Guarded = false;
  /// It lacks a trip count (counted once per entry): no bound either way.
  bool Unbounded = false;
};

struct IRFunctionModel {
  bool IsKernel = false;
  std::vector<IRModelTerm> Terms;
  std::vector<std::string> Unknown; ///< why not exact (deduplicated)
  /// The reasons among Unknown that leave counts out entirely (calls, asm,
  /// paths cut...): with any, the terms' sum is no upper bound.
  std::vector<std::string> NoUpperBound;
  std::vector<std::string> Callees; ///< device functions counted in
  /// Global and shared loads and stores, for the warp-level model.
  std::vector<IRWarpAccess> Accesses;
  /// Why the warp-level model of this function is incomplete.
  std::vector<std::string> WarpUnknown;
  bool exact() const { return Unknown.empty(); }
};

using IRModuleModel = llvm::MapVector<const llvm::Function *, IRFunctionModel>;

class KernelModelAnalysis : public llvm::AnalysisInfoMixin<KernelModelAnalysis> {
public:
  using Result = IRModuleModel;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

private:
  friend llvm::AnalysisInfoMixin<KernelModelAnalysis>;
  static llvm::AnalysisKey Key;
};

/// print<hroof-kernels>: the model of every kernel, readable.
class KernelModelPrinter : public llvm::PassInfoMixin<KernelModelPrinter> {
public:
  explicit KernelModelPrinter(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

/// hroof-static-json: writes the model as JSON (docs/static-model.md) to the
/// path of -hroof-static-json or $HROOF_STATIC_JSON ("%a" becomes the GPU
/// architecture). Does nothing when neither is set.
/// With DeviceOnly (as clang's pipeline adds it) only NVPTX modules are written.
class StaticModelWriter : public llvm::PassInfoMixin<StaticModelWriter> {
public:
  explicit StaticModelWriter(bool DeviceOnly = false) : DeviceOnly(DeviceOnly) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  bool DeviceOnly;
};

/// One warning (clang's -Wbackend-plugin) when a kernel of \p M was
/// compiled at -O0 (optnone): the model of unoptimized IR is poor.
void warnIfUnoptimized(llvm::Module &M);

/// The model as JSON.
llvm::json::Value modelToJson(const llvm::Module &M, const IRModuleModel &Model);

} // namespace hroof

#endif // HROOF_PASSES_KERNELMODEL_H
