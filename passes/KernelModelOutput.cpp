//===- KernelModelOutput.cpp - the static model printed and written as JSON ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The outputs of KernelModelAnalysis (KernelModel.h): print<hroof-kernels>
// (terms and reasons, for lit tests: opt -passes='print<hroof-kernels>'),
// the model as JSON (modelToJson, also embedded by the instrumentation) and
// the -hroof-static-json / HROOF_STATIC_JSON file that `hroof static` reads,
// and the warning that a module was compiled at -O0.
//===----------------------------------------------------------------------===//
#include "KernelModel.h"
#include "hroof/StaticModelKeys.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>

using namespace llvm;

static cl::opt<std::string>
    StaticJsonPath("hroof-static-json",
                   cl::desc("hroof: write the static model of the device "
                            "module to this JSON file (%a: GPU architecture)"),
                   cl::init(""));

namespace hroof {

static std::string typeName(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

static std::string countsToString(const CountVector &C) {
  std::string S;
  for (int I = 0; I < NumCounters; ++I) {
    if (!C[I])
      continue;
    char Key[64];
    counterKeyString(I, Key, sizeof Key);
    S += (S.empty() ? "" : " ") + std::string(Key) + "=" + std::to_string(C[I]);
  }
  return S;
}

PreservedAnalyses KernelModelPrinter::run(Module &M, ModuleAnalysisManager &MAM) {
  auto &Model = MAM.getResult<KernelModelAnalysis>(M);
  for (auto &[F, FM] : Model) {
    OS << "kernel " << F->getName() << " '" << demangle(F->getName().str()) << "'\n";
    OS << "  exact: " << (FM.exact() ? "yes" : "no") << "\n";
    for (const std::string &U : FM.Unknown)
      OS << "  unknown: " << U << "\n";
    for (const std::string &C : FM.Callees)
      OS << "  calls: " << C << "\n";
    for (const IRModelTerm &T : FM.Terms) {
      OS << "  term " << T.Where << ": " << countsToString(T.Counts) << " x ";
      if (T.Factors.empty())
        OS << "1";
      for (size_t I = 0; I < T.Factors.size(); ++I)
        OS << (I ? " * " : "") << exprToString(T.Factors[I], F);
      OS << "\n";
    }
  }
  return PreservedAnalyses::all();
}

json::Value modelToJson(const Module &M, const IRModuleModel &Model) {
  json::Array Kernels;
  std::string Arch;
  for (auto &[F, FM] : Model) {
    if (Arch.empty() && F->hasFnAttribute("target-cpu"))
      Arch = F->getFnAttribute("target-cpu").getValueAsString().str();
    json::Array Params;
    for (const Argument &A : F->args())
      Params.push_back(json::Object{
          {model_keys::Name, A.hasName() ? A.getName().str() : "arg" + std::to_string(A.getArgNo())},
          {model_keys::Type, typeName(A.getType())}});
    json::Array Terms;
    for (const IRModelTerm &T : FM.Terms) {
      json::Object Counts;
      for (int I = 0; I < NumCounters; ++I)
        if (T.Counts[I]) {
          char Key[64];
          counterKeyString(I, Key, sizeof Key);
          Counts[std::string(Key)] = int64_t(T.Counts[I]);
        }
      json::Array Factors;
      for (const JExpr &E : T.Factors)
        Factors.push_back(E);
      json::Object Term{
          {model_keys::Where, T.Where}, {model_keys::Counts, std::move(Counts)}, {model_keys::Factors, std::move(Factors)}};
      if (T.Guarded)
        Term[model_keys::Guarded] = true;
      if (T.Unbounded)
        Term[model_keys::Unbounded] = true;
      Terms.push_back(std::move(Term));
    }
    json::Array Unknown, Callees, Accesses, WarpUnknown;
    for (const IRWarpAccess &W : FM.Accesses)
      Accesses.push_back(warpAccessToJson(W));
    for (const std::string &U : FM.WarpUnknown)
      WarpUnknown.push_back(U);
    for (const std::string &U : FM.Unknown)
      Unknown.push_back(U);
    json::Array NoUpperBound;
    for (const std::string &U : FM.NoUpperBound)
      NoUpperBound.push_back(U);
    for (const std::string &C : FM.Callees)
      Callees.push_back(C);
    Kernels.push_back(json::Object{{model_keys::Name, demangle(F->getName().str())},
                                   {model_keys::Mangled, F->getName()},
                                   {model_keys::Exact, FM.exact()},
                                   {model_keys::Unknown, std::move(Unknown)},
                                   {model_keys::NoUpperBound, std::move(NoUpperBound)},
                                   {model_keys::Functions, std::move(Callees)},
                                   {model_keys::Params, std::move(Params)},
                                   {model_keys::Terms, std::move(Terms)},
                                   {model_keys::Accesses, std::move(Accesses)},
                                   {model_keys::WarpUnknown, std::move(WarpUnknown)}});
  }
  return json::Object{{model_keys::Version, 1},
                      {model_keys::Source, M.getSourceFileName()},
                      {model_keys::Arch, Arch},
                      {model_keys::Kernels, std::move(Kernels)}};
}

void warnIfUnoptimized(Module &M) {
  // clang marks every function optnone at -O0 (the device compile too): the
  // IR then keeps every local in an alloca and loops in their source form.
  const Function *Kernel = nullptr;
  for (const Function &F : M)
    if (F.getCallingConv() == CallingConv::PTX_Kernel && !F.isDeclaration() &&
        F.hasOptNone())
      Kernel = &F;
  // Once per compile: the analysis may run again after the instrumentation.
  const char *Warned = "hroof.warned.unoptimized";
  if (!Kernel || M.getNamedMetadata(Warned))
    return;
  M.getOrInsertNamedMetadata(Warned);
  M.getContext().diagnose(DiagnosticInfoGeneric(
      "hroof: " + M.getSourceFileName() +
          ": device code compiled without optimization (-O0, optnone): the static model of "
          "its kernels is poor (locals counted as local-memory traffic, loops hroof cannot "
          "count); compile device code with -O2 (-Xarch_device -O2 keeps the host at -O0)",
      DS_Warning)); // shown by default; -Wno-backend-plugin silences it

}

PreservedAnalyses StaticModelWriter::run(Module &M, ModuleAnalysisManager &MAM) {
  if (DeviceOnly && !Triple(M.getTargetTriple()).isNVPTX())
    return PreservedAnalyses::all();
  std::string Path = StaticJsonPath;
  if (Path.empty())
    if (const char *E = std::getenv("HROOF_STATIC_JSON"))
      Path = E;
  if (Path.empty())
    return PreservedAnalyses::all();
  auto &Model = MAM.getResult<KernelModelAnalysis>(M);
  json::Value J = modelToJson(M, Model);
  std::string Arch = json::Object(*J.getAsObject()).getString("arch")->str();
  for (size_t P; (P = Path.find("%a")) != std::string::npos;)
    Path.replace(P, 2, Arch);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC) {
    M.getContext().emitError("hroof: cannot write static model to '" + Path + "': " + EC.message());
    return PreservedAnalyses::all();
  }
  OS << formatv("{0:2}", J) << "\n";
  return PreservedAnalyses::all();
}

} // namespace hroof
