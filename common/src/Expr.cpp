//===- Expr.cpp - parse and evaluate static-model expressions -------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hroof/Expr.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace hroof {

int64_t sextBits(int64_t V, int W) {
  if (W >= 64)
    return V;
  uint64_t U = uint64_t(V) & ((uint64_t(1) << W) - 1);
  uint64_t Sign = uint64_t(1) << (W - 1);
  return int64_t((U ^ Sign) - Sign);
}

int64_t zextBits(int64_t V, int W) {
  if (W >= 64)
    return V;
  return int64_t(uint64_t(V) & ((uint64_t(1) << W) - 1));
}

bool evalPred(CmpPred P, int W, int64_t A, int64_t B) {
  int64_t SA = sextBits(A, W), SB = sextBits(B, W);
  uint64_t UA = uint64_t(zextBits(A, W)), UB = uint64_t(zextBits(B, W));
  switch (P) {
  case CmpPred::EQ:
    return UA == UB;
  case CmpPred::NE:
    return UA != UB;
  case CmpPred::SLT:
    return SA < SB;
  case CmpPred::SLE:
    return SA <= SB;
  case CmpPred::SGT:
    return SA > SB;
  case CmpPred::SGE:
    return SA >= SB;
  case CmpPred::ULT:
    return UA < UB;
  case CmpPred::ULE:
    return UA <= UB;
  case CmpPred::UGT:
    return UA > UB;
  case CmpPred::UGE:
    return UA >= UB;
  }
  return false;
}

namespace {
int parseWidth(const nlohmann::json &J) {
  if (!J.is_number_integer() || J.get<int>() < 1 || J.get<int>() > 64)
    throw ExprError("bad bit width in expression: " + J.dump());
  return J.get<int>();
}

// Floor division and modulo for int64 (C++ truncates toward zero).
int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  if ((A % B != 0) && ((A < 0) != (B < 0)))
    --Q;
  return Q;
}
} // namespace

ExprPtr Expr::constant(int64_t V) {
  auto E = std::make_shared<Expr>();
  E->Imm = V;
  return E;
}

ExprPtr foldLaunchUniform(const ExprPtr &E, const EvalEnv &Env) {
  if (!E || E->isConst())
    return E;
  bool Varying = E->Op == ExprOp::IterVar || E->Op == ExprOp::Sum ||
                 (E->Op == ExprOp::SReg && (E->Reg == SReg::Tid || E->Reg == SReg::CtaId));
  std::vector<ExprPtr> Ops;
  bool Changed = false, AllConst = true;
  for (const ExprPtr &O : E->Ops) {
    Ops.push_back(foldLaunchUniform(O, Env));
    Changed |= Ops.back() != O;
    AllConst &= Ops.back()->isConst();
  }
  if (!Varying && AllConst) {
    try {
      return Expr::constant(E->eval(Env));
    } catch (const ExprError &) {
      // kept: evaluating it in a thread raises the same error
    }
  }
  if (!Changed)
    return E;
  auto Copy = std::make_shared<Expr>(*E);
  Copy->Ops = std::move(Ops);
  return Copy;
}

