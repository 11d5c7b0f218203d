//===- PtxCounting.cpp - PTX instructions counted by name -----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The part of the counting model (docs/counting-model.md) that reads PTX
// instruction names, as NVVM intrinsic names and inline-asm strings spell
// them: Tensor Core matrix operations (mma, wmma, wgmma), matrix moves
// (ldmatrix, stmatrix), asynchronous and bulk copies, and the FP arithmetic
// and loads/stores that headers such as cuda_fp16.h write as inline asm.
// Called by Counting.cpp (countCall, countInstruction).
//===----------------------------------------------------------------------===//
#include "PtxCounting.h"
#include "ShflPredicate.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
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

/// A PTX FP type token: its precision and lanes (f16x2: 2). False for others
/// (ftz and integer types included).
bool fpTypeToken(StringRef Tok, std::optional<Precision> &P, uint64_t &Lanes) {
  static const struct {
    const char *Tok;
    Precision P;
    uint64_t Lanes;
  } Types[] = {{"f64", Precision::F64, 1},   {"f32", Precision::F32, 1},
               {"f16", Precision::F16, 1},   {"f16x2", Precision::F16, 2},
               {"bf16", Precision::BF16, 1}, {"bf16x2", Precision::BF16, 2}};
  for (const auto &E : Types)
    if (Tok == E.Tok) {
      P = E.P;
      Lanes = E.Lanes;
      return true;
    }
  return false;
}

