//===- Counting.cpp - the counting model for single instructions ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Counting.h"

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
/// ldmatrix / stmatrix in any of its spellings: the NVVM intrinsic name
/// (ldmatrix.sync.aligned.m8n8.x4.b16) and PTX, where the count may come
/// before the shape (CUTLASS writes ldmatrix.sync.aligned.x4.m8n8.shared.b16).
/// Bytes per lane: X matrices of M*N elements, 32 lanes. Shapes: m8n8 b16
/// (128 B a matrix), m16n16 b8 (256 B), stmatrix m16n8 b8 (128 B). The packed
/// sub-byte m8n16 forms (b6x16_p32, b4x16_p64) are not modelled.
struct MatrixMove {
  MemDir Dir;
  uint64_t BytesPerLane; ///< 0: not modelled
};
std::optional<MatrixMove> matrixMove(StringRef Op) {
  bool Load = Op.starts_with("ldmatrix"), Store = Op.starts_with("stmatrix");
  if (!Load && !Store)
    return std::nullopt;
  SmallVector<StringRef, 8> T;
  Op.split(T, '.');
  uint64_t X = 0, MatrixBytes = 0;
  bool Packed = false;
  for (StringRef Tok : T) {
    if (Tok == "x1" || Tok == "x2" || Tok == "x4")
      X = Tok[1] - '0';
    else if (Tok == "m8n8")
      MatrixBytes = 8 * 8 * 2;
    else if (Tok == "m16n16")
      MatrixBytes = 16 * 16;
    else if (Tok == "m16n8")
      MatrixBytes = 16 * 8;
    Packed |= Tok.contains("_p32") || Tok.contains("_p64") || Tok == "m8n16";
  }
  uint64_t PerLane = X && MatrixBytes && !Packed ? X * MatrixBytes / 32 : 0;
  return MatrixMove{Load ? MemDir::Load : MemDir::Store, PerLane};
}

void addMatrixMove(const MatrixMove &M, StringRef Text, BlockCounts &Out) {
  if (M.BytesPerLane)
    Out.add(bytesIndex(MemSpace::Shared, M.Dir), M.BytesPerLane);
  else
    Out.Unknown.push_back("unmodeled matrix move '" + Text.str() + "'");
}

/// State space of a bulk-copy operand token ("global", "shared::cluster",
/// "shared::cta"); the destination is named first.
std::optional<MemSpace> bulkSpace(StringRef Tok) {
  if (Tok == "global")
    return MemSpace::Global;
  if (Tok.starts_with("shared"))
    return MemSpace::Shared;
  return std::nullopt;
}

/// A non-tensor bulk copy (cp.async.bulk.DST.SRC...) of Bytes: a load from
/// the source space and a store to the destination space, by the one thread
/// that issues it.
void addBulkCopy(MemSpace Dst, MemSpace Src, uint64_t Bytes, BlockCounts &Out) {
  Out.add(bytesIndex(Src, MemDir::Load), Bytes);
  Out.add(bytesIndex(Dst, MemDir::Store), Bytes);
}

/// The NVVM bulk-copy intrinsics (llvm.nvvm.cp.async.bulk.*, name without
/// "llvm.nvvm." in N): (dst, [mbar,] src, size i32, ...), the size being the
/// first i32 operand. Prefetches fill L2 only; commit/wait move nothing.
/// Returns false for other intrinsics.
bool countBulkIntrinsic(const CallBase &CB, StringRef N, BlockCounts &Out) {
  if (N.starts_with("cp.async.bulk.prefetch") || N.starts_with("cp.async.bulk.commit") ||
      N.starts_with("cp.async.bulk.wait"))
    return true;
  bool FromGlobal = N.starts_with("cp.async.bulk.global.to.shared");
  if (!FromGlobal && !N.starts_with("cp.async.bulk.shared.cta.to"))
    return false;
  const ConstantInt *Size = nullptr;
  for (const Value *A : CB.args())
    if (A->getType()->isIntegerTy(32)) {
      Size = dyn_cast<ConstantInt>(A);
      break;
    }
  if (!Size) {
    Out.Unknown.push_back(CB.getCalledFunction()->getName().str() +
                          " with a size that is not a constant");
    return true;
  }
  bool ToGlobal = N.starts_with("cp.async.bulk.shared.cta.to.global");
  addBulkCopy(ToGlobal ? MemSpace::Global : MemSpace::Shared,
              FromGlobal ? MemSpace::Global : MemSpace::Shared, Size->getZExtValue(), Out);
  return true;
}

