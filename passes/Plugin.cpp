//===- Plugin.cpp - hroof.so: registers every hroof pass ------------------===//
//
// One plugin, loadable both ways:
//   clang++ -fpass-plugin=build/lib/hroof.so -x cuda --cuda-gpu-arch=sm_90 ...
//     acts on the device compiles only (target triple nvptx64-nvidia-cuda), at
//     the end of the optimization pipeline; the host compile is untouched.
//   opt -load-pass-plugin=build/lib/hroof.so -passes='print<hroof-kernels>' ...
//
// Pass names: print<hroof-kernels>, hroof-static-json, hroof-instrument;
// analysis hroof-kernels.
//===----------------------------------------------------------------------===//
#include "Instrument.h"
#include "KernelModel.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

static bool isDeviceModule(const Module &M) {
  return Triple(M.getTargetTriple()).isNVPTX();
}

namespace {
/// Runs at OptimizerLastEP of every compile; acts on device modules only.
struct DeviceModuleHook : PassInfoMixin<DeviceModuleHook> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    if (!isDeviceModule(M))
      return PreservedAnalyses::all();
    hroof::StaticModelWriter().run(M, MAM);
    return hroof::InstrumentPass().run(M, MAM);
  }
  static bool isRequired() { return true; }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "hroof", LLVM_VERSION_STRING,
          [](PassBuilder &PB) {
            PB.registerAnalysisRegistrationCallback(
                [](ModuleAnalysisManager &MAM) {
                  MAM.registerPass([] { return hroof::KernelModelAnalysis(); });
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name == "print<hroof-kernels>") {
                    MPM.addPass(hroof::KernelModelPrinter(outs()));
                    return true;
                  }
                  if (Name == "hroof-instrument") {
                    MPM.addPass(hroof::InstrumentPass());
                    return true;
                  }
                  if (Name == "hroof-static-json") {
                    MPM.addPass(hroof::StaticModelWriter());
                    return true;
                  }
                  return false;
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
                  MPM.addPass(DeviceModuleHook());
                });
          }};
}
