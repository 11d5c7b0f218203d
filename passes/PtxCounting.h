//===- PtxCounting.h - PTX instructions counted by name ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the plugin: what Counting.cpp asks PtxCounting.cpp about NVVM
// intrinsics named after PTX instructions (countInlineAsm is in Counting.h),
// and what WarpAccess.cpp asks about the memory accesses of inline asm.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_PTXCOUNTING_H
#define HROOF_PASSES_PTXCOUNTING_H

#include "Counting.h"

#include <string>
#include <vector>

namespace hroof {

/// A matrix instruction named by dot-separated tokens (NVVM intrinsic or PTX
/// opcode): 2*M*N*K per \p LanesPerOp lanes (32: warp, 128: warpgroup), by
/// input type. False (and a reason in Out.Unknown) when not recognised.
bool countMatrixInstruction(llvm::StringRef Name, uint64_t LanesPerOp, bool F16IfNone,
                            BlockCounts &Out);

/// ldmatrix/stmatrix in any spelling; false if \p Op is neither.
bool countMatrixMove(llvm::StringRef Op, BlockCounts &Out);

/// llvm.nvvm.cp.async.bulk.* (\p N without "llvm.nvvm."); false for other names.
bool countBulkCopyIntrinsic(const llvm::CallBase &CB, llvm::StringRef N, BlockCounts &Out);

/// One instruction of an inline-asm string: its guard ("@p"; empty when it
/// has none), its opcode and its text without the guard.
struct AsmInstruction {
  llvm::StringRef Guard, Op, Line;
};
std::vector<AsmInstruction> asmInstructions(llvm::StringRef Asm);

/// A memory access that an inline-asm statement makes, per lane, for the
/// warp-level model (WarpAccess.cpp): ld, st, atom and red in a named space,
/// the two sides of cp.async, ldmatrix and stmatrix.
struct AsmAccess {
  MemSpace Space = MemSpace::Generic;
  MemDir Dir = MemDir::Load;
  uint64_t Bytes = 0;
  /// The asm operand inside [...]: a pointer or an integer address; null
  /// when the address is a register of the asm itself.
  const llvm::Value *Address = nullptr;
  int64_t Displacement = 0; ///< the constant of [$N+16]
  std::string Line;         ///< the instruction, for reasons
  bool Predicated = false;  ///< "@p ld...": it may not run
  bool AsyncCopy = false;   ///< a side of cp.async
  std::string Unmodelled;   ///< why the address has no lane-by-lane form
};
std::vector<AsmAccess> asmAccesses(const llvm::CallBase &CB);

} // namespace hroof

#endif
