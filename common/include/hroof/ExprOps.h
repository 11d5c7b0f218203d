//===- hroof/ExprOps.h - the operators of static-model expressions ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The one table of expression operators: their JSON names, operand counts and
// whether a bit width precedes the operands. The pass plugin writes
// expressions with these names (passes/ExprBuilder.cpp), and the reader and
// evaluator parse them (common/src/Expr.cpp), so a name cannot be spelled two
// ways. Plain C++ with no dependency: the plugin includes it without linking
// anything. The JSON form is described in hroof/Expr.h and
// docs/static-model.md.
//===----------------------------------------------------------------------===//
#ifndef HROOF_EXPROPS_H
#define HROOF_EXPROPS_H

#include <cstdint>

namespace hroof {

enum class ExprOp : uint8_t {
  Const,
  Arg,
  SReg,
  Add,
  Sub,
  Mul,
  And,
  Or,
  Xor,
  Shl,
  UDiv,
  SDiv,
  URem,
  SRem,
  LShr,
  AShr,
  SMin,
  SMax,
  UMin,
  UMax,
  ICmp,
  Not,
  Select,
  SExt,
  ZExt,
  Max,
  Min,
  CeilDiv,
  BitLen,
  IterVar, ///< ["ivar", I]: the iteration index bound by the enclosing sum I
  Sum,     ///< ["sum", I, Lo, Hi, Body]: Body summed over ivar I in [Lo, Hi)
  Field    ///< ["field", I, OFF, W]: a W-bit integer at byte OFF of by-value argument I
};

/// Sum and iteration index ids are below this.
inline constexpr int64_t MaxIterVarId = 1 << 20;

enum class CmpPred : uint8_t { EQ, NE, SLT, SLE, SGT, SGE, ULT, ULE, UGT, UGE };

/// One operator of the JSON form. Const, Arg, SReg, ICmp and Field have forms
/// of their own (a number, ["arg", I], ["sreg", "tid.x"],
/// ["icmp", PRED, W, A, B], ["field", I, OFF, W]).
struct ExprOpInfo {
  const char *Name;
  ExprOp Op;
  int NumOps;    ///< expression operands
  bool HasWidth; ///< a bit width precedes the operands
};

inline constexpr ExprOpInfo ExprOpTable[] = {
    {"add", ExprOp::Add, 2, false},       {"sub", ExprOp::Sub, 2, false},
    {"mul", ExprOp::Mul, 2, false},       {"and", ExprOp::And, 2, false},
    {"or", ExprOp::Or, 2, false},         {"xor", ExprOp::Xor, 2, false},
    {"shl", ExprOp::Shl, 2, false},       {"udiv", ExprOp::UDiv, 2, true},
    {"sdiv", ExprOp::SDiv, 2, true},      {"urem", ExprOp::URem, 2, true},
    {"srem", ExprOp::SRem, 2, true},      {"lshr", ExprOp::LShr, 2, true},
    {"ashr", ExprOp::AShr, 2, true},      {"smin", ExprOp::SMin, 2, true},
    {"smax", ExprOp::SMax, 2, true},      {"umin", ExprOp::UMin, 2, true},
    {"umax", ExprOp::UMax, 2, true},      {"not", ExprOp::Not, 1, false},
    {"select", ExprOp::Select, 3, false}, {"sext", ExprOp::SExt, 1, true},
    {"zext", ExprOp::ZExt, 1, true},      {"max", ExprOp::Max, 2, false},
    {"min", ExprOp::Min, 2, false},       {"ceildiv", ExprOp::CeilDiv, 2, false},
    {"bitlen", ExprOp::BitLen, 1, false},
};

/// The table row of \p Op, or nullptr for Const, Arg, SReg, ICmp, IterVar,
/// Sum and Field (forms of their own).
inline constexpr const ExprOpInfo *exprOpInfo(ExprOp Op) {
  for (const ExprOpInfo &I : ExprOpTable)
    if (I.Op == Op)
      return &I;
  return nullptr;
}

/// The JSON name of \p Op ("add", "udiv", ...; "arg", "sreg", "icmp", "ivar",
/// "sum", "field" for those).
inline constexpr const char *exprOpName(ExprOp Op) {
  switch (Op) {
  case ExprOp::Arg:
    return "arg";
  case ExprOp::SReg:
    return "sreg";
  case ExprOp::ICmp:
    return "icmp";
  case ExprOp::IterVar:
    return "ivar";
  case ExprOp::Sum:
    return "sum";
  case ExprOp::Field:
    return "field";
  default:
    break;
  }
  const ExprOpInfo *I = exprOpInfo(Op);
  return I ? I->Name : "?";
}

inline constexpr const char *CmpPredNames[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                               "sge", "ult", "ule", "ugt", "uge"};
inline constexpr const char *predName(CmpPred P) { return CmpPredNames[int(P)]; }

/// Special-register names in SReg order (hroof/Expr.h).
inline constexpr const char *SRegNames[] = {"tid", "ntid", "ctaid", "nctaid"};

} // namespace hroof

#endif // HROOF_EXPROPS_H