/// What an ld/st/atom/red opcode's tokens say: the space (generic when none
/// is named) and the bytes per lane, vector width x element bits / 8 (0
/// when no type token says the width).
struct AsmMemoryShape {
  MemSpace Space = MemSpace::Generic;
  MemDir Dir = MemDir::Load;
  uint64_t Bytes = 0;
};
AsmMemoryShape asmMemoryShape(StringRef Base, const SmallVectorImpl<StringRef> &T) {
  AsmMemoryShape Shape;
  uint64_t Vec = 1, Bits = 0;
  for (StringRef Tok : T) {
    if (Tok == "global")
      Shape.Space = MemSpace::Global;
    else if (Tok == "shared" || Tok.starts_with("shared::"))
      Shape.Space = MemSpace::Shared;
    else if (Tok == "local")
      Shape.Space = MemSpace::Local;
    else if (Tok == "const")
      Shape.Space = MemSpace::Constant;
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
  Shape.Dir = Base == "ld" ? MemDir::Load : Base == "st" ? MemDir::Store : MemDir::Atomic;
  Shape.Bytes = Vec * Bits / 8;
  return Shape;
}

/// ld/st/atom/red in inline asm: bytes = vector width x element bits / 8 in
/// the space the opcode names (generic: counted under bytes.generic, inexact).
bool countAsmMemory(StringRef Op, StringRef Base, const SmallVectorImpl<StringRef> &T,
                    BlockCounts &Out) {
  AsmMemoryShape Shape = asmMemoryShape(Base, T);
  if (!Shape.Bytes)
    return false;
  if (Shape.Space == MemSpace::Generic)
    Out.Unknown.push_back("inline asm generic access '" + Op.str() +
                          "' (counted under bytes.generic)");
  Out.add(bytesIndex(Shape.Space, Shape.Dir), Shape.Bytes);
  return true;
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
  auto Parse = [&](StringRef Tok) { return fpTypeToken(Tok, P, Lanes); };
  if (Base == "cvt") {
    for (size_t I = T.size(); I-- > 1;)
      if (Parse(T[I]))
        break;
  } else {
    for (size_t I = 1; I < T.size(); ++I)
      if (Parse(T[I]))
        break;
  }
  if (Base == "ld" || Base == "st" || Base == "atom" || Base == "red")
    return countAsmMemory(Op, Base, T, Out);
  // A texture fetch (clang's tex2D<T>() and friends are this asm): a TEX
  // instruction on the texture pipe, in neither the SASS byte counters nor
  // the LSU sectors that bytes.* and sectors.* equal, and no FLOP (H200:
  // test/gpu/counters/tex-bytes.sh). Its traffic is the counters'
  // l1tex__t_sectors_pipe_tex, outside the model (docs/counting-model.md).
  if (Base == "tex")
    return true;
  if (!P) {
    // Integer arithmetic (e.g. libdevice's "mad.lo.cc.u32", CUB's
    // "bmsk.clamp.b32", the SIMD video instructions "vmax4.s32.s32.s32" and
    // packed "min.u16x2"): no FLOPs, no memory.
    static const char *IntOps[] = {
        "add",   "addc",   "sub",  "subc",  "mul",   "mad",   "madc",   "min",   "max",
        "abs",   "neg",    "div",  "rem",   "sad",   "mul24", "mad24",  "dp4a",  "dp2a",
        "bmsk",  "bfind",  "fns",  "szext", "vadd",  "vsub",  "vabsdiff", "vmin", "vmax",
        "vshl",  "vshr",   "vmad", "vset",  "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2",
        "vmax2", "vset2",  "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4", "vset4"};
    // An integer type: s, u or b with a width, packed (x2, x4) or not.
    auto IntTypeToken = [](StringRef Tok) {
      if (Tok.size() < 2 || (Tok[0] != 'u' && Tok[0] != 's' && Tok[0] != 'b'))
        return false;
      StringRef Width = Tok.drop_front();
      if (Width.ends_with("x2") || Width.ends_with("x4"))
        Width = Width.drop_back(2);
      return !Width.empty() && std::all_of(Width.begin(), Width.end(), ::isdigit);
    };
    bool IntType = std::any_of(T.begin() + 1, T.end(), IntTypeToken);
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

bool countMatrixInstruction(StringRef Name, uint64_t LanesPerOp, bool F16IfNone, BlockCounts &Out) {
  return countMatrixOp(Name, LanesPerOp, F16IfNone, Out);
}

bool countMatrixMove(StringRef Op, BlockCounts &Out) {
  auto MM = matrixMove(Op);
  if (!MM)
    return false;
  addMatrixMove(*MM, Op, Out);
  return true;
}

bool countBulkCopyIntrinsic(const CallBase &CB, StringRef N, BlockCounts &Out) {
  return countBulkIntrinsic(CB, N, Out);
}

namespace {

/// Operand text of an asm instruction ("$2", "%2", "31") as an IR value.
const Value *asmOperand(StringRef Text, const CallBase &CB) {
  Text = Text.trim();
  uint64_t V = 0;
  if (!Text.getAsInteger(0, V))
    return ConstantInt::get(Type::getInt32Ty(CB.getContext()), V);
  unsigned N = 0;
  if ((Text.consume_front("$") || Text.consume_front("%")) && !Text.getAsInteger(10, N))
    return asmOperandValue(CB, N);
  return nullptr;
}

/// Predicates an asm statement sets from `shfl.sync.MODE.b32 d|p, a, b, c, m`.
class ShflPredicates {
public:
  /// Notes what line \p L (opcode \p Op) does to the predicates.
  void see(StringRef Op, StringRef L, const CallBase *CB) {
    SmallVector<StringRef, 6> Parts;
    L.drop_front(Op.size()).split(Parts, ',');
    SmallVector<StringRef, 2> Dests;
    Parts[0].split(Dests, '|');
    for (StringRef D : Dests)
      if (auto It = Known.find(D.trim()); It != Known.end())
        Known.erase(It);
    auto Mode = shflMode(Op);
    if (!Mode || !CB || Dests.size() != 2 || Parts.size() < 4)
      return;
    const Value *B = asmOperand(Parts[2], *CB), *C = asmOperand(Parts[3], *CB);
    if (!B || !C)
      return;
    ShflGuardedCounts &G = Known[Dests[1].trim().str()];
    G.Mode = *Mode;
    G.B = B;
    G.C = C;
  }
  /// The shuffle that sets guard \p Guard ("@p"; not "@!p"), or null.
  const ShflGuardedCounts *find(StringRef Guard) const {
    if (!Guard.consume_front("@") || Guard.starts_with("!"))
      return nullptr;
    auto It = Known.find(Guard.trim());
    return It == Known.end() ? nullptr : &It->second;
  }

private:
  std::map<std::string, ShflGuardedCounts, std::less<>> Known;
};

} // namespace

std::vector<AsmInstruction> asmInstructions(StringRef Asm) {
  std::vector<AsmInstruction> Out;
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
      StringRef Guard;
      if (L.starts_with("@")) {
        Guard = L.take_until([](char C) { return C == ' ' || C == '\t'; });
        L = L.drop_front(Guard.size()).trim();
      }
      StringRef Op = L.take_until([](char C) { return C == ' ' || C == '\t'; });
      Out.push_back({Guard, Op, L});
    }
  }
  return Out;
}

void countInlineAsm(StringRef Asm, BlockCounts &Out, const CallBase *CB) {
  ShflPredicates Shfl;
  for (const AsmInstruction &Ins : asmInstructions(Asm)) {
    StringRef Guard = Ins.Guard, Op = Ins.Op, L = Ins.Line;
    bool Predicated = !Guard.empty();
    const ShflGuardedCounts *ByShfl = Predicated ? Shfl.find(Guard) : nullptr;
    Shfl.see(Op, L, CB);
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
      // not execute: counted as executed, and the count is not exact,
      // unless a shuffle's lane predicate guards it (ShflPredicate.h).
      if (ByShfl && One.Unknown.empty()) {
        ShflGuardedCounts G = *ByShfl;
        G.Counts = One.Counts;
        G.Asm = CB;
        G.Line = L.str();
        Out.ShflGuarded.push_back(std::move(G));
        continue;
      }
      bool Any = false;
      for (int K = 0; K < NumCounters; ++K) {
        Out.Counts[K] += One.Counts[K];
        Any |= One.Counts[K] != 0;
      }
      Out.Unknown.insert(Out.Unknown.end(), One.Unknown.begin(), One.Unknown.end());
      if (Predicated && Any)
        Out.Unknown.push_back("predicated inline asm '" + L.str() + "' counted as always executed");
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

namespace {

/// The first "[A]" or "[A+C]" operand of \p Args on: A an asm operand ($N)
/// and C a constant. Returns the text after it.
StringRef readAddress(StringRef Args, const CallBase &CB, AsmAccess &X) {
  size_t Open = Args.find('['), Close = Args.find(']', Open);
  if (Open == StringRef::npos || Close == StringRef::npos) {
    X.Unmodelled = "inline asm '" + X.Line + "' has no [address] operand hroof reads";
    return "";
  }
  StringRef Inside = Args.slice(Open + 1, Close).trim(), Disp;
  size_t Sign = Inside.find_first_of("+-");
  if (Sign != StringRef::npos) {
    Disp = Inside.drop_front(Sign).trim();
    Inside = Inside.take_front(Sign).trim();
  }
  int64_t D = 0;
  bool DispRead = true;
  if (!Disp.empty()) {
    bool Negative = Disp.consume_front("-");
    Disp.consume_front("+");
    DispRead = !Disp.trim().getAsInteger(0, D);
    D = Negative ? -D : D;
  }
  unsigned N = 0;
  if (DispRead && (Inside.consume_front("$") || Inside.consume_front("%")) &&
      !Inside.getAsInteger(10, N))
    X.Address = asmOperandValue(CB, N);
  X.Displacement = D;
  if (!X.Address)
    X.Unmodelled = "the address of inline asm '" + X.Line +
                   "' is not an operand of the asm statement";
  return Args.drop_front(Close + 1);
}

} // namespace

std::vector<AsmAccess> asmAccesses(const CallBase &CB) {
  std::vector<AsmAccess> Out;
  StringRef Asm = cast<InlineAsm>(CB.getCalledOperand())->getAsmString();
  for (const AsmInstruction &Ins : asmInstructions(Asm)) {
    SmallVector<StringRef, 8> T;
    Ins.Op.split(T, '.');
    StringRef Args = Ins.Line.drop_front(Ins.Op.size());
    AsmAccess X;
    X.Predicated = !Ins.Guard.empty();
    X.Line = (X.Predicated ? Ins.Guard.str() + " " : "") + Ins.Line.str();
    if (T[0] == "ld" || T[0] == "st" || T[0] == "atom" || T[0] == "red") {
      AsmMemoryShape Shape = asmMemoryShape(T[0], T);
      if (!Shape.Bytes || Shape.Space == MemSpace::Constant)
        continue;
      X.Space = Shape.Space;
      X.Dir = Shape.Dir;
      X.Bytes = Shape.Bytes;
      readAddress(Args, CB, X);
      Out.push_back(std::move(X));
    } else if (auto MM = matrixMove(Ins.Op); MM && MM->BytesPerLane) {
      // Each lane names one 16-byte row; a row serves several lanes.
      X.Space = MemSpace::Shared;
      X.Dir = MM->Dir;
      X.Bytes = MM->BytesPerLane;
      readAddress(Args, CB, X);
      X.Unmodelled = "the lanes of '" + X.Line +
                     "' each name a 16-byte row that the instruction shares among lanes";
      Out.push_back(std::move(X));
    } else if (Ins.Op.starts_with("cp.async.ca.shared.global") ||
               Ins.Op.starts_with("cp.async.cg.shared.global")) {
      // cp.async.cg.shared.global [dst], [src], 16: a global load and a
      // shared store of the size operand (countInlineAsm counts the same).
      SmallVector<StringRef, 4> Parts;
      Args.split(Parts, ',');
      auto Size = Parts.size() >= 3 ? asmConstant(Parts[2], &CB) : std::nullopt;
      if (!Size)
        continue;
      X.AsyncCopy = true;
      AsmAccess Src = X;
      X.Space = MemSpace::Shared;
      X.Dir = MemDir::Store;
      X.Bytes = *Size;
      StringRef Rest = readAddress(Args, CB, X);
      Src.Space = MemSpace::Global;
      Src.Bytes = *Size;
      readAddress(Rest, CB, Src);
      Out.push_back(std::move(Src));
      Out.push_back(std::move(X));
    }
  }
  return Out;
}

} // namespace hroof
