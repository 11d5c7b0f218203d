//===- PtxCounting.h - PTX instructions counted by name ---------*- C++ -*-===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Internal to the plugin: what Counting.cpp asks PtxCounting.cpp about NVVM
// intrinsics named after PTX instructions (countInlineAsm is in Counting.h).
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_PTXCOUNTING_H
#define HROOF_PASSES_PTXCOUNTING_H

#include "Counting.h"

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

} // namespace hroof

#endif
