//===- Counting.cpp - the counting model for single instructions ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Counting.h"
#include "PtxCounting.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace hroof {

namespace {

std::optional<Precision> precisionOf(Type *T) {
  T = T->getScalarType();
  if (T->isDoubleTy())
    return Precision::F64;
  if (T->isFloatTy())
    return Precision::F32;
  if (T->isHalfTy())
    return Precision::F16;
  if (T->isBFloatTy())
    return Precision::BF16;
  return std::nullopt;
}

uint64_t lanes(Type *T) {
  if (auto *V = dyn_cast<FixedVectorType>(T))
    return V->getNumElements();
  return 1;
}

/// FP type of an instruction: its first FP operand (a conversion counts
/// under its source precision), else its result.
Type *fpTypeOf(const Instruction &I) {
  for (const Value *Op : I.operands())
    if (precisionOf(Op->getType()) && !isa<Function>(Op))
      return Op->getType();
  if (precisionOf(I.getType()))
    return I.getType();
  return nullptr;
}

void addFlops(BlockCounts &Out, Type *T, uint64_t PerLane) {
  if (auto P = precisionOf(T))
    Out.add(flopsIndex(*P), PerLane * lanes(T));
}
void addSpecial(BlockCounts &Out, Type *T, SpecialOp Op) {
  if (auto P = precisionOf(T))
    Out.add(specialIndex(*P, Op), lanes(T));
}
void addOther(BlockCounts &Out, Type *T) {
  if (T)
    if (auto P = precisionOf(T))
      Out.add(otherIndex(*P), lanes(T));
}

uint64_t storeSize(const Instruction &I, Type *T) {
  return I.getModule()->getDataLayout().getTypeStoreSize(T).getFixedValue();
}

/// A struct argument of a kernel passed by value: reading it is a parameter
/// read, like a scalar argument, not a memory access.
bool isKernelParamRead(const Value *Ptr) {
  const auto *A = dyn_cast<Argument>(getUnderlyingObject(Ptr, 0));
  return A && A->hasByValAttr() && A->getParent()->getCallingConv() == CallingConv::PTX_Kernel;
}

/// The select that \p Ptr offsets (through GEPs and casts), when its two
/// pointers are in two different known spaces.
std::optional<SpaceSelectBytes> spaceSelect(const Value *Ptr) {
  const auto *Sel = dyn_cast<SelectInst>(Ptr->stripPointerCasts());
  while (!Sel) {
    const auto *G = dyn_cast<GEPOperator>(Ptr->stripPointerCasts());
    if (!G)
      return std::nullopt;
    Ptr = G->getPointerOperand();
    Sel = dyn_cast<SelectInst>(Ptr->stripPointerCasts());
  }
  SpaceSelectBytes R;
  R.Cond = Sel->getCondition();
  R.IfTrue = resolveMemSpace(Sel->getTrueValue());
  R.IfFalse = resolveMemSpace(Sel->getFalseValue());
  if (R.IfTrue == MemSpace::Generic || R.IfFalse == MemSpace::Generic || R.IfTrue == R.IfFalse ||
      R.Cond->getType()->isVectorTy())
    return std::nullopt;
  return R;
}

void addBytes(BlockCounts &Out, const Value *Ptr, MemDir Dir, uint64_t N) {
  if (Dir == MemDir::Load && isKernelParamRead(Ptr))
    return;
  MemSpace S = resolveMemSpace(Ptr);
  if (S == MemSpace::Generic) {
    // Through one pointer argument of a device function: its callers know.
    if (const Argument *A = deviceFunctionArgument(Ptr)) {
      Out.ArgBytes[{A->getArgNo(), Dir}] += N;
      return;
    }
    if (auto Sel = spaceSelect(Ptr)) {
      Sel->Dir = Dir;
      Sel->Bytes = N;
      Out.SpaceSelects.push_back(*Sel);
      return;
    }
  }
  if (S == MemSpace::Generic)
    Out.Unknown.push_back("generic access whose address space is not provable "
                          "statically (counted under bytes.generic)");
  Out.add(bytesIndex(S, Dir), N);
}

/// Bytes one lane moves for a wmma fragment load/store, from its name
/// (llvm.nvvm.wmma.m16n16k16.load.a.row.stride.f16.p1).
void countWmmaMemory(const CallBase &CB, StringRef Name, BlockCounts &Out) {
  SmallVector<StringRef, 12> T;
  Name.split(T, '.');
  static const Regex Shape("^m([0-9]+)n([0-9]+)k([0-9]+)$");
  uint64_t M = 0, N = 0, K = 0;
  char Frag = 0;
  bool Store = false;
  unsigned ElemBits = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    SmallVector<StringRef, 4> Mt;
    if (Shape.match(T[I], &Mt)) {
      Mt[1].getAsInteger(10, M);
      Mt[2].getAsInteger(10, N);
      Mt[3].getAsInteger(10, K);
    } else if ((T[I] == "load" || T[I] == "store") && I + 1 < T.size()) {
      Store = T[I] == "store";
      Frag = T[I + 1].empty() ? 0 : T[I + 1][0];
    } else if (T[I] == "f16" || T[I] == "bf16") {
      ElemBits = 16;
    } else if (T[I] == "f32" || T[I] == "tf32" || T[I] == "s32") {
      ElemBits = 32;
    } else if (T[I] == "f64") {
      ElemBits = 64;
    } else if (T[I] == "s8" || T[I] == "u8") {
      ElemBits = 8;
    }
  }
  uint64_t Elems = Frag == 'a' ? M * K : Frag == 'b' ? K * N : M * N;
  uint64_t Bytes = Elems * ElemBits / 8;
  if (!Elems || !ElemBits || Bytes % 32) {
    Out.Unknown.push_back("unrecognized wmma fragment access '" + Name.str() + "'");
    return;
  }
  addBytes(Out, CB.getArgOperand(0), Store ? MemDir::Store : MemDir::Load, Bytes / 32);
}

