//===- StaticReport.cpp - evaluate and print static models ----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "StaticReport.h"
#include "Toolchain.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
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
      throw UserError("bad " + What + " '" + S + "': expected X[,Y[,Z]] with positive integers");
    D[I++] = V;
  }
  if (I == 0)
    throw UserError("bad " + What + " '" + S + "': expected X[,Y[,Z]]");
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
      throw UserError("bad " + What + " '" + Text + "': " + Axis[I] + " is " +
                      std::to_string(D[I]) + ", above CUDA's limit of " + std::to_string(Max));
  }
  if (IsBlock && D[0] * D[1] * D[2] > 1024)
    throw UserError("bad " + What + " '" + Text + "': " + std::to_string(D[0] * D[1] * D[2]) +
                    " threads per block, above CUDA's limit of 1024");
}

LaunchShape parseLaunchShape(const std::string &Grid, const std::string &Block) {
  LaunchShape Shape{parseDims(Grid, "--grid"), parseDims(Block, "--block")};
  checkLaunchLimits(Shape.Grid, "--grid", Grid, /*IsBlock=*/false);
  checkLaunchLimits(Shape.Block, "--block", Block, /*IsBlock=*/true);
  return Shape;
}

/// An --arg value for integer parameter \p P: an integer that fits its width
/// (as a signed or an unsigned number: the IR type does not say which).
static int64_t parseIntegerArg(const ModelParam &P, const std::string &Value) {
  char *End = nullptr;
  errno = 0;
  long long V = std::strtoll(Value.c_str(), &End, 0);
  if (Value.empty() || *End || errno)
    throw UserError("--arg " + P.Name + "=" + Value + ": '" + Value +
                    "' is not an integer (parameter " + P.Name + " is " + P.Type + ")");
  if (P.Bits > 0 && P.Bits < 64) {
    long long Min = -(1LL << (P.Bits - 1)), Max = (1LL << P.Bits) - 1;
    if (V < Min || V > Max)
      throw UserError("--arg " + P.Name + "=" + Value + ": " + Value + " does not fit parameter " +
                      P.Name + " of type " + P.Type + " (" + std::to_string(Min) + " to " +
                      std::to_string(Max) + ")");
  }
  return V;
}

/// An --arg value for a pointer parameter: an address (only its alignment
/// enters the warp-level model).
static uint64_t parsePointerArg(const ModelParam &P, const std::string &Value) {
  char *End = nullptr;
  errno = 0;
  unsigned long long V = std::strtoull(Value.c_str(), &End, 0);
  if (Value.empty() || *End || errno || Value[0] == '-')
    throw UserError("--arg " + P.Name + "=" + Value + ": '" + Value +
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
    R.Warp = evaluateWarpTraffic(K.Accesses, *Req.Shape, Env, Pointers, ArgNames);
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
      int64_t V = parseIntegerArg(Field, Value);
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
    if (!K.Params[I].IsInteger)
      continue; // values of FP parameters never enter the model
    Env.Args[I] = parseIntegerArg(K.Params[I], Value);
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
