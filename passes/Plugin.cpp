//===- Plugin.cpp - hroof.so: registers every hroof pass ------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "hroof", LLVM_VERSION_STRING, [](PassBuilder &PB) {
            PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
              MAM.registerPass([] { return hroof::KernelModelAnalysis(); });
            });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
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
            // Class names -> pass names, so -print-after=hroof-instrument,
            // -print-before, -time-passes and -debug-pass-manager name them.
            if (auto *PIC = PB.getPassInstrumentationCallbacks()) {
              PIC->addClassToPassName(hroof::KernelModelPrinter::name(), "print<hroof-kernels>");
              PIC->addClassToPassName(hroof::StaticModelWriter::name(), "hroof-static-json");
              PIC->addClassToPassName(hroof::InstrumentPass::name(), "hroof-instrument");
            }
            // End of every clang compile: both passes act on device modules
            // only (target nvptx64-nvidia-cuda); the host compile is untouched.
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase) {
                  MPM.addPass(hroof::StaticModelWriter(/*DeviceOnly=*/true));
                  MPM.addPass(hroof::InstrumentPass());
                });
          }};
}
