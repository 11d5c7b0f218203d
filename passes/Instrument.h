//===- Instrument.h - dynamic counting: instrument device code ------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// hroof-instrument (module pass, device modules only) makes each kernel count,
// at run time and per thread, exactly what the static model counts
// (Counting.h), with the same keys:
//  - per-thread accumulators live in registers (allocas promoted to SSA);
//  - each basic block adds its constant counts; blocks that run once per
//    iteration of a loop whose trip count ScalarEvolution can expand at the
//    preheader are counted there instead (trip count x counts), so hot loops
//    carry no counting instructions;
//  - generic (flat) accesses are classified at run time with isspacep;
//  - device functions that are only called directly get one extra parameter,
//    a local buffer in which they return their counts to the caller;
//  - at every kernel exit each warp sums each counter with redux.sync (sm_80+)
//    and one lane adds it to __hroof_counters_<kernel> with one atomic (Flush.h).
// The module's static model is embedded as the string __hroof_model (always,
// also with -hroof-mode=static), so nothing travels beside the binary.
//
//   opt -load-pass-plugin=build/lib/hroof.so -passes=hroof-instrument -S k.ll
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_INSTRUMENT_H
#define HROOF_PASSES_INSTRUMENT_H

#include "hroof/CounterLayout.h"
#include "llvm/IR/PassManager.h"

namespace hroof {

/// Name of the device array that collects the counts of kernel \p Mangled.
std::string counterArrayName(llvm::StringRef Mangled);
// The symbol names (ModelSymbol, CounterArrayPrefix): hroof/CounterLayout.h.

class InstrumentPass : public llvm::PassInfoMixin<InstrumentPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

/// True unless -hroof-mode=static.
bool dynamicModeEnabled();

struct IRFunctionModel;
/// Whether the warp-level model reads every access of \p FM (an address
/// form, a multiplicity without a missing condition or trip count, nothing
/// left out): with an exact thread-level model, the kernel's warp-level
/// counts can come from the warp model at each launch, uninstrumented.
bool warpModelComplete(const IRFunctionModel &FM);

} // namespace hroof

#endif