ExprPtr Expr::parseNode(const nlohmann::json &J) {
  if (J.is_number_integer())
    return constant(J.get<int64_t>());
  if (J.is_number_unsigned())
    return constant(int64_t(J.get<uint64_t>()));
  if (!J.is_array() || J.empty() || !J[0].is_string())
    throw ExprError("malformed expression: " + J.dump());
  std::string Name = J[0].get<std::string>();
  auto E = std::make_shared<Expr>();
  if (Name == "arg") {
    if (J.size() != 2 || !J[1].is_number_integer() || J[1].get<int>() < 0)
      throw ExprError("malformed arg expression: " + J.dump());
    E->Op = ExprOp::Arg;
    E->Imm = J[1].get<int64_t>();
    return E;
  }
  if (Name == "field") {
    auto Int = [&](size_t K, int64_t Lo, int64_t Hi) {
      return J[K].is_number_integer() && J[K].get<int64_t>() >= Lo && J[K].get<int64_t>() <= Hi;
    };
    if (J.size() != 4 || !Int(1, 0, INT32_MAX) || !Int(2, 0, INT32_MAX) || !Int(3, 8, 64) ||
        J[3].get<int>() % 8 != 0)
      throw ExprError("malformed field expression: " + J.dump());
    E->Op = ExprOp::Field;
    E->Imm = J[1].get<int64_t>();
    E->Off = J[2].get<int64_t>();
    E->Width = J[3].get<int>();
    return E;
  }
  if (Name == "sreg") {
    if (J.size() != 2 || !J[1].is_string())
      throw ExprError("malformed sreg expression: " + J.dump());
    std::string S = J[1].get<std::string>();
    auto Dot = S.find('.');
    if (Dot == std::string::npos || Dot + 2 != S.size() || S[Dot + 1] < 'x' || S[Dot + 1] > 'z')
      throw ExprError("unknown special register: " + S);
    std::string R = S.substr(0, Dot);
    int I = 0;
    for (; I < 4; ++I)
      if (R == SRegNames[I])
        break;
    if (I == 4)
      throw ExprError("unknown special register: " + S);
    E->Op = ExprOp::SReg;
    E->Reg = SReg(I);
    E->Dim = S[Dot + 1] - 'x';
    return E;
  }
  if (Name == "ivar" || Name == "sum") {
    bool IsSum = Name == "sum";
    if (J.size() != (IsSum ? 5u : 2u) || !J[1].is_number_integer() || J[1].get<int64_t>() < 0 ||
        J[1].get<int64_t>() >= MaxIterVarId)
      throw ExprError("malformed " + Name + " expression: " + J.dump());
    E->Op = IsSum ? ExprOp::Sum : ExprOp::IterVar;
    E->Imm = J[1].get<int64_t>();
    if (IsSum)
      E->Ops = {parseNode(J[2]), parseNode(J[3]), parseNode(J[4])};
    return E;
  }
  if (Name == "icmp") {
    if (J.size() != 5 || !J[1].is_string())
      throw ExprError("malformed icmp expression: " + J.dump());
    std::string P = J[1].get<std::string>();
    int I = 0;
    for (; I < 10; ++I)
      if (P == CmpPredNames[I])
        break;
    if (I == 10)
      throw ExprError("unknown icmp predicate: " + P);
    E->Op = ExprOp::ICmp;
    E->Pred = CmpPred(I);
    E->Width = parseWidth(J[2]);
    E->Ops = {parseNode(J[3]), parseNode(J[4])};
    return E;
  }
  for (const ExprOpInfo &I : ExprOpTable) {
    if (Name != I.Name)
      continue;
    size_t Expected = 1 + (I.HasWidth ? 1 : 0) + I.NumOps;
    if (J.size() != Expected)
      throw ExprError("wrong operand count for '" + Name + "': " + J.dump());
    E->Op = I.Op;
    size_t K = 1;
    if (I.HasWidth)
      E->Width = parseWidth(J[K++]);
    for (; K < J.size(); ++K)
      E->Ops.push_back(parseNode(J[K]));
    return E;
  }
  throw ExprError("unknown expression operation '" + Name + "'");
}

namespace {
/// Throws unless every ["ivar", I] of \p E lies inside a ["sum", I, ...].
void checkIterVarsBound(const Expr &E, std::vector<int64_t> &Open) {
  if (E.Op == ExprOp::IterVar && std::find(Open.begin(), Open.end(), E.Imm) == Open.end())
    throw ExprError("iteration index k" + std::to_string(E.Imm) + " outside a sum over it");
  if (E.Op == ExprOp::Sum) {
    checkIterVarsBound(*E.Ops[0], Open);
    checkIterVarsBound(*E.Ops[1], Open);
    Open.push_back(E.Imm);
    checkIterVarsBound(*E.Ops[2], Open);
    Open.pop_back();
    return;
  }
  for (const ExprPtr &O : E.Ops)
    checkIterVarsBound(*O, Open);
}
} // namespace

ExprPtr Expr::parse(const nlohmann::json &J) { return parse(J, {}); }