/// The call argument that inline-asm operand N ($N) names: outputs come first
/// and, unless indirect (=*), have no argument.
const Value *asmOperandValue(const CallBase &CB, unsigned N) {
  auto *IA = cast<InlineAsm>(CB.getCalledOperand());
  unsigned Op = 0, Arg = 0;
  for (const InlineAsm::ConstraintInfo &C : IA->ParseConstraints()) {
    if (C.Type == InlineAsm::isClobber || C.Type == InlineAsm::isLabel)
      continue;
    bool HasArg = C.Type == InlineAsm::isInput || C.isIndirect;
    if (Op == N)
      return HasArg && Arg < CB.arg_size() ? CB.getArgOperand(Arg) : nullptr;
    Arg += HasArg;
    ++Op;
  }
  return nullptr;
}

/// An inline-asm operand text ("16", "$2", "%2") as a constant, if it is one.
std::optional<uint64_t> asmConstant(StringRef Text, const CallBase *CB) {
  Text = Text.trim();
  uint64_t V = 0;
  if (!Text.getAsInteger(0, V))
    return V;
  unsigned N = 0;
  if (CB && (Text.consume_front("$") || Text.consume_front("%")) && !Text.getAsInteger(10, N))
    if (auto *C = dyn_cast_or_null<ConstantInt>(asmOperandValue(*CB, N)))
      return C->getZExtValue();
  return std::nullopt;
}

/// cp.async.bulk in inline asm. Non-tensor copies move their size operand
/// (the third); tensor (TMA) copies move the tensor map's box, which only the
/// host's descriptor knows; prefetches fill L2 and move nothing to the SM.
void countBulkAsm(StringRef Op, StringRef Line, const CallBase *CB, BlockCounts &Out) {
  if (Op.starts_with("cp.async.bulk.prefetch"))
    return;
  if (Op.starts_with("cp.async.bulk.tensor") || Op.starts_with("cp.reduce.async.bulk")) {
    Out.Unknown.push_back("bulk tensor (TMA) or reducing copy '" + Line.str() +
                          "': its bytes are set by the tensor map or the reduction, "
                          "not visible to the compiler");
    return;
  }
  SmallVector<StringRef, 8> T;
  Op.split(T, '.');
  std::optional<MemSpace> Dst = T.size() > 4 ? bulkSpace(T[3]) : std::nullopt;
  std::optional<MemSpace> Src = T.size() > 4 ? bulkSpace(T[4]) : std::nullopt;
  SmallVector<StringRef, 4> Parts;
  Line.drop_front(Op.size()).split(Parts, ',');
  std::optional<uint64_t> Bytes = Parts.size() >= 3 ? asmConstant(Parts[2], CB) : std::nullopt;
  if (!Dst || !Src || !Bytes) {
    Out.Unknown.push_back("bulk copy '" + Line.str() + "': spaces or size not a constant");
    return;
  }
  addBulkCopy(*Dst, *Src, *Bytes, Out);
}
} // namespace

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

void addBytes(BlockCounts &Out, const Value *Ptr, MemDir Dir, uint64_t N) {
  if (Dir == MemDir::Load && isKernelParamRead(Ptr))
    return;
  MemSpace S = resolveMemSpace(Ptr);
  if (S == MemSpace::Generic) {
    // Through one pointer argument of a device function: its callers know.
    SmallVector<const Value *, 4> Objs;
    getUnderlyingObjects(Ptr, Objs, nullptr, 0);
    const auto *A = Objs.size() == 1 ? dyn_cast<Argument>(Objs[0]) : nullptr;
    if (A && A->getParent()->getCallingConv() != CallingConv::PTX_Kernel) {
      Out.ArgBytes[{A->getArgNo(), Dir}] += N;
      return;
    }
  }
  if (S == MemSpace::Generic)
    Out.Unknown.push_back("generic access whose address space is not provable "
                          "statically (counted under bytes.generic)");
  Out.add(bytesIndex(S, Dir), N);
}

