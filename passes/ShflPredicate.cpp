//===- ShflPredicate.cpp - inline asm guarded by a shuffle's lane predicate ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ShflPredicate.h"

#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace hroof {

std::optional<ShflMode> shflMode(StringRef Op) {
  if (!Op.consume_front("shfl.sync."))
    return std::nullopt;
  StringRef Mode = Op.take_until([](char C) { return C == '.'; });
  if (Mode == "up")
    return ShflMode::Up;
  if (Mode == "down")
    return ShflMode::Down;
  if (Mode == "bfly")
    return ShflMode::Bfly;
  if (Mode == "idx")
    return ShflMode::Idx;
  return std::nullopt;
}

namespace {

/// The PTX ISA's definition of p, written once over any value type T with
/// the operations the two users supply (JSON expressions or IR values).
template <typename T, typename Ops>
T shflValid(ShflMode Mode, T Lane, T B, T C, Ops &O) {
  T B5 = O.bitAnd(B, O.k(31));
  T Seg = O.bitAnd(O.lshr(C, O.k(8)), O.k(31));
  T NotSeg = O.bitXor(Seg, O.k(31));
  T MinLane = O.bitAnd(Lane, Seg);
  T MaxLane = O.bitOr(MinLane, O.bitAnd(O.bitAnd(C, O.k(31)), NotSeg));
  switch (Mode) {
  case ShflMode::Up:
    return O.sge(O.sub(Lane, B5), MaxLane);
  case ShflMode::Down:
    return O.sle(O.add(Lane, B5), MaxLane);
  case ShflMode::Bfly:
    return O.sle(O.bitXor(Lane, B5), MaxLane);
  case ShflMode::Idx:
    return O.sle(O.bitOr(MinLane, O.bitAnd(B5, NotSeg)), MaxLane);
  }
  return O.k(0);
}

/// And, or and xor have no width in the expression language (they act on
/// int64); the operands here are masked to 5 bits before they matter.
struct ExprOps {
  JExpr k(int64_t V) { return JExpr(V); }
  JExpr bitAnd(JExpr A, JExpr B) { return jOp(ExprOp::And, std::move(A), std::move(B)); }
  JExpr bitOr(JExpr A, JExpr B) { return jOp(ExprOp::Or, std::move(A), std::move(B)); }
  JExpr bitXor(JExpr A, JExpr B) { return jOp(ExprOp::Xor, std::move(A), std::move(B)); }
  JExpr lshr(JExpr A, JExpr B) { return jWOp(ExprOp::LShr, 32, std::move(A), std::move(B)); }
  JExpr add(JExpr A, JExpr B) { return jOp(ExprOp::Add, std::move(A), std::move(B)); }
  JExpr sub(JExpr A, JExpr B) { return jOp(ExprOp::Sub, std::move(A), std::move(B)); }
  JExpr sle(JExpr A, JExpr B) { return jCmp(CmpPred::SLE, 32, std::move(A), std::move(B)); }
  JExpr sge(JExpr A, JExpr B) { return jCmp(CmpPred::SGE, 32, std::move(A), std::move(B)); }
};

struct IROps {
  IRBuilder<> &B;
  Value *k(int64_t V) { return B.getInt32(uint32_t(V)); }
  Value *bitAnd(Value *X, Value *Y) { return B.CreateAnd(X, Y); }
  Value *bitOr(Value *X, Value *Y) { return B.CreateOr(X, Y); }
  Value *bitXor(Value *X, Value *Y) { return B.CreateXor(X, Y); }
  Value *lshr(Value *X, Value *Y) { return B.CreateLShr(X, Y); }
  Value *add(Value *X, Value *Y) { return B.CreateAdd(X, Y); }
  Value *sub(Value *X, Value *Y) { return B.CreateSub(X, Y); }
  Value *sle(Value *X, Value *Y) { return B.CreateICmpSLE(X, Y); }
  Value *sge(Value *X, Value *Y) { return B.CreateICmpSGE(X, Y); }
};

/// An operand as a 32-bit IR value (shuffle operands are .b32).
Value *asI32(IRBuilder<> &B, const Value *V) {
  return B.CreateZExtOrTrunc(const_cast<Value *>(V), B.getInt32Ty());
}

} // namespace

std::optional<JExpr> shflValidExpr(const ShflGuardedCounts &G, ExprBuilder &EB) {
  auto B = EB.build(G.B), C = EB.build(G.C);
  if (!B || !C)
    return std::nullopt;
  ExprOps O;
  return shflValid<JExpr>(G.Mode, laneIdExpr(), std::move(*B), std::move(*C), O);
}

Value *shflValidIR(IRBuilder<> &B, const ShflGuardedCounts &G) {
  IROps O{B};
  Value *Lane = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid, {});
  return shflValid<Value *>(G.Mode, Lane, asI32(B, G.B), asI32(B, G.C), O);
}

} // namespace hroof