ExprPtr Expr::parse(const nlohmann::json &J, const std::vector<int64_t> &Open) {
  ExprPtr E = parseNode(J);
  std::vector<int64_t> Bound = Open;
  checkIterVarsBound(*E, Bound);
  return E;
}

nlohmann::json Expr::toJson() const {
  using nlohmann::json;
  switch (Op) {
  case ExprOp::Const:
    return Imm;
  case ExprOp::Arg:
    return json::array({"arg", Imm});
  case ExprOp::Field:
    return json::array({"field", Imm, Off, Width});
  case ExprOp::SReg:
    return json::array({"sreg", std::string(SRegNames[int(Reg)]) + "." + char('x' + Dim)});
  case ExprOp::ICmp:
    return json::array({"icmp", predName(Pred), Width, Ops[0]->toJson(), Ops[1]->toJson()});
  case ExprOp::IterVar:
    return json::array({"ivar", Imm});
  case ExprOp::Sum:
    return json::array({"sum", Imm, Ops[0]->toJson(), Ops[1]->toJson(), Ops[2]->toJson()});
  default:
    break;
  }
  const ExprOpInfo *I = exprOpInfo(Op);
  json A = json::array({I->Name});
  if (I->HasWidth)
    A.push_back(Width);
  for (const ExprPtr &O : Ops)
    A.push_back(O->toJson());
  return A;
}

std::string Expr::str(const std::vector<std::string> *ArgNames) const {
  auto S = [&](int I) { return Ops[I]->str(ArgNames); };
  switch (Op) {
  case ExprOp::Const:
    return std::to_string(Imm);
  case ExprOp::Arg:
    if (ArgNames && Imm < int64_t(ArgNames->size()) && !(*ArgNames)[Imm].empty())
      return (*ArgNames)[Imm];
    return "arg" + std::to_string(Imm);
  case ExprOp::Field:
    return fieldName(fieldRef(), ArgNames);
  case ExprOp::SReg:
    return std::string(SRegNames[int(Reg)]) + "." + char('x' + Dim);
  case ExprOp::Add:
    return "(" + S(0) + " + " + S(1) + ")";
  case ExprOp::Sub:
    return "(" + S(0) + " - " + S(1) + ")";
  case ExprOp::Mul:
    return S(0) + "*" + S(1);
  case ExprOp::ICmp:
    return "[" + S(0) + " " + predName(Pred) + " " + S(1) + "]";
  case ExprOp::Not:
    return "!" + S(0);
  case ExprOp::Select:
    return "(" + S(0) + " ? " + S(1) + " : " + S(2) + ")";
  case ExprOp::SExt:
  case ExprOp::ZExt:
    // The width is the operator: zext<i2>(deg) is deg & 3 (a truncation).
    return std::string(exprOpName(Op)) + "<i" + std::to_string(Width) + ">(" + S(0) + ")";
  case ExprOp::IterVar:
    return "k" + std::to_string(Imm);
  case ExprOp::Sum:
    return "sum(k" + std::to_string(Imm) + " in [" + S(0) + ", " + S(1) + "): " + S(2) + ")";
  default:
    break;
  }
  const ExprOpInfo *I = exprOpInfo(Op);
  std::string R = std::string(I->Name) + "(";
  for (size_t K = 0; K < Ops.size(); ++K)
    R += (K ? ", " : "") + Ops[K]->str(ArgNames);
  return R + ")";
}