MemSpace spaceOfAS(unsigned AS) {
  switch (AS) {
  case 1:
    return MemSpace::Global;
  case 3:
    return MemSpace::Shared;
  case 4:
    return MemSpace::Constant;
  case 5:
    return MemSpace::Local;
  default:
    return MemSpace::Generic;
  }
}

MemSpace resolveObject(const Value *Obj, int Depth);

MemSpace resolvePointer(const Value *Ptr, int Depth) {
  if (Depth > 6)
    return MemSpace::Generic;
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS != 0)
    return spaceOfAS(AS);
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(Ptr, Objs, nullptr, 0);
  std::optional<MemSpace> Result;
  for (const Value *O : Objs) {
    MemSpace S = resolveObject(O, Depth);
    if (Result && *Result != S)
      return MemSpace::Generic;
    Result = S;
  }
  return Result.value_or(MemSpace::Generic);
}

MemSpace resolveObject(const Value *Obj, int Depth) {
  unsigned AS = Obj->getType()->isPointerTy() ? Obj->getType()->getPointerAddressSpace() : 0;
  if (AS != 0)
    return spaceOfAS(AS);
  if (isa<AllocaInst>(Obj))
    return MemSpace::Local;
  if (const auto *GV = dyn_cast<GlobalValue>(Obj))
    return spaceOfAS(GV->getAddressSpace());
  if (const auto *ASC = dyn_cast<AddrSpaceCastOperator>(Obj))
    return spaceOfAS(ASC->getSrcAddressSpace());
  if (const auto *A = dyn_cast<Argument>(Obj)) {
    const Function *F = A->getParent();
    if (F->getCallingConv() == CallingConv::PTX_Kernel)
      // Pointer arguments are global (docs/counting-model.md); a struct passed by value
      // is in the parameter space (its reads are not counted, see
      // isKernelParamRead; a write to it is a local copy).
      return A->hasByValAttr() ? MemSpace::Local : MemSpace::Global;
    // Whole-program device compilation (CUDA without -rdc): every caller of
    // a device function is in this module.
    if (F->user_empty())
      return MemSpace::Generic;
    std::optional<MemSpace> Result;
    for (const User *U : F->users()) {
      const auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledOperand() != F)
        return MemSpace::Generic;
      MemSpace S = resolvePointer(CB->getArgOperand(A->getArgNo()), Depth + 1);
      if (Result && *Result != S)
        return MemSpace::Generic;
      Result = S;
    }
    return Result.value_or(MemSpace::Generic);
  }
  return MemSpace::Generic;
}

/// Tensor input type from the type tokens of an mma/wmma/wgmma name.
std::optional<TensorType> tensorTypeOf(const SmallVectorImpl<StringRef> &Tokens, bool F16IfNone) {
  for (StringRef T : Tokens) {
    if (T == "bf16")
      return TensorType::BF16;
    if (T == "tf32")
      return TensorType::TF32;
    if (T == "e4m3" || T == "e5m2")
      return TensorType::FP8;
    if (T == "s8" || T == "u8")
      return TensorType::INT8;
  }
  for (StringRef T : Tokens) {
    if (T == "f16")
      return TensorType::F16;
    if (T == "f64")
      return TensorType::F64;
  }
  if (F16IfNone)
    return TensorType::F16;
  return std::nullopt;
}

/// Parses "mMnNkK" at \p S; returns 2*M*N*K or 0.
uint64_t shapeFlops(StringRef S) {
  static const Regex Shape("^m([0-9]+)n([0-9]+)k([0-9]+)$");
  SmallVector<StringRef, 4> M;
  if (!Shape.match(S, &M))
    return 0;
  uint64_t A, B, C;
  if (M[1].getAsInteger(10, A) || M[2].getAsInteger(10, B) || M[3].getAsInteger(10, C))
    return 0;
  return 2 * A * B * C;
}