/// Generic LLVM intrinsics (fma, sqrt, transcendental functions, memcpy and
/// memset). Returns false for the others.
bool countGenericIntrinsic(const IntrinsicInst &II, StringRef Name, Type *RT, BlockCounts &Out) {
  const CallBase &CB = II;
  switch (II.getIntrinsicID()) {
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    addFlops(Out, RT, 2);
    return true;
  case Intrinsic::sqrt:
    addSpecial(Out, RT, SpecialOp::Sqrt);
    return true;
  case Intrinsic::exp:
  case Intrinsic::exp2:
  case Intrinsic::exp10:
  case Intrinsic::log:
  case Intrinsic::log2:
  case Intrinsic::log10:
  case Intrinsic::sin:
  case Intrinsic::cos:
  case Intrinsic::tan:
  case Intrinsic::asin:
  case Intrinsic::acos:
  case Intrinsic::atan:
  case Intrinsic::atan2:
  case Intrinsic::sinh:
  case Intrinsic::cosh:
  case Intrinsic::tanh:
  case Intrinsic::pow:
  case Intrinsic::powi:
    addSpecial(Out, RT, SpecialOp::Transcendental);
    return true;
  case Intrinsic::memcpy:
  case Intrinsic::memmove:
  case Intrinsic::memcpy_inline:
  case Intrinsic::memset:
  case Intrinsic::memset_inline: {
    auto *Len = dyn_cast<ConstantInt>(CB.getArgOperand(2));
    if (!Len) {
      Out.Unknown.push_back(Name.str() + " with a length that is not a constant");
      return true;
    }
    uint64_t N = Len->getZExtValue();
    addBytes(Out, CB.getArgOperand(0), MemDir::Store, N);
    if (II.getIntrinsicID() != Intrinsic::memset && II.getIntrinsicID() != Intrinsic::memset_inline)
      addBytes(Out, CB.getArgOperand(1), MemDir::Load, N);
    return true;
  }
  default:
    break;
  }
  return false;
}

