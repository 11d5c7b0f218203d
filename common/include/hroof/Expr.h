//===- hroof/Expr.h - launch-time expressions of the static model --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The static model (written by the hroof pass, read by `hroof static` and the
// runtime) describes counts as products of expressions over a kernel's integer
// arguments and the PTX special registers (tid, ntid, ctaid, nctaid). This file
// parses those expressions from their JSON form and evaluates them.
//
// JSON form (docs/static-model.md): a number is a constant; otherwise an array
// whose first element names the operation:
//   ["arg", I]                          kernel (or device function) argument I
//   ["field", I, OFF, W]                the W-bit integer (W = 8, 16, 32 or 64) stored
//                                       little-endian at byte OFF of kernel argument I, a
//                                       struct passed by value that the kernel never
//                                       writes: a launch-time constant like an argument
//                                       (read sign-extended, as integer arguments are);
//                                       its value is given as NAME+OFF (e.g. "p+4")
//   ["sreg", "tid.x"]                   tid|ntid|ctaid|nctaid . x|y|z
//   ["add"|"mul"|"sub"|"and"|"or"|"xor"|"shl", A, B]   two's complement, wraps
//   ["udiv"|"sdiv"|"urem"|"srem"|"lshr"|"ashr", W, A, B]  at bit width W
//   ["smin"|"smax"|"umin"|"umax", W, A, B]
//   ["icmp", PRED, W, A, B]             PRED one of eq ne slt sle sgt sge ult ule ugt uge; 0 or 1
//   ["not", A]                          1 - (A != 0)
//   ["select", C, A, B]
//   ["sext"|"zext", W, A]               extend from W bits
//   ["max"|"min", A, B], ["ceildiv", A, B]   exact integer math (int64)
//   ["bitlen", A]                       floor(log2(A)) + 1 for A > 0, else 0 (the trip
//                                       counts of loops that shift their variable)
//   ["sum", I, LO, HI, BODY]            BODY summed over the iteration index I = LO .. HI-1
//                                       (0 when HI <= LO): the iterations of a loop
//                                       whose trip count or branches depend on it
//   ["ivar", I]                         the iteration index of the enclosing sum I
// Values are int64 holding the low bits of the IR value; operations that
// depend on the width (compares, division, extension) name it, so evaluation
// is exact modulo 2^W like the IR itself.
//===----------------------------------------------------------------------===//
#ifndef HROOF_EXPR_H
#define HROOF_EXPR_H

#include "hroof/ExprOps.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace hroof {

/// Thrown for malformed expressions and for values that cannot be evaluated
/// (a missing argument, a division by zero).
struct ExprError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class SReg : uint8_t { Tid, NTid, CtaId, NCtaId };

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

/// A field of a by-value struct argument that an expression reads
/// (["field", Arg, Off, Bits]).
struct FieldRef {
  int Arg = 0;
  int64_t Off = 0;
  int Bits = 32;
  bool operator<(const FieldRef &O) const {
    return std::tie(Arg, Off, Bits) < std::tie(O.Arg, O.Off, O.Bits);
  }
  bool operator==(const FieldRef &O) const {
    return Arg == O.Arg && Off == O.Off && Bits == O.Bits;
  }
};

/// How a field is named to the user and in `--arg`: "NAME+OFF" ("p+4"),
/// NAME the argument's name (from \p ArgNames where known, else "argI").
std::string fieldName(const FieldRef &F, const std::vector<std::string> *ArgNames);

/// The value of field \p F in the bytes of its argument (\p Bytes, \p Size
/// bytes): its Bits/8 bytes at Off, little-endian, sign-extended; nullopt
/// when they lie outside the argument.
std::optional<int64_t> readField(const FieldRef &F, const void *Bytes, size_t Size);

/// Values of the special registers of one thread, plus the kernel arguments.
struct EvalEnv {
  std::array<int64_t, 3> Tid{}, NTid{1, 1, 1}, CtaId{}, NCtaId{1, 1, 1};
  /// Argument values; HasArg[i] false means "not given".
  std::vector<int64_t> Args;
  std::vector<bool> HasArg;
  /// Names used in error messages ("n" rather than "argument 0").
  std::vector<std::string> ArgNames;
  /// Values of the fields of by-value arguments (sign-extended from their
  /// width); a field not here is "not given".
  std::map<FieldRef, int64_t> FieldVals;
  /// Iteration indices of the sums being evaluated (by sum id), and the
  /// iterations summed so far: a sum is walked one iteration at a time, so
  /// MaxSumSteps keeps an evaluation from running for minutes (ExprError).
  mutable std::vector<int64_t> IterVals;
  mutable std::vector<bool> IterBound;
  mutable uint64_t SumSteps = 0;
  uint64_t MaxSumSteps = uint64_t(1) << 28;
};

struct Expr {
  ExprOp Op = ExprOp::Const;
  CmpPred Pred = CmpPred::EQ;
  int Width = 64;       ///< bit width for width-sensitive operations
  int64_t Imm = 0;      ///< constant value, argument index, sum / iteration index id
  int64_t Off = 0;      ///< for Field: the byte offset in the argument (Imm, Width: its index, bits)
  SReg Reg = SReg::Tid; ///< for SReg
  int Dim = 0;          ///< for SReg: 0=x 1=y 2=z
  std::vector<ExprPtr> Ops;

  static ExprPtr parse(const nlohmann::json &J);
  /// parse(), where ["ivar", I] for I in \p Open may also stand outside a
  /// sum: its value is bound by the caller (a warp access's enumerated loop).
  static ExprPtr parse(const nlohmann::json &J, const std::vector<int64_t> &Open);
  static ExprPtr constant(int64_t V);
  nlohmann::json toJson() const;
  /// Human-readable infix form, e.g. "max(0, n - (ctaid.x*ntid.x + tid.x))";
  /// every operator shows, extensions with the width they read
  /// ("zext<i2>(deg)": the low 2 bits of deg, a truncation in the IR).
  std::string str(const std::vector<std::string> *ArgNames = nullptr) const;

  int64_t eval(const EvalEnv &Env) const;

  /// Bit mask of the thread-varying registers used: bit d for tid.d, bit 3+d
  /// for ctaid.d.
  unsigned threadVarMask() const;
  /// Arguments referenced (indices).
  void collectArgs(std::vector<int> &Out) const;
  /// Fields of by-value arguments referenced.
  void collectFields(std::vector<FieldRef> &Out) const;
  FieldRef fieldRef() const { return {int(Imm), Off, Width}; }
  /// Whether a ["sum", ...] occurs in this expression.
  bool containsSum() const;
  bool isConst() const { return Op == ExprOp::Const; }

private:
  static ExprPtr parseNode(const nlohmann::json &J);
  int64_t evalSum(const EvalEnv &Env) const;
};

/// \p E with every subexpression that reads no thread or block index, no
/// iteration index and no sum replaced by its value at \p Env (arguments,
/// ntid, nctaid: the same in every thread of a launch). A subexpression that
/// cannot be evaluated (an argument not given, a division by zero) is kept,
/// so the folded expression evaluates, or fails, as \p E does in every
/// thread; it only costs less to evaluate thread by thread.
ExprPtr foldLaunchUniform(const ExprPtr &E, const EvalEnv &Env);

/// Truncates \p V to \p W bits and sign- or zero-extends back to 64.
int64_t sextBits(int64_t V, int W);
int64_t zextBits(int64_t V, int W);
bool evalPred(CmpPred P, int W, int64_t A, int64_t B);

} // namespace hroof

#endif // HROOF_EXPR_H