/// Counts a matrix instruction named by dot-separated tokens (NVVM intrinsic
/// or PTX opcode). \p LanesPerOp: 32 (warp) or 128 (warpgroup).
bool countMatrixOp(StringRef Name, uint64_t LanesPerOp, bool F16IfNone, BlockCounts &Out) {
  SmallVector<StringRef, 12> Tokens;
  Name.split(Tokens, '.');
  uint64_t Flops = 0;
  for (StringRef T : Tokens)
    if ((Flops = shapeFlops(T)))
      break;
  auto Type = tensorTypeOf(Tokens, F16IfNone);
  if (!Flops || !Type || Flops % LanesPerOp) {
    Out.Unknown.push_back("unrecognized matrix instruction '" + Name.str() + "'");
    return false;
  }
  for (StringRef T : Tokens)
    if (T == "sp") {
      Out.Unknown.push_back("sparse matrix instruction '" + Name.str() + "' not modeled");
      return false;
    }
  Out.add(tensorIndex(*Type), Flops / LanesPerOp);
  return true;
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
    switch (II->getIntrinsicID()) {
    case Intrinsic::fma:
    case Intrinsic::fmuladd:
      addFlops(Out, RT, 2);
      return;
    case Intrinsic::sqrt:
      addSpecial(Out, RT, SpecialOp::Sqrt);
      return;
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
      return;
    case Intrinsic::memcpy:
    case Intrinsic::memmove:
    case Intrinsic::memcpy_inline:
    case Intrinsic::memset:
    case Intrinsic::memset_inline: {
      auto *Len = dyn_cast<ConstantInt>(CB.getArgOperand(2));
      if (!Len) {
        Out.Unknown.push_back(Name.str() + " with a length that is not a constant");
        return;
      }
      uint64_t N = Len->getZExtValue();
      addBytes(Out, CB.getArgOperand(0), MemDir::Store, N);
      if (II->getIntrinsicID() != Intrinsic::memset &&
          II->getIntrinsicID() != Intrinsic::memset_inline)
        addBytes(Out, CB.getArgOperand(1), MemDir::Load, N);
      return;
    }
    default:
      break;
    }
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
        countMatrixOp(N, 32, /*F16IfNone=*/true, Out);
      else
        countWmmaMemory(CB, N, Out);
      return;
    }
    if (N.starts_with("mma.")) {
      countMatrixOp(N, 32, false, Out);
      return;
    }
    if (auto MM = matrixMove(N)) {
      addMatrixMove(*MM, N, Out);
      return;
    }
    if (countBulkIntrinsic(CB, N, Out))
      return;
    if (N.starts_with("cp.async.ca.shared.global.") ||
        N.starts_with("cp.async.cg.shared.global.")) {
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
    // Special registers, barriers, fences, shuffles, votes, conversions.
    addOther(Out, fpTypeOf(CB));
    return;
  }
  // Declarations that are not intrinsics.
  if (Name == "__assertfail" || Name == "__nv_assertfail")
    return; // only on the failing path, which traps
  Out.Unknown.push_back("call to external function " + Name.str());
}