/// NVVM intrinsics by name (llvm.nvvm.*) and other intrinsics as "other"
/// FP operations.
void countTargetIntrinsic(const CallBase &CB, StringRef Name, Type *RT, BlockCounts &Out) {
  if (!Name.starts_with("llvm.nvvm.")) {
    // Other generic FP intrinsics (fabs, minnum, floor, ...) are "other".
    addOther(Out, fpTypeOf(CB));
    return;
  }
  StringRef N = Name.drop_front(strlen("llvm.nvvm."));
  if (N.starts_with("fma.")) {
    addFlops(Out, RT, 2);
    return;
  }
  if ((N.starts_with("add.r") || N.starts_with("mul.r")) && precisionOf(RT)) {
    addFlops(Out, RT, 1);
    return;
  }
  if (N.starts_with("div.")) {
    addSpecial(Out, RT, SpecialOp::Div);
    return;
  }
  if (N.starts_with("sqrt.")) {
    addSpecial(Out, RT, SpecialOp::Sqrt);
    return;
  }
  if (N.starts_with("rcp.")) {
    addSpecial(Out, RT, SpecialOp::Rcp);
    return;
  }
  if (N.starts_with("rsqrt.")) {
    addSpecial(Out, RT, SpecialOp::Rsqrt);
    return;
  }
  if (N.starts_with("ex2.") || N.starts_with("lg2.") || N.starts_with("sin.") ||
      N.starts_with("cos.") || N.starts_with("tanh.")) {
    addSpecial(Out, RT, SpecialOp::Transcendental);
    return;
  }
  if (N.starts_with("wmma.")) {
    if (N.contains(".mma."))
      countMatrixInstruction(N, 32, /*F16IfNone=*/true, Out);
    else
      countWmmaMemory(CB, N, Out);
    return;
  }
  if (N.starts_with("mma.")) {
    countMatrixInstruction(N, 32, false, Out);
    return;
  }
  if (countMatrixMove(N, Out) || countBulkCopyIntrinsic(CB, N, Out))
    return;
  if (N.starts_with("cp.async.ca.shared.global.") || N.starts_with("cp.async.cg.shared.global.")) {
    uint64_t Bytes = 0;
    SmallVector<StringRef, 8> T;
    N.split(T, '.');
    for (StringRef Tok : T)
      if (!Tok.getAsInteger(10, Bytes))
        break;
    Out.add(bytesIndex(MemSpace::Global, MemDir::Load), Bytes);
    Out.add(bytesIndex(MemSpace::Shared, MemDir::Store), Bytes);
    return;
  }
  if (N.starts_with("cp.async.bulk") || N.starts_with("tcgen05") || N.starts_with("wgmma")) {
    Out.Unknown.push_back("unmodeled " + Name.str());
    return;
  }
  if (N.starts_with("atomic.")) {
    addBytes(Out, CB.getArgOperand(0), MemDir::Atomic, storeSize(CB, RT));
    return;
  }
  // Shuffles move a register between lanes: no FP operation, whatever the
  // type (SASS SHFL; Nsight Compute counts no FP instruction for it).
  if (N.starts_with("shfl."))
    return;
  // Special registers, barriers, fences, votes, conversions.
  addOther(Out, fpTypeOf(CB));
  return;
}

