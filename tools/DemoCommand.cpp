//===- DemoCommand.cpp - hroof demo: the bundled examples -----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reads examples/demo.json (each entry: file, kernel, grid, block, args and a
// one-line description). Where clang and the plugin are here, compiles each
// file with the plugin and prints the static table. Where a GPU is here, runs
// the instrumented example binaries (build/examples/, built by CMake) under
// `hroof run` and prints, per kernel, the static model evaluated at the real
// launch next to the exact dynamic counts, with the measured time.
//===----------------------------------------------------------------------===//
#include "Settings.h"
#include "StaticReport.h"
#include "Subcommand.h"
#include "Toolchain.h"
#include "report/Format.h"
#include "report/ProfileReader.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace hroof;

static std::string examplesDir() {
  std::string D = setting(Setting::Examples);
  if (!D.empty())
    return D;
  // Installed (or the build tree's copy), else the source tree beside a
  // build folder in it.
  std::string Installed = dataPath("examples");
  return Installed.empty() ? executableDir() + "/../../examples" : Installed;
}

static std::string fmt(double V) { return report::fmtSi(V, report::SiStyle::Demo); }

static bool fileExists(const std::string &P) {
  struct stat S;
  return stat(P.c_str(), &S) == 0;
}

static bool gpuPresent() { return runProgram({"nvidia-smi", "-L"}, "/dev/null", "/dev/null") == 0; }

static u128 sumFlops(const nlohmann::json &C) {
  u128 S = 0;
  for (const char *G : {"flops", "tensor_flops"})
    if (C.contains(G))
      for (auto &V : C[G])
        S += V.get<uint64_t>();
  return S;
}

static u128 sumGlobal(const nlohmann::json &C) {
  u128 S = 0;
  if (C.contains("bytes") && C["bytes"].contains("global"))
    for (auto &V : C["bytes"]["global"])
      S += V.get<uint64_t>();
  return S;
}

/// `hroof report ARGS...` in this process; a failure's message goes to
/// \p ErrPath when given, else to stderr. Returns the exit status.
static int runReport(const std::vector<std::string> &Args, const std::string &ErrPath) {
  try {
    return runSubcommand(addReportCommand, Args);
  } catch (const UserError &E) {
    if (ErrPath.empty()) {
      std::cerr << "hroof: " << E.what() << "\n";
    } else {
      std::ofstream Err(ErrPath);
      Err << "hroof: " << E.what() << "\n";
    }
    return 1;
  }
}

/// The hierarchical roofline of the demo's profiles (`hroof report`, with
/// the bundled ceilings of this GPU, else those of a quick ERT run) and the
/// three-source comparison (`hroof compare`).
static int reportProfiles(const std::string &Bin, const std::string &Tmp,
                          const std::set<std::string> &Stems) {
  std::vector<std::string> Profiles;
  for (const std::string &S : Stems)
    if (fileExists(Tmp + "/" + S + ".json"))
      Profiles.push_back(Tmp + "/" + S + ".json");
  if (Profiles.empty())
    return 1;
  std::string Out = Tmp + "/report";
  // The SVG is rendered by node; without it, the HTML and CSV only.
  bool Node = !findOnPath("node").empty();
  std::vector<std::string> Report = Profiles;
  Report.insert(Report.end(), {"--html", Out + ".html", "--csv", Out + ".csv"});
  if (Node)
    Report.insert(Report.end(), {"--svg", Out + ".svg"});
  // Report and compare run in this process: the stream as they would find it.
  std::cout << std::defaultfloat << std::setprecision(6) << std::right;
  std::cout << "\nHierarchical roofline (hroof report):\n" << std::flush;
  if (runReport(Report, Tmp + "/report.err") != 0) {
    // No bundled ceilings for this GPU: measure them quickly.
    std::cerr << "hroof demo: no bundled ceilings for this GPU; running hroof-ert "
                 "--quick (about 30 s)\n";
    std::string Ert = Tmp + "/ert";
    Report.insert(Report.end(), {"--machine", Ert + "/machine.json"});
    if (runProgram({Bin + "/hroof-ert", "--quick", "--out", Ert}, Tmp + "/ert.log",
                   Tmp + "/ert.log") != 0 ||
        runReport(Report, "") != 0) {
      std::cerr << "hroof: the report failed (" << Tmp << "/report.err, " << Tmp << "/ert.log)\n";
      return 1;
    }
  }
  std::cout << "\nStatic, dynamic and counters side by side (hroof compare):\n" << std::flush;
  int RC = 0;
  try {
    RC = runSubcommand(addCompareCommand, Profiles) != 0;
  } catch (const UserError &E) {
    std::cerr << "hroof: " << E.what() << "\n";
    RC = 1;
  }
  std::cout << "\nReport: " << Out << ".html (chart and table, opens offline), "
            << (Node ? Out + ".svg, " : std::string("no SVG (needs node), ")) << Out << ".csv\n";
  return RC;
}