/// FP arithmetic and plain loads/stores written as PTX in inline asm (e.g.
/// cuda_fp16.h implements __hfma2 as "fma.rn.f16x2"). Returns false if the
/// opcode is neither.
bool countAsmArithmeticOrMemory(StringRef Op, BlockCounts &Out) {
  SmallVector<StringRef, 8> T;
  Op.split(T, '.');
  if (T.empty())
    return false;
  StringRef Base = T[0];
  // Precision and lanes from the type suffixes (first FP type for
  // arithmetic; cvt takes its source, the last one).
  std::optional<Precision> P;
  uint64_t Lanes = 1;
  auto Parse = [&](StringRef Tok) -> bool {
    if (Tok == "f64") {
      P = Precision::F64;
      Lanes = 1;
      return true;
    }
    if (Tok == "f32" || Tok == "ftz") {
      if (Tok == "f32") {
        P = Precision::F32;
        Lanes = 1;
        return true;
      }
      return false;
    }
    if (Tok == "f16") {
      P = Precision::F16;
      Lanes = 1;
      return true;
    }
    if (Tok == "f16x2") {
      P = Precision::F16;
      Lanes = 2;
      return true;
    }
    if (Tok == "bf16") {
      P = Precision::BF16;
      Lanes = 1;
      return true;
    }
    if (Tok == "bf16x2") {
      P = Precision::BF16;
      Lanes = 2;
      return true;
    }
    return false;
  };
  if (Base == "cvt") {
    for (size_t I = T.size(); I-- > 1;)
      if (Parse(T[I]))
        break;
  } else {
    for (size_t I = 1; I < T.size(); ++I)
      if (Parse(T[I]))
        break;
  }
  if (Base == "ld" || Base == "st" || Base == "atom" || Base == "red") {
    MemSpace S = MemSpace::Generic;
    uint64_t Vec = 1, Bits = 0;
    for (StringRef Tok : T) {
      if (Tok == "global")
        S = MemSpace::Global;
      else if (Tok == "shared" || Tok.starts_with("shared::"))
        S = MemSpace::Shared;
      else if (Tok == "local")
        S = MemSpace::Local;
      else if (Tok == "const")
        S = MemSpace::Constant;
      else if (Tok == "v2")
        Vec = 2;
      else if (Tok == "v4")
        Vec = 4;
      else if (Tok == "v8")
        Vec = 8;
      else if (Tok.size() >= 2 &&
               (Tok[0] == 'b' || Tok[0] == 'u' || Tok[0] == 's' || Tok[0] == 'f')) {
        uint64_t B = 0;
        if (!Tok.drop_front().getAsInteger(10, B))
          Bits = B;
        else if (Tok == "f16x2" || Tok == "bf16x2")
          Bits = 32;
      }
    }
    if (!Bits)
      return false;
    MemDir D = Base == "ld" ? MemDir::Load : Base == "st" ? MemDir::Store : MemDir::Atomic;
    if (S == MemSpace::Generic)
      Out.Unknown.push_back("inline asm generic access '" + Op.str() +
                            "' (counted under bytes.generic)");
    Out.add(bytesIndex(S, D), Vec * Bits / 8);
    return true;
  }
  if (!P) {
    // Integer arithmetic (e.g. libdevice's "mad.lo.cc.u32"): no FLOPs, no
    // memory.
    static const char *IntOps[] = {"add",  "addc", "sub",   "subc",  "mul",  "mad",
                                   "madc", "min",  "max",   "abs",   "neg",  "div",
                                   "rem",  "sad",  "mul24", "mad24", "dp4a", "dp2a"};
    bool IntType = false;
    for (StringRef Tok : T)
      IntType |= Tok.size() >= 2 && (Tok[0] == 'u' || Tok[0] == 's' || Tok[0] == 'b') &&
                 std::all_of(Tok.begin() + 1, Tok.end(), ::isdigit);
    return IntType && std::any_of(std::begin(IntOps), std::end(IntOps),
                                  [&](const char *O) { return Base == O; });
  }
  if (Base == "add" || Base == "sub" || Base == "mul") {
    if (T.size() > 1 && (T[1] == "hi" || T[1] == "lo" || T[1] == "wide"))
      return false; // integer forms
    Out.add(flopsIndex(*P), Lanes);
  } else if (Base == "fma" || Base == "mad") {
    Out.add(flopsIndex(*P), 2 * Lanes);
  } else if (Base == "div") {
    Out.add(specialIndex(*P, SpecialOp::Div), Lanes);
  } else if (Base == "sqrt") {
    Out.add(specialIndex(*P, SpecialOp::Sqrt), Lanes);
  } else if (Base == "rcp") {
    Out.add(specialIndex(*P, SpecialOp::Rcp), Lanes);
  } else if (Base == "rsqrt") {
    Out.add(specialIndex(*P, SpecialOp::Rsqrt), Lanes);
  } else if (Base == "ex2" || Base == "lg2" || Base == "sin" || Base == "cos" || Base == "tanh") {
    Out.add(specialIndex(*P, SpecialOp::Transcendental), Lanes);
  } else if (Base == "neg" || Base == "abs" || Base == "min" || Base == "max" || Base == "cvt" ||
             Base == "setp" || Base == "set" || Base == "testp" || Base == "copysign" ||
             Base == "selp") {
    Out.add(otherIndex(*P), Lanes);
  } else {
    return false;
  }
  return true;
}

} // namespace

MemSpace resolveMemSpace(const Value *Ptr) { return resolvePointer(Ptr, 0); }