int64_t Expr::eval(const EvalEnv &Env) const {
  switch (Op) {
  case ExprOp::Const:
    return Imm;
  case ExprOp::Arg:
    if (Imm >= int64_t(Env.Args.size()) || (Imm < int64_t(Env.HasArg.size()) && !Env.HasArg[Imm])) {
      std::string N = Imm < int64_t(Env.ArgNames.size()) && !Env.ArgNames[Imm].empty()
                          ? Env.ArgNames[Imm]
                          : "arg" + std::to_string(Imm);
      throw ExprError("the value of argument '" + N + "' is needed");
    }
    return Env.Args[Imm];
  case ExprOp::Field: {
    auto It = Env.FieldVals.find(fieldRef());
    if (It == Env.FieldVals.end())
      throw ExprError("the value of field '" + fieldName(fieldRef(), &Env.ArgNames) + "' (" +
                      std::to_string(Width / 8) + " bytes at offset " + std::to_string(Off) +
                      " of the by-value argument) is needed");
    return It->second;
  }
  case ExprOp::SReg:
    switch (Reg) {
    case SReg::Tid:
      return Env.Tid[Dim];
    case SReg::NTid:
      return Env.NTid[Dim];
    case SReg::CtaId:
      return Env.CtaId[Dim];
    case SReg::NCtaId:
      return Env.NCtaId[Dim];
    }
    return 0;
  case ExprOp::IterVar:
    if (size_t(Imm) >= Env.IterBound.size() || !Env.IterBound[size_t(Imm)])
      throw ExprError("iteration index k" + std::to_string(Imm) + " outside its sum");
    return Env.IterVals[size_t(Imm)];
  case ExprOp::Sum:
    return evalSum(Env);
  default:
    break;
  }
  int64_t A = Ops[0]->eval(Env);
  if (Op == ExprOp::Not)
    return A == 0 ? 1 : 0;
  if (Op == ExprOp::SExt)
    return sextBits(A, Width);
  if (Op == ExprOp::ZExt)
    return zextBits(A, Width);
  if (Op == ExprOp::BitLen) // bits of a positive value: floor(log2(A)) + 1; 0 for A <= 0
    return A <= 0 ? 0 : 64 - __builtin_clzll(uint64_t(A));
  if (Op == ExprOp::Select)
    return A != 0 ? Ops[1]->eval(Env) : Ops[2]->eval(Env);
  if (Op == ExprOp::Mul && A == 0)
    return 0; // a failed guard: what it multiplies (a sum) need not run
  int64_t B = Ops[1]->eval(Env);
  uint64_t UA = uint64_t(A), UB = uint64_t(B);
  int W = Width;
  switch (Op) {
  case ExprOp::Add:
    return int64_t(UA + UB);
  case ExprOp::Sub:
    return int64_t(UA - UB);
  case ExprOp::Mul:
    return int64_t(UA * UB);
  case ExprOp::And:
    return A & B;
  case ExprOp::Or:
    return A | B;
  case ExprOp::Xor:
    return A ^ B;
  case ExprOp::Shl:
    return (UB >= 64) ? 0 : int64_t(UA << UB);
  case ExprOp::ICmp:
    return evalPred(Pred, W, A, B) ? 1 : 0;
  case ExprOp::UDiv:
  case ExprOp::URem: {
    uint64_t X = zextBits(A, W), Y = zextBits(B, W);
    if (Y == 0)
      throw ExprError("division by zero in expression " + str());
    return int64_t(Op == ExprOp::UDiv ? X / Y : X % Y);
  }
  case ExprOp::SDiv:
  case ExprOp::SRem: {
    int64_t X = sextBits(A, W), Y = sextBits(B, W);
    if (Y == 0)
      throw ExprError("division by zero in expression " + str());
    return Op == ExprOp::SDiv ? X / Y : X % Y;
  }
  case ExprOp::LShr: {
    uint64_t S = zextBits(B, W);
    return S >= uint64_t(W) ? 0 : int64_t(uint64_t(zextBits(A, W)) >> S);
  }
  case ExprOp::AShr: {
    uint64_t S = zextBits(B, W);
    int64_t X = sextBits(A, W);
    return S >= uint64_t(W) ? (X < 0 ? -1 : 0) : (X >> S);
  }
  case ExprOp::SMin:
    return sextBits(A, W) <= sextBits(B, W) ? A : B;
  case ExprOp::SMax:
    return sextBits(A, W) >= sextBits(B, W) ? A : B;
  case ExprOp::UMin:
    return uint64_t(zextBits(A, W)) <= uint64_t(zextBits(B, W)) ? A : B;
  case ExprOp::UMax:
    return uint64_t(zextBits(A, W)) >= uint64_t(zextBits(B, W)) ? A : B;
  case ExprOp::Max:
    return A >= B ? A : B;
  case ExprOp::Min:
    return A <= B ? A : B;
  case ExprOp::CeilDiv:
    if (B <= 0)
      throw ExprError("non-positive divisor in " + str());
    return -floorDiv(-A, B);
  default:
    break;
  }
  throw ExprError("cannot evaluate expression " + str());
}

