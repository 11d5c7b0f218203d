//===- DemoCommand.cpp - hroof demo: the bundled examples -----------------===//
//
// Reads examples/demo.json (each entry: file, kernel, grid, block, args and a
// one-line description), compiles each file with the plugin and prints one
// table of static counts. Later issues add the GPU run (dynamic counts and
// hardware counters) beside these columns.
//===----------------------------------------------------------------------===//
#include "Settings.h"
#include "StaticReport.h"
#include "Toolchain.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <sys/stat.h>

using namespace hroof;

static std::string examplesDir() {
  std::string D = setting(Setting::Examples);
  if (!D.empty())
    return D;
  struct stat S;
  std::string Near = executableDir() + "/../../examples";
  if (stat((Near + "/demo.json").c_str(), &S) == 0)
    return Near;
  return HROOF_SOURCE_DIR "/examples";
}

static std::string fmt(double V) {
  std::ostringstream OS;
  if (V >= 1e9)
    OS << std::fixed << std::setprecision(2) << V / 1e9 << "G";
  else if (V >= 1e6)
    OS << std::fixed << std::setprecision(2) << V / 1e6 << "M";
  else if (V >= 1e3)
    OS << std::fixed << std::setprecision(2) << V / 1e3 << "K";
  else
    OS << V;
  return OS.str();
}

int demoMain() {
  std::string Dir = examplesDir();
  std::ifstream In(Dir + "/demo.json");
  if (!In)
    throw UserError("cannot read '" + Dir + "/demo.json' (set HROOF_EXAMPLES)");
  nlohmann::json Manifest = nlohmann::json::parse(In, nullptr, false);
  if (Manifest.is_discarded() || !Manifest.is_array())
    throw UserError("'" + Dir + "/demo.json' is not a JSON array");
  Toolchain TC = Toolchain::find();
  std::cerr << "hroof demo: static model of " << Manifest.size()
            << " example kernels from " << Dir
            << " (no GPU run yet: static counts only)\n";
  std::map<std::string, StaticModule> Modules;
  std::cout << std::left << std::setw(22) << "kernel" << std::setw(7) << "exact"
            << std::setw(26) << "launch" << std::right << std::setw(10) << "FLOPs"
            << std::setw(26) << "by type" << std::setw(11) << "glob. B"
            << std::setw(10) << "shared B" << std::setw(8) << "AI" << "\n";
  int RC = 0;
  for (const auto &E : Manifest) {
    std::string File = Dir + "/" + E.at("file").get<std::string>();
    std::string Arch = E.value("arch", "sm_90");
    std::string Key = File + "@" + Arch;
    if (!Modules.count(Key)) {
      std::cerr << "  compiling " << E.at("file").get<std::string>() << " for "
                << Arch << "\n";
      nlohmann::json J = nlohmann::json::parse(
          compileStaticModel(TC, File, Arch, {}).ModelJson);
      Modules[Key] = parseStaticModel(J);
    }
    const StaticModule &M = Modules[Key];
    std::regex Re(E.at("kernel").get<std::string>());
    const KernelModel *K = nullptr;
    for (const KernelModel &C : M.Kernels)
      if (std::regex_search(C.Name, Re))
        K = &C;
    if (!K)
      throw UserError("demo.json: no kernel matching '" +
                      E.at("kernel").get<std::string>() + "' in " + File);
    LaunchRequest Req;
    auto Dims = [](const nlohmann::json &A) {
      std::array<int64_t, 3> D{1, 1, 1};
      for (size_t I = 0; I < A.size() && I < 3; ++I)
        D[I] = A[I].get<int64_t>();
      return D;
    };
    Req.Shape = LaunchShape{Dims(E.at("grid")), Dims(E.at("block"))};
    nlohmann::json Args = E.value("args", nlohmann::json::object());
    for (auto It = Args.begin(); It != Args.end(); ++It)
      Req.Args[It.key()] = It.value().dump();
    KernelResult R = evaluateForLaunch(*K, Req);
    std::string Short = K->Name.substr(0, K->Name.find('('));
    std::ostringstream Launch;
    Launch << Req.Shape->Grid[0] << "x" << Req.Shape->Grid[1] << " / "
           << Req.Shape->Block[0] << "x" << Req.Shape->Block[1];
    std::cout << std::left << std::setw(22) << Short << std::setw(7)
              << (K->Exact ? "yes" : "no") << std::setw(26) << Launch.str();
    if (!R.Total) {
      std::cout << R.Problem << "\n";
      RC = 1;
      continue;
    }
    const TotalVector &T = *R.Total;
    std::string Types;
    for (int I = FlopsBase; I < SpecialBase; ++I)
      if (T[I]) {
        CounterKey CK = counterKey(I);
        Types += (Types.empty() ? "" : " ") +
                 std::string(I >= TensorBase ? "tc_" : "") + CK.Parts[1];
      }
    u128 F = totalFlops(T), B = globalBytes(T);
    u128 Sh = 0;
    for (int D = 0; D < NumMemDirs; ++D)
      Sh += T[bytesIndex(MemSpace::Shared, MemDir(D))];
    std::cout << std::right << std::setw(10) << fmt(double(F)) << std::setw(26)
              << Types << std::setw(11) << fmt(double(B)) << std::setw(10)
              << fmt(double(Sh)) << std::setw(8) << std::setprecision(3)
              << (B ? double(F) / double(B) : 0.0) << "\n";
  }
  return RC;
}
