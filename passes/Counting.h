//===- Counting.h - what one instruction counts (the counting model) ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// InstructionCounter applies the counting model (docs/counting-model.md) to single LLVM
// instructions of NVPTX device code: FLOPs by precision, Tensor Core FLOPs by
// input type (NVVM mma/wmma intrinsics and inline-asm mma.sync / wmma /
// wgmma strings), special operations, other FP operations, and requested bytes
// by memory space and direction. Counts are per thread; a warp-level matrix
// instruction contributes 2*M*N*K/32 per lane (per warpgroup lane: /128).
//
// Used by KernelModel (the static model) and printed by print<hroof-kernels>.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PASSES_COUNTING_H
#define HROOF_PASSES_COUNTING_H

#include "hroof/CounterLayout.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Instructions.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hroof {

using CountVector = std::array<uint64_t, NumCounters>;

/// Counts of one asm instruction guarded by the lane predicate of a shuffle
/// in the same asm statement (CUB's `@p add.f32`); see ShflPredicate.h.
enum class ShflMode { Up, Down, Bfly, Idx };
struct ShflGuardedCounts {
  CountVector Counts{};
  const llvm::CallBase *Asm = nullptr; ///< the inline asm call
  ShflMode Mode = ShflMode::Down;
  const llvm::Value *B = nullptr; ///< the shuffle's b operand (a constant for an immediate)
  const llvm::Value *C = nullptr; ///< the shuffle's c operand
  std::string Line;               ///< the predicated instruction, for reasons
};

/// Bytes of an access through select(Cond, P, Q) whose two pointers are in
/// different spaces (`c ? tile : in`, a shared tile or the global input):
/// in P's space where Cond holds, else in Q's. Not in BlockCounts::Counts;
/// KernelModel makes them terms with Cond as a factor, and the
/// instrumentation resolves the access at run time like any generic one.
struct SpaceSelectBytes {
  const llvm::Value *Cond = nullptr;
  MemSpace IfTrue = MemSpace::Generic, IfFalse = MemSpace::Generic;
  MemDir Dir = MemDir::Load;
  uint64_t Bytes = 0;
};

/// Counts of one basic block (per execution by one thread).
struct BlockCounts {
  CountVector Counts{};
  /// Reasons why these counts are not exact (unparsed asm, unknown call...).
  std::vector<std::string> Unknown;
  /// Reasons why the block's warp-level traffic is not modelled while its
  /// thread-level counts are exact (a call to vprintf).
  std::vector<std::string> WarpUnknown;
  /// Calls to functions with a body, modeled by the caller's KernelModel.
  std::vector<const llvm::CallBase *> Calls;
  /// Bytes accessed through a pointer argument of a device function whose
  /// call sites pass different spaces: resolved per call site by the caller.
  std::map<std::pair<unsigned, MemDir>, uint64_t> ArgBytes;
  /// Instructions that run on the lanes a shuffle's predicate selects: not
  /// in Counts.
  std::vector<ShflGuardedCounts> ShflGuarded;
  std::vector<SpaceSelectBytes> SpaceSelects;
  void add(int Index, uint64_t N) { Counts[Index] += N; }
};

/// Memory space of pointer \p Ptr, as far as it can be proven. Kernel pointer
/// arguments point to global memory; addrspacecasts, globals and allocas give
/// their space; pointers reaching a local function's argument are followed to
/// its call sites (passes/MemSpace.cpp, docs/counting-model.md).
MemSpace resolveMemSpace(const llvm::Value *Ptr);

/// True when every use of a kernel's byval argument \p A only reads it
/// (loads, address arithmetic, the source of a memcpy): then its bytes are
/// the ones the host passed at launch, the same in every thread.
bool isReadOnlyKernelParam(const llvm::Argument &A);

/// The argument of a device function (not a kernel) that \p Ptr is derived
/// from, where it is the only object other than null: its callers know the
/// space.
const llvm::Argument *deviceFunctionArgument(const llvm::Value *Ptr);

/// A load, store or atomic: its pointer, direction and width in bytes.
struct MemoryAccess {
  llvm::Value *Ptr;
  MemDir Dir;
  uint64_t Bytes;
};
std::optional<MemoryAccess> memoryAccess(const llvm::Instruction &I);

/// Adds the counts of \p I to \p Out.
void countInstruction(const llvm::Instruction &I, BlockCounts &Out);

/// Tensor/memory counts of an inline-asm string, per thread. Unparsed
/// statements that may compute or access memory are reported in Unknown.
void countInlineAsm(llvm::StringRef Asm, BlockCounts &Out, const llvm::CallBase *CB = nullptr);

/// Counts of a whole basic block.
BlockCounts countBlock(const llvm::BasicBlock &BB);

} // namespace hroof

#endif // HROOF_PASSES_COUNTING_H