/// Runs the instrumented examples under `hroof run` and prints static (at
/// the real launch) against dynamic counts. Returns non-zero on a mismatch.
static int runOnGpu(const nlohmann::json &Manifest) {
  std::string Bin = executableDir();
  std::string ExDir = Bin + "/../examples";
  char Tmp[] = "/tmp/hroof-demo-XXXXXX";
  if (!mkdtemp(Tmp))
    throw UserError("cannot create a temporary directory in /tmp");
  std::cerr << "hroof demo: GPU found: running the instrumented examples from " << ExDir
            << " under hroof run (profiles in " << Tmp << ")\n";
  std::cout << "\n"
            << std::left << std::setw(22) << "kernel" << std::right << std::setw(12) << "time (us)"
            << std::setw(12) << "GFLOP/s" << std::setw(13) << "static FLOPs" << std::setw(14)
            << "dynamic FLOPs" << std::setw(13) << "static glob.B" << std::setw(14)
            << "dynamic glob.B" << std::setw(7) << "equal"
            << "\n";
  std::set<std::string> Ran;
  int RC = 0;
  for (const auto &E : Manifest) {
    std::string File = E.at("file").get<std::string>();
    std::string Stem = File.substr(0, File.rfind('.'));
    std::string Exe = ExDir + "/" + Stem, Profile = std::string(Tmp) + "/" + Stem + ".json";
    if (!Ran.count(Stem)) {
      Ran.insert(Stem);
      if (!fileExists(Exe)) {
        std::cerr << "hroof: no instrumented binary " << Exe
                  << " (built by scripts/setup.sh); skipping " << File << "\n";
        RC = 1;
        continue;
      }
      std::string Log = std::string(Tmp) + "/" + Stem + ".log";
      std::cerr << "  running " << Stem << "\n";
      if (runProgram({Bin + "/hroof", "run", "--no-summary", "--output", Profile, "--", Exe}, Log,
                     Log) != 0) {
        std::cerr << "hroof: " << Stem << " failed under hroof run (log: " << Tmp << "/" << Stem
                  << ".log)\n";
        RC = 1;
      }
    }
    nlohmann::json P;
    try {
      P = report::readProfile(Profile);
    } catch (const UserError &) {
      continue; // hroof run said why
    }
    if (!P.is_object() || !P.contains("launches"))
      continue;
    std::regex Re(E.at("kernel").get<std::string>());
    const nlohmann::json *L = nullptr;
    for (const auto &R : P["launches"])
      if (R.value("instrumented", false) && std::regex_search(R.value("kernel", ""), Re)) {
        L = &R;
        break;
      }
    std::string Short = E.at("kernel").get<std::string>();
    Short.erase(0, Short.find_first_not_of("^"));
    std::cout << std::left << std::setw(22) << Short << std::right;
    if (!L || !L->contains("dynamic") || (*L)["dynamic"].is_null()) {
      std::cout << "  no counted launch in the profile\n";
      RC = 1;
      continue;
    }
    const auto &Dyn = (*L)["dynamic"];
    double Us = (*L)["duration_ns"].is_number() ? (*L)["duration_ns"].get<double>() / 1e3 : 0;
    u128 DF = sumFlops(Dyn), DB = sumGlobal(Dyn);
    std::cout << std::setw(12) << std::fixed << std::setprecision(1) << Us << std::setw(12)
              << std::setprecision(1) << (Us > 0 ? double(DF) / Us / 1e3 : 0.0);
    bool Equal = L->value("static_matches_dynamic", false);
    if (L->contains("static") && !(*L)["static"].is_null()) {
      const auto &St = (*L)["static"];
      std::cout << std::setw(13) << fmt(double(sumFlops(St))) << std::setw(14) << fmt(double(DF))
                << std::setw(13) << fmt(double(sumGlobal(St))) << std::setw(14) << fmt(double(DB));
    } else {
      std::cout << std::setw(13) << "-" << std::setw(14) << fmt(double(DF)) << std::setw(13) << "-"
                << std::setw(14) << fmt(double(DB));
    }
    std::cout << std::setw(7) << (Equal ? "yes" : "NO") << "\n";
    if (!Equal)
      RC = 1;
  }
  RC |= reportProfiles(Bin, Tmp, Ran);
  return RC;
}

