//===- StaticReport.cpp - evaluate and print static models ----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "StaticReport.h"
#include "Settings.h"
#include "Toolchain.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <sstream>

namespace hroof {

std::array<int64_t, 3> parseDims(const std::string &S, const std::string &What) {
  std::array<int64_t, 3> D{1, 1, 1};
  std::stringstream SS(S);
  std::string Part;
  int I = 0;
  while (std::getline(SS, Part, ',')) {
    char *End = nullptr;
    long long V = std::strtoll(Part.c_str(), &End, 0);
    if (I >= 3 || Part.empty() || *End || V < 1)
      throw UsageError("bad " + What + " '" + S + "': expected X[,Y[,Z]] with positive integers");
    D[I++] = V;
  }
  if (I == 0)
    throw UsageError("bad " + What + " '" + S + "': expected X[,Y[,Z]]");
  return D;
}

/// CUDA's limits on a launch (the CUDA C++ Programming Guide's table of
/// technical specifications, the same on every compute capability since 3.0):
/// a launch outside them never runs, so a model of it means nothing.
static void checkLaunchLimits(const std::array<int64_t, 3> &D, const std::string &What,
                              const std::string &Text, bool IsBlock) {
  static const char *Axis[3] = {"x", "y", "z"};
  const int64_t GridMax[3] = {2147483647, 65535, 65535};
  const int64_t BlockMax[3] = {1024, 1024, 64};
  for (int I = 0; I < 3; ++I) {
    int64_t Max = IsBlock ? BlockMax[I] : GridMax[I];
    if (D[I] > Max)
      throw UsageError("bad " + What + " '" + Text + "': " + Axis[I] + " is " +
                      std::to_string(D[I]) + ", above CUDA's limit of " + std::to_string(Max));
  }
  if (IsBlock && D[0] * D[1] * D[2] > 1024)
    throw UsageError("bad " + What + " '" + Text + "': " + std::to_string(D[0] * D[1] * D[2]) +
                    " threads per block, above CUDA's limit of 1024");
}

LaunchShape parseLaunchShape(const std::string &Grid, const std::string &Block) {
  LaunchShape Shape{parseDims(Grid, "--grid"), parseDims(Block, "--block")};
  checkLaunchLimits(Shape.Grid, "--grid", Grid, /*IsBlock=*/false);
  checkLaunchLimits(Shape.Block, "--block", Block, /*IsBlock=*/true);
  return Shape;
}

namespace {

/// How the model reads an integer value (an argument or a field) at its own
/// width. The IR type ("i32") does not say whether the source type was signed:
/// the operations that read it do (sext, a signed compare, division, shift or
/// min/max for `int`; their unsigned forms for `unsigned`).
struct IntReading {
  bool Signed = false, Unsigned = false;
};

enum class ReadAs : uint8_t { Neither, Signed, Unsigned };

/// Records in \p R how the leaves \p IsLeaf (each with its width) are read in
/// \p E, which its parent reads as \p As at width \p W. Wrapping arithmetic
/// passes the parent's reading to its operands: `(int)(n + 1) < m` reads n as
/// signed too.
void noteReadings(const Expr &E, ReadAs As, int W,
                  const std::function<int(const Expr &)> &IsLeaf, IntReading &R) {
  if (int Bits = IsLeaf(E)) {
    if (Bits == W && As == ReadAs::Signed)
      R.Signed = true;
    if (Bits == W && As == ReadAs::Unsigned)
      R.Unsigned = true;
    return;
  }
  auto All = [&](ReadAs A, int Width) {
    for (const ExprPtr &O : E.Ops)
      if (O)
        noteReadings(*O, A, Width, IsLeaf, R);
  };
  // Shifts: the shifted value is read as A at width Width, the amount not.
  auto FirstThenRest = [&](ReadAs A, int Width) {
    for (size_t I = 0; I < E.Ops.size(); ++I)
      if (E.Ops[I])
        noteReadings(*E.Ops[I], I == 0 ? A : ReadAs::Neither, Width, IsLeaf, R);
  };
  switch (E.Op) {
  case ExprOp::Add:
  case ExprOp::Sub:
  case ExprOp::Mul:
  case ExprOp::And:
  case ExprOp::Or:
  case ExprOp::Xor:
    return All(As, W);
  case ExprOp::Shl:
    return FirstThenRest(As, W);
  case ExprOp::Select:
    for (size_t I = 0; I < E.Ops.size(); ++I)
      if (E.Ops[I])
        noteReadings(*E.Ops[I], I == 0 ? ReadAs::Neither : As, W, IsLeaf, R);
    return;
  case ExprOp::SExt:
  case ExprOp::SDiv:
  case ExprOp::SRem:
  case ExprOp::SMin:
  case ExprOp::SMax:
    return All(ReadAs::Signed, E.Width);
  case ExprOp::ZExt:
  case ExprOp::UDiv:
  case ExprOp::URem:
  case ExprOp::UMin:
  case ExprOp::UMax:
    return All(ReadAs::Unsigned, E.Width);
  case ExprOp::AShr:
    return FirstThenRest(ReadAs::Signed, E.Width);
  case ExprOp::LShr:
    return FirstThenRest(ReadAs::Unsigned, E.Width);
  case ExprOp::ICmp: {
    bool IsSigned = E.Pred == CmpPred::SLT || E.Pred == CmpPred::SLE || E.Pred == CmpPred::SGT ||
                    E.Pred == CmpPred::SGE;
    bool IsEquality = E.Pred == CmpPred::EQ || E.Pred == CmpPred::NE;
    return All(IsEquality  ? ReadAs::Neither
               : IsSigned ? ReadAs::Signed
                          : ReadAs::Unsigned,
               E.Width);
  }
  default: // exact int64 math on values already extended; leaves
    return All(ReadAs::Neither, 64);
  }
}

/// How \p K's terms and warp-level accesses read the leaves \p IsLeaf.
IntReading readingIn(const KernelModel &K, const std::function<int(const Expr &)> &IsLeaf) {
  IntReading R;
  auto Visit = [&](const ExprPtr &E) {
    if (E)
      noteReadings(*E, ReadAs::Neither, 64, IsLeaf, R);
  };
  for (const ModelTerm &T : K.Terms)
    for (const ExprPtr &F : T.Factors)
      Visit(F);
  for (const WarpAccess &A : K.Accesses)
    forEachAccessExpr(A, Visit);
  return R;
}

std::string rangeText(__int128 Lo, __int128 Hi) {
  return std::to_string(int64_t(Lo)) + " to " +
         (Hi > INT64_MAX ? std::to_string(uint64_t(Hi)) : std::to_string(int64_t(Hi)));
}

} // namespace

/// An --arg value for integer parameter \p P, which the kernel's model reads
/// as \p How: an integer in the range of its type, signed or unsigned as the
/// model reads it (either range when the model reads it both ways or in
/// neither), or its bits in hexadecimal; returned as the runtime holds an
/// argument: its low P.Bits bits, sign-extended.
static int64_t parseIntegerArg(const ModelParam &P, const std::string &Value,
                               const IntReading &How) {
  char *End = nullptr;
  errno = 0;
  __int128 V = std::strtoll(Value.c_str(), &End, 0);
  if (errno == ERANGE && !Value.empty() && Value[0] != '-') {
    // Above INT64_MAX: only an unsigned 64-bit parameter takes it.
    errno = 0;
    V = std::strtoull(Value.c_str(), &End, 0);
  }
  bool Beyond64 = errno == ERANGE; // an integer, but wider than any parameter
  if (Value.empty() || *End || (errno && !Beyond64))
    throw UsageError("--arg " + P.Name + "=" + Value + ": '" + Value +
                     "' is not an integer (parameter " + P.Name + " is " + P.Type + ")");
  unsigned Bits = P.Bits > 0 && P.Bits <= 64 ? P.Bits : 64;
  __int128 SMin = -(__int128(1) << (Bits - 1)), SMax = (__int128(1) << (Bits - 1)) - 1,
           UMax = (__int128(1) << Bits) - 1;
  bool SignedOnly = How.Signed && !How.Unsigned, UnsignedOnly = How.Unsigned && !How.Signed;
  // 0x... gives the parameter's bits, whichever way they are read: a decimal
  // value the model would read as another number (3000000000 for an `int`)
  // is refused, and each bit pattern can still be written.
  bool GivesBits = Value.size() > 2 && Value[0] == '0' && (Value[1] == 'x' || Value[1] == 'X');
  bool Fits = Beyond64       ? false
              : GivesBits    ? V >= 0 && V <= UMax
              : SignedOnly   ? V >= SMin && V <= SMax
              : UnsignedOnly ? V >= 0 && V <= UMax
                             : V >= SMin && V <= UMax;
  if (!Fits) {
    std::ostringstream Hex;
    Hex << "0x" << std::hex << uint64_t(UMax);
    std::string Range =
        SignedOnly     ? "signed, as the model reads it: " + rangeText(SMin, SMax)
        : UnsignedOnly ? "unsigned, as the model reads it: " + rangeText(0, UMax)
                       : rangeText(SMin, SMax) + " signed or " + rangeText(0, UMax) +
                             " unsigned; the model " +
                             (How.Signed ? "reads it both ways" : "does not say which");
    Range += "; or its bits in hexadecimal, 0x0 to " + Hex.str();
    bool IsField = P.Name.find('+') != std::string::npos; // "p+4"
    throw UsageError("--arg " + P.Name + "=" + Value + ": " + Value + " does not fit " +
                     (IsField ? "field " : "parameter ") + P.Name + " of type " + P.Type + " (" +
                     Range + ")");
  }
  return Bits < 64 ? sextBits(int64_t(V), int(Bits)) : int64_t(uint64_t(V));
}

/// An --arg value for a pointer parameter: an address (only its alignment
/// enters the warp-level model).
static uint64_t parsePointerArg(const ModelParam &P, const std::string &Value) {
  char *End = nullptr;
  errno = 0;
  unsigned long long V = std::strtoull(Value.c_str(), &End, 0);
  if (Value.empty() || *End || errno || Value[0] == '-')
    throw UsageError("--arg " + P.Name + "=" + Value + ": '" + Value +
                     "' is not an address (parameter " + P.Name +
                    " is a pointer; e.g. 0x7f0000000100)");
  return V;
}

/// Warp-level traffic of the launch, when the model lists accesses and every
/// argument their addresses and multiplicities use is given.
static void evaluateWarp(const KernelModel &K, const LaunchRequest &Req, const EvalEnv &Env,
                         const PointerValues &Pointers, KernelResult &R) {
  if (!K.WarpUnknown.empty()) {
    R.WarpProblem = "not modelled: " + K.WarpUnknown.front();
    return;
  }
  std::vector<int> Needed;
  std::vector<FieldRef> NeededFields;
  for (const WarpAccess &A : K.Accesses)
    forEachAccessExpr(A, [&](const ExprPtr &E) {
      if (E) {
        E->collectArgs(Needed);
        E->collectFields(NeededFields);
      }
    });
  std::string Missing;
  for (int I : Needed)
    if (I >= int(Env.HasArg.size()) || !Env.HasArg[I])
      if (Missing.find(K.Params[I].Name) == std::string::npos)
        Missing += (Missing.empty() ? "" : ", ") + K.Params[I].Name;
  std::vector<std::string> ArgNames;
  for (const ModelParam &P : K.Params)
    ArgNames.push_back(P.Name);
  for (const FieldRef &F : NeededFields)
    if (!Env.FieldVals.count(F) && Missing.find(fieldName(F, &ArgNames)) == std::string::npos)
      Missing += (Missing.empty() ? "" : ", ") + fieldName(F, &ArgNames);
  if (!Missing.empty()) {
    R.WarpProblem = "needs --arg for: " + Missing;
    return;
  }
  try {
    WarpModelOptions Opts;
    std::string Limit = setting(Setting::WarpEvalLimit);
    if (!Limit.empty()) {
      char *End = nullptr;
      Opts.MaxLaneEvaluations = std::strtoull(Limit.c_str(), &End, 10);
      if (*End)
        throw ExprError("HROOF_WARP_EVAL_LIMIT is not a number: '" + Limit + "'");
    }
    R.Warp = evaluateWarpTraffic(K.Accesses, *Req.Shape, Env, Pointers, ArgNames, Opts);
  } catch (const ExprError &E) {
    R.WarpProblem = E.what();
  }
}

KernelResult evaluateForLaunch(const KernelModel &K, const LaunchRequest &Req) {
  KernelResult R;
  R.Kernel = &K;
  EvalEnv Env;
  Env.Args.assign(K.Params.size(), 0);
  Env.HasArg.assign(K.Params.size(), false);
  PointerValues Pointers;
  for (const auto &[Name, Value] : Req.Args) {
    if (std::vector<FieldRef> Fs = findFields(K, Name); !Fs.empty()) {
      // A field of a by-value argument ("p+4"), read at each width the model reads it.
      ModelParam Field{Name, "i" + std::to_string(Fs.back().Bits), true, unsigned(Fs.back().Bits)};
      IntReading How = readingIn(K, [&](const Expr &E) {
        return E.Op == ExprOp::Field && std::count(Fs.begin(), Fs.end(), E.fieldRef()) ? E.Width
                                                                                        : 0;
      });
      int64_t V = parseIntegerArg(Field, Value, How);
      for (const FieldRef &F : Fs)
        Env.FieldVals[F] = sextBits(V, F.Bits);
      continue;
    }
    int I = findParam(K, Name);
    if (I < 0)
      continue; // another kernel's parameter; unknown names are caught earlier
    if (K.Params[I].Type == "ptr") {
      Pointers.resize(K.Params.size());
      Pointers[I] = parsePointerArg(K.Params[I], Value);
      // The counts may compare it with null (`if (bias != nullptr)`).
      Env.Args[I] = int64_t(*Pointers[I]);
      Env.HasArg[I] = true;
      continue;
    }
    if (!K.Params[I].IsInteger) {
      // Values of FP parameters never enter the model, but a value that is
      // no number is still a mistake worth saying.
      char *End = nullptr;
      std::strtod(Value.c_str(), &End);
      if (Value.empty() || *End)
        throw UsageError("--arg " + Name + "=" + Value + ": '" + Value +
                         "' is not a number (parameter " + Name + " is " + K.Params[I].Type +
                         "; its value does not enter the model)");
      continue;
    }
    IntReading How = readingIn(K, [&](const Expr &E) {
      return E.Op == ExprOp::Arg && E.Imm == I ? int(K.Params[I].Bits) : 0;
    });
    Env.Args[I] = parseIntegerArg(K.Params[I], Value, How);
    Env.HasArg[I] = true;
  }
  if (!Req.Shape) {
    R.Problem = "no launch shape (give --grid and --block)";
    return R;
  }
  std::string Missing;
  for (int I : neededArgs(K)) {
    if (I < int(Env.HasArg.size()) && !Env.HasArg[I] && K.Params[I].Type == "ptr") {
      // A pointer the counts compare: what the host passes, an allocation,
      // unless told otherwise; distinct per parameter (the arrays apart).
      Env.Args[I] = int64_t(0x100000000) * (I + 1);
      Env.HasArg[I] = true;
      R.Assumes.push_back("pointer " + K.Params[I].Name +
                          " is not null (an allocation); give its value (0 for null) to use another");
      continue;
    }
    if (I >= int(Env.HasArg.size()) || !Env.HasArg[I])
      Missing += (Missing.empty() ? "" : ", ") +
                 (I < int(K.Params.size()) ? K.Params[I].Name : "arg" + std::to_string(I));
  }
  std::vector<std::string> ArgNames;
  for (const ModelParam &P : K.Params)
    ArgNames.push_back(P.Name);
  std::string LastField;
  for (const FieldRef &F : neededFields(K))
    if (!Env.FieldVals.count(F) && fieldName(F, &ArgNames) != LastField) {
      LastField = fieldName(F, &ArgNames);
      Missing += (Missing.empty() ? "" : ", ") + LastField;
    }
  if (!Missing.empty()) {
    R.Problem = "needs --arg for: " + Missing;
    return R;
  }
  try {
    R.Total = evaluateKernel(K, *Req.Shape, Env);
    if (!K.Exact)
      R.Bounds = evaluateKernelBounds(K, *Req.Shape, Env);
  } catch (const ExprError &E) {
    R.Problem = E.what();
  }
  evaluateWarp(K, Req, Env, Pointers, R);
  return R;
}

u128 totalFlops(const TotalVector &T) {
  u128 S = 0;
  for (int I = FlopsBase; I < SpecialBase; ++I)
    S += T[I];
  return S;
}

u128 globalBytes(const TotalVector &T) {
  u128 S = 0;
  for (int D = 0; D < NumMemDirs; ++D)
    S += T[bytesIndex(MemSpace::Global, MemDir(D))];
  return S;
}

/// The warp-level block of the text output: exact counts, or [lo, hi].
static void printWarpText(std::ostream &OS, const KernelResult &R) {
  if (!R.Warp) {
    if (!R.WarpProblem.empty())
      OS << "  warp-level traffic: not evaluated: " << R.WarpProblem << "\n";
    return;
  }
  OS << "  warp-level traffic" << (R.Warp->exact() ? "  [exact]" : "  [bounds]") << ":\n";
  for (const auto &[Key, B] : R.Warp->Counts)
    OS << "    " << std::left << std::setw(34) << Key
       << (B.exact() ? u128ToString(B.Lo)
                     : "[" + u128ToString(B.Lo) + ", " + u128ToString(B.Hi) + "]")
       << "\n";
  for (const std::string &W : R.Warp->Inexact)
    OS << "    inexact: " << W << "\n";
  for (const std::string &A : R.Warp->Assumptions)
    OS << "    assumes: " << A << "\n";
  if (!R.Warp->FootprintNote.empty())
    OS << "    footprint: not evaluated: " << R.Warp->FootprintNote << "\n";
}

nlohmann::json warpResultToJson(const KernelResult &R) {
  if (R.Warp)
    return warpTrafficToJson(*R.Warp);
  // Without a total the launch was not evaluated at all (R.Problem says why).
  return {{"problem", !R.WarpProblem.empty() ? R.WarpProblem
                      : !R.Problem.empty()   ? R.Problem
                                             : "no launch"}};
}

/// The totals of a kernel that is not exact: [lo, hi] per counter, never
/// one number (lo: the terms whose multiplicity is known; hi: every term).
static void printBoundsText(std::ostream &OS, const TotalBounds &B) {
  OS << "  total (bounds: the model is not exact):\n";
  auto Cell = [&](u128 Lo, std::optional<u128> Hi) {
    return "[" + u128ToString(Lo) + ", " + (Hi ? u128ToString(*Hi) : std::string("no bound")) + "]";
  };
  for (int I = 0; I < NumThreadCounters; ++I)
    if (B.Lo[I] || B.Hi[I])
      OS << "    " << std::left << std::setw(34) << counterName(I)
         << Cell(B.Lo[I], B.HasHi[I] ? std::optional<u128>(B.Hi[I]) : std::nullopt) << "\n";
  bool FlopsBounded = true;
  for (int I = FlopsBase; I < SpecialBase; ++I)
    FlopsBounded &= B.HasHi[I];
  OS << "    " << std::left << std::setw(34) << "flops (all, tensor included)"
     << Cell(totalFlops(B.Lo), FlopsBounded ? std::optional<u128>(totalFlops(B.Hi)) : std::nullopt)
     << "\n";
  if (!B.allBounded())
    OS << "    no upper bound: " << B.NoHiBecause << "\n";
}

void printKernelText(std::ostream &OS, const KernelResult &R, bool ShowTerms) {
  const KernelModel &K = *R.Kernel;
  OS << "kernel " << K.Name << (K.Exact ? "  [exact]" : "  [not exact]") << "\n";
  for (const std::string &U : K.Unknown)
    OS << "  unknown: " << U << "\n";
  if (ShowTerms || !R.Total) {
    std::vector<std::string> Names;
    for (const ModelParam &P : K.Params)
      Names.push_back(P.Name);
    OS << "  per-thread counts x multiplicity:\n";
    for (const ModelTerm &T : K.Terms) {
      OS << "    ";
      bool First = true;
      for (int I = 0; I < NumCounters; ++I)
        if (T.Counts[I]) {
          OS << (First ? "" : " ") << counterName(I) << "=" << T.Counts[I];
          First = false;
        }
      OS << "  x ";
      if (T.Factors.empty())
        OS << "1";
      for (size_t I = 0; I < T.Factors.size(); ++I)
        OS << (I ? " * " : "") << T.Factors[I]->str(&Names);
      OS << "\n";
    }
  }
  if (!R.Total) {
    OS << "  total: not evaluated: " << R.Problem << "\n";
    return;
  }
  if (R.Bounds) {
    printBoundsText(OS, *R.Bounds);
  } else {
    OS << "  total:\n";
    for (int I = 0; I < NumCounters; ++I)
      if ((*R.Total)[I])
        OS << "    " << std::left << std::setw(34) << counterName(I) << u128ToString((*R.Total)[I])
           << "\n";
    u128 F = totalFlops(*R.Total), B = globalBytes(*R.Total);
    OS << "    " << std::left << std::setw(34) << "flops (all, tensor included)" << u128ToString(F)
       << "\n";
    if (B)
      OS << "    " << std::left << std::setw(34) << "AI (flops / global bytes)"
         << std::setprecision(4) << double(F) / double(B) << "\n";
  }
  for (const std::string &A : R.Assumes)
    OS << "    assumes: " << A << "\n";
  printWarpText(OS, R);
}

} // namespace hroof