void countInlineAsm(StringRef Asm, BlockCounts &Out, const CallBase *CB) {
  SmallVector<StringRef, 16> Stmts;
  Asm.split(Stmts, ';');
  for (StringRef S : Stmts) {
    S = S.trim(" \t\r\n{}");
    // Drop lines that are only declarations or labels, and predicate guards.
    SmallVector<StringRef, 4> Lines;
    S.split(Lines, '\n');
    for (StringRef L : Lines) {
      L = L.trim(" \t\r{}");
      if (L.empty() || L.starts_with("//") || L.starts_with(".reg") || L.ends_with(":"))
        continue;
      bool Predicated = L.starts_with("@");
      if (Predicated)
        L = L.drop_until([](char C) { return C == ' ' || C == '\t'; }).trim();
      StringRef Op = L.take_until([](char C) { return C == ' ' || C == '\t'; });
      if (Op.starts_with("mma.sync") || Op.starts_with("wmma.mma")) {
        countMatrixOp(Op, 32, Op.starts_with("wmma"), Out);
      } else if (Op.starts_with("wgmma.mma_async")) {
        countMatrixOp(Op, 128, false, Out);
      } else if (auto MM = matrixMove(Op)) {
        addMatrixMove(*MM, L, Out);
      } else if (Op.starts_with("cp.async.bulk") || Op.starts_with("cp.reduce.async.bulk")) {
        countBulkAsm(Op, L, CB, Out);
      } else if (Op.starts_with("cp.async.ca.shared.global") ||
                 Op.starts_with("cp.async.cg.shared.global")) {
        // cp.async.cg.shared.global [dst], [src], 16;  size is the 3rd operand
        StringRef Args = L.drop_front(Op.size());
        SmallVector<StringRef, 4> Parts;
        Args.split(Parts, ',');
        uint64_t Bytes = 0;
        if (auto Size = Parts.size() >= 3 ? asmConstant(Parts[2], CB) : std::nullopt) {
          Bytes = *Size;
          Out.add(bytesIndex(MemSpace::Global, MemDir::Load), Bytes);
          Out.add(bytesIndex(MemSpace::Shared, MemDir::Store), Bytes);
        } else {
          Out.Unknown.push_back("inline asm '" + L.str() + "': copy size not a constant");
        }
      } else if (BlockCounts One; countAsmArithmeticOrMemory(Op, One)) {
        // FP arithmetic or a plain load/store, counted. A predicated one may
        // not execute: counted as executed, and the count is not exact.
        bool Any = false;
        for (int K = 0; K < NumCounters; ++K) {
          Out.Counts[K] += One.Counts[K];
          Any |= One.Counts[K] != 0;
        }
        Out.Unknown.insert(Out.Unknown.end(), One.Unknown.begin(), One.Unknown.end());
        if (Predicated && Any)
          Out.Unknown.push_back("predicated inline asm '" + L.str() +
                                "' counted as always executed");
      } else if (Op.starts_with("tcgen05")) {
        Out.Unknown.push_back("unmodeled tcgen05 instruction '" + L.str() + "'");
      } else if (Op.starts_with("mov") || Op.starts_with("bar") || Op.starts_with("fence") ||
                 Op.starts_with("membar") || Op.starts_with("wgmma.fence") ||
                 Op.starts_with("wgmma.commit") || Op.starts_with("wgmma.wait") ||
                 Op.starts_with("cp.async.commit") || Op.starts_with("cp.async.wait") ||
                 Op.starts_with("setmaxnreg") || Op.starts_with("griddepcontrol") ||
                 Op.starts_with("elect") || Op.starts_with("activemask") ||
                 Op.starts_with("nanosleep") || Op.starts_with("trap") || Op.starts_with("exit") ||
                 Op.starts_with("prefetch") || Op.starts_with("createpolicy") ||
                 Op.starts_with("shfl") || Op.starts_with("vote") || Op.starts_with("cvt") ||
                 Op.starts_with("setp") || Op.starts_with("selp") || Op.starts_with("and") ||
                 Op.starts_with("or") || Op.starts_with("xor") || Op.starts_with("not") ||
                 Op.starts_with("brev") || Op.starts_with("popc") || Op.starts_with("clz") ||
                 Op.starts_with("bfe") || Op.starts_with("bfi") || Op.starts_with("prmt") ||
                 Op.starts_with("lop3") || Op.starts_with("shf") || Op.starts_with("shl") ||
                 Op.starts_with("shr")) {
        // No FLOPs and no memory access.
      } else {
        Out.Unknown.push_back("unparsed inline asm '" + L.str() + "'");
      }
    }
  }
}

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
    // (measured: docs/validation/expansion-h100.md).
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