void countCall(const CallBase &CB, BlockCounts &Out) {
  if (CB.isInlineAsm()) {
    countInlineAsm(cast<InlineAsm>(CB.getCalledOperand())->getAsmString(), Out, &CB);
    return;
  }
  const Function *F = CB.getCalledFunction();
  if (!F) {
    Out.Unknown.push_back("indirect call");
    return;
  }
  if (!F->isDeclaration()) {
    Out.Calls.push_back(&CB);
    return;
  }
  StringRef Name = F->getName();
  Type *RT = CB.getType();
  if (auto *II = dyn_cast<IntrinsicInst>(&CB)) {
    if (!countGenericIntrinsic(*II, Name, RT, Out))
      countTargetIntrinsic(CB, Name, RT, Out);
    return;
  }
  // Declarations that are not intrinsics.
  if (Name == "__assertfail" || Name == "__nv_assertfail")
    return; // only on the failing path, which traps
  // Device printf: the caller stores the arguments into a local buffer (the
  // model counts those stores) and calls the driver's vprintf, whose own
  // work is not in the SASS-patched counters the thread-level counts match
  // (measured: test/gpu/counters/printf-bytes.sh) but is in the L1 sector
  // counters: no FLOP or byte here, and no warp-level model.
  if (Name == "vprintf") {
    Out.WarpUnknown.push_back("call to vprintf (the printf buffer's traffic, done by the "
                              "driver, shows in the L1 sector counters)");
    return;
  }
  Out.Unknown.push_back("call to external function " + Name.str());
}

} // namespace

std::optional<MemoryAccess> memoryAccess(const Instruction &I) {
  // Mutable pointer: the instrumentation passes it to isspacep.
  auto *Mutable = const_cast<Instruction *>(&I);
  auto Size = [&](Type *T) { return storeSize(I, T); };
  if (auto *L = dyn_cast<LoadInst>(Mutable))
    return MemoryAccess{L->getPointerOperand(), MemDir::Load, Size(L->getType())};
  if (auto *S = dyn_cast<StoreInst>(Mutable))
    return MemoryAccess{S->getPointerOperand(), MemDir::Store,
                        Size(S->getValueOperand()->getType())};
  if (auto *A = dyn_cast<AtomicRMWInst>(Mutable))
    return MemoryAccess{A->getPointerOperand(), MemDir::Atomic,
                        Size(A->getValOperand()->getType())};
  if (auto *X = dyn_cast<AtomicCmpXchgInst>(Mutable))
    return MemoryAccess{X->getPointerOperand(), MemDir::Atomic,
                        Size(X->getCompareOperand()->getType())};
  return std::nullopt;
}

void countInstruction(const Instruction &I, BlockCounts &Out) {
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
    addFlops(Out, I.getType(), 1);
    return;
  case Instruction::FDiv: {
    // 1/x is a reciprocal: the backend expands it differently from x/y
    // (measured: docs/validation/expansion.md).
    auto *C = dyn_cast<ConstantFP>(I.getOperand(0));
    if (!C)
      if (auto *CV = dyn_cast<Constant>(I.getOperand(0)))
        C = dyn_cast_or_null<ConstantFP>(CV->getSplatValue());
    bool Reciprocal = C && C->getValueAPF().isExactlyValue(1.0);
    addSpecial(Out, I.getType(), Reciprocal ? SpecialOp::Rcp : SpecialOp::Div);
    return;
  }
  case Instruction::FRem:
    addSpecial(Out, I.getType(), SpecialOp::Div);
    return;
  case Instruction::FNeg:
  case Instruction::FCmp:
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::FPToSI:
  case Instruction::FPToUI:
  case Instruction::SIToFP:
  case Instruction::UIToFP:
    addOther(Out, fpTypeOf(I));
    return;
  case Instruction::Load:
  case Instruction::Store:
  case Instruction::AtomicRMW:
  case Instruction::AtomicCmpXchg: {
    MemoryAccess A = *memoryAccess(I);
    addBytes(Out, A.Ptr, A.Dir, A.Bytes);
    return;
  }
  case Instruction::Call:
  case Instruction::Invoke:
  case Instruction::CallBr:
    countCall(cast<CallBase>(I), Out);
    return;
  default:
    return;
  }
}

BlockCounts countBlock(const BasicBlock &BB) {
  BlockCounts Out;
  for (const Instruction &I : BB)
    countInstruction(I, Out);
  return Out;
}

} // namespace hroof