int64_t Expr::evalSum(const EvalEnv &Env) const {
  int64_t Lo = Ops[0]->eval(Env), Hi = Ops[1]->eval(Env);
  if (Hi <= Lo)
    return 0;
  uint64_t N = uint64_t(Hi) - uint64_t(Lo);
  if (N > Env.MaxSumSteps || Env.SumSteps > Env.MaxSumSteps - N)
    throw ExprError("a sum over a loop's iterations needs more than " +
                    std::to_string(Env.MaxSumSteps) + " steps: " + str());
  Env.SumSteps += N;
  size_t Id = size_t(Imm);
  if (Env.IterVals.size() <= Id) {
    Env.IterVals.resize(Id + 1);
    Env.IterBound.resize(Id + 1);
  }
  // Restored on the way out (also by an exception): the same sum may be
  // evaluated again, inside another one.
  struct Restore {
    const EvalEnv &Env;
    size_t Id;
    int64_t Val;
    bool Bound;
    ~Restore() {
      Env.IterVals[Id] = Val;
      Env.IterBound[Id] = Bound;
    }
  } R{Env, Id, Env.IterVals[Id], Env.IterBound[Id]};
  Env.IterBound[Id] = true;
  __int128 Total = 0;
  for (int64_t K = Lo; K < Hi; ++K) {
    Env.IterVals[Id] = K;
    Total += Ops[2]->eval(Env);
    if (Total > INT64_MAX || Total < INT64_MIN)
      throw ExprError("a sum over a loop's iterations exceeds 64 bits: " + str());
  }
  return int64_t(Total);
}

unsigned Expr::threadVarMask() const {
  if (Op == ExprOp::SReg) {
    if (Reg == SReg::Tid)
      return 1u << Dim;
    if (Reg == SReg::CtaId)
      return 1u << (3 + Dim);
    return 0;
  }
  unsigned M = 0;
  for (const ExprPtr &O : Ops)
    M |= O->threadVarMask();
  return M;
}

bool Expr::containsSum() const {
  if (Op == ExprOp::Sum)
    return true;
  for (const ExprPtr &O : Ops)
    if (O->containsSum())
      return true;
  return false;
}

void Expr::collectFields(std::vector<FieldRef> &Out) const {
  if (Op == ExprOp::Field) {
    Out.push_back(fieldRef());
    return;
  }
  for (const ExprPtr &O : Ops)
    O->collectFields(Out);
}

std::string fieldName(const FieldRef &F, const std::vector<std::string> *ArgNames) {
  std::string Arg = ArgNames && F.Arg < int(ArgNames->size()) && !(*ArgNames)[F.Arg].empty()
                        ? (*ArgNames)[F.Arg]
                        : "arg" + std::to_string(F.Arg);
  return Arg + "+" + std::to_string(F.Off);
}

std::optional<int64_t> readField(const FieldRef &F, const void *Bytes, size_t Size) {
  size_t N = size_t(F.Bits) / 8;
  if (!Bytes || F.Off < 0 || N == 0 || N > 8 || uint64_t(F.Off) > Size || N > Size - size_t(F.Off))
    return std::nullopt;
  uint64_t Raw = 0;
  for (size_t I = 0; I < N; ++I) // little-endian, whatever the host's order
    Raw |= uint64_t(static_cast<const unsigned char *>(Bytes)[size_t(F.Off) + I]) << (8 * I);
  return sextBits(int64_t(Raw), F.Bits);
}

void Expr::collectArgs(std::vector<int> &Out) const {
  if (Op == ExprOp::Arg) {
    Out.push_back(int(Imm));
    return;
  }
  for (const ExprPtr &O : Ops)
    O->collectArgs(Out);
}

} // namespace hroof