int demoMain() {
  std::string Dir = examplesDir();
  if (std::string Why = unreadableReason(Dir + "/demo.json"); !Why.empty())
    throw UserError("cannot read '" + Dir + "/demo.json': " + Why + " (set HROOF_EXAMPLES)");
  nlohmann::json Manifest = nlohmann::json::parse(readTextFile(Dir + "/demo.json"), nullptr, false);
  if (Manifest.is_discarded() || !Manifest.is_array())
    throw UserError("'" + Dir + "/demo.json' is not a JSON array");
  bool Gpu = gpuPresent();
  Toolchain TC;
  try {
    TC = Toolchain::find();
  } catch (const UserError &E) {
    if (!Gpu)
      throw;
    std::cerr << "hroof demo: no static compile here (" << E.what()
              << "); the static model comes from the binaries\n";
    return runOnGpu(Manifest);
  }
  std::cerr << "hroof demo: static model of " << Manifest.size() << " example kernels from " << Dir
            << (Gpu ? "" : " (no GPU here: static counts only)") << "\n";
  std::map<std::string, StaticModule> Modules;
  std::cout << std::left << std::setw(22) << "kernel" << std::setw(7) << "exact" << std::setw(26)
            << "launch" << std::right << std::setw(10) << "FLOPs" << std::setw(26) << "by type"
            << std::setw(11) << "glob. B" << std::setw(10) << "shared B" << std::setw(8) << "AI"
            << "\n";
  int RC = 0;
  for (const auto &E : Manifest) {
    std::string File = Dir + "/" + E.at("file").get<std::string>();
    std::string Arch = E.value("arch", "sm_90");
    std::string Key = File + "@" + Arch;
    if (!Modules.count(Key)) {
      std::cerr << "  compiling " << E.at("file").get<std::string>() << " for " << Arch << "\n";
      CompileResult C;
      try {
        C = compileStaticModel(TC, File, Arch, {});
      } catch (const UsageError &Bad) { // an "arch" in demo.json, not on the command line
        throw UserError(std::string("demo.json: ") + Bad.what());
      }
      nlohmann::json J = nlohmann::json::parse(C.ModelJson);
      Modules[Key] = parseStaticModel(J);
    }
    const StaticModule &M = Modules[Key];
    std::regex Re(E.at("kernel").get<std::string>());
    const KernelModel *K = nullptr;
    for (const KernelModel &C : M.Kernels)
      if (std::regex_search(C.Name, Re))
        K = &C;
    if (!K)
      throw UserError("demo.json: no kernel matching '" + E.at("kernel").get<std::string>() +
                      "' in " + File);
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
    KernelResult R;
    try {
      R = evaluateForLaunch(*K, Req);
    } catch (const UsageError &Bad) { // a bad value in demo.json, not on the command line
      throw UserError(std::string("demo.json: ") + Bad.what());
    }
    std::string Short = K->Name.substr(0, K->Name.find('('));
    std::ostringstream Launch;
    Launch << Req.Shape->Grid[0] << "x" << Req.Shape->Grid[1] << " / " << Req.Shape->Block[0] << "x"
           << Req.Shape->Block[1];
    std::cout << std::left << std::setw(22) << Short << std::setw(7) << (K->Exact ? "yes" : "no")
              << std::setw(26) << Launch.str();
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
        Types +=
            (Types.empty() ? "" : " ") + std::string(I >= TensorBase ? "tc_" : "") + CK.Parts[1];
      }
    u128 F = totalFlops(T), B = globalBytes(T);
    u128 Sh = 0;
    for (int D = 0; D < NumMemDirs; ++D)
      Sh += T[bytesIndex(MemSpace::Shared, MemDir(D))];
    std::cout << std::right << std::setw(10) << fmt(double(F)) << std::setw(26) << Types
              << std::setw(11) << fmt(double(B)) << std::setw(10) << fmt(double(Sh)) << std::setw(8)
              << std::setprecision(3) << (B ? double(F) / double(B) : 0.0) << "\n";
  }
  if (Gpu)
    RC |= runOnGpu(Manifest);
  return RC;
}
