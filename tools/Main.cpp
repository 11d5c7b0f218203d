//===- Main.cpp - the hroof command-line tool -----------------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//   hroof static FILE.cu [--arch sm_90] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]]
//                [--arg NAME=VALUE]... [--kernel REGEX] [--json] [-- clang args]
//   hroof demo
//
// Links neither LLVM nor CUPTI: it runs clang with the plugin and reads the
// static model it writes (common/StaticModel.h).
//===----------------------------------------------------------------------===//
#include "Settings.h"
#include "StaticPlacement.h"
#include "StaticReport.h"
#include "Subcommand.h"
#include "Toolchain.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <regex>

using namespace hroof;

namespace {

struct StaticOptions {
  std::string File, Arch = "sm_90", Grid, Block, KernelRegex, Machine;
  std::vector<std::string> Args, Extra;
  bool Json = false, Terms = false;
};

StaticModule loadModel(const StaticOptions &O) {
  std::string Text;
  if (O.File.size() > 5 && O.File.substr(O.File.size() - 5) == ".json") {
    Text = readTextFile(O.File);
  } else {
    Text = compileStaticModel(Toolchain::find(), O.File, O.Arch, O.Extra).ModelJson;
  }
  nlohmann::json J = nlohmann::json::parse(Text, nullptr, false);
  if (J.is_discarded())
    throw UserError("'" + O.File + "' is not valid JSON");
  try {
    return parseStaticModel(J);
  } catch (const std::exception &E) {
    throw UserError("'" + O.File + "': " + E.what());
  }
}

/// The kernels of \p M that --kernel selects; throws UserError for a bad
/// expression or one that matches nothing.
std::vector<const KernelModel *> selectKernels(const StaticModule &M, const StaticOptions &O) {
  // Kernel selection.
  std::vector<const KernelModel *> Selected;
  std::regex Re;
  try {
    Re = std::regex(O.KernelRegex.empty() ? ".*" : O.KernelRegex);
  } catch (const std::regex_error &E) {
    throw UsageError("--kernel '" + O.KernelRegex + "' is not a valid regular expression");
  }
  std::string All;
  for (const KernelModel &K : M.Kernels) {
    All += (All.empty() ? "" : ", ") + K.Name;
    if (std::regex_search(K.Name, Re) || std::regex_search(K.Mangled, Re))
      Selected.push_back(&K);
  }
  if (M.Kernels.empty())
    throw UserError("'" + O.File + "' has no kernels");
  if (Selected.empty())
    throw UserError("--kernel '" + O.KernelRegex + "' matches no kernel in '" + O.File +
                    "' (kernels: " + All + ")");
  return Selected;
}

int runStatic(const StaticOptions &O) {
  // Usage errors that need no model first: compiling takes seconds.
  LaunchRequest Req;
  if (O.Grid.empty() != O.Block.empty())
    throw UsageError("give both --grid and --block, or neither");
  if (!O.Grid.empty())
    Req.Shape = parseLaunchShape(O.Grid, O.Block);
  for (const std::string &A : O.Args) {
    auto Eq = A.find('=');
    if (Eq == std::string::npos || Eq == 0)
      throw UsageError("bad --arg '" + A + "': expected NAME=VALUE");
  }
  if (!O.Machine.empty() && !Req.Shape)
    throw UsageError("--machine places a launch: give --grid and --block too");
  StaticModule M = loadModel(O);
  std::vector<const KernelModel *> Selected = selectKernels(M, O);
  for (const std::string &A : O.Args) {
    auto Eq = A.find('=');
    std::string Name = A.substr(0, Eq);
    bool Known = false;
    std::string Params, Fields;
    for (const KernelModel *K : Selected) {
      Known |= findParam(*K, Name) >= 0 || !findFields(*K, Name).empty();
      std::vector<std::string> ArgNames;
      for (const ModelParam &P : K->Params) {
        Params += (Params.empty() ? "" : ", ") + P.Name;
        ArgNames.push_back(P.Name);
      }
      for (const FieldRef &F : K->Fields)
        Fields += (Fields.empty() ? "" : ", ") + fieldName(F, &ArgNames);
    }
    if (!Known && Name.find('+') != std::string::npos)
      throw UserError("unknown --arg '" + Name + "': no selected kernel's model reads a " +
                      "field there (fields of by-value arguments it reads: " +
                      (Fields.empty() ? "none" : Fields) + ")");
    if (!Known)
      throw UserError("unknown --arg '" + Name + "': no selected kernel has a " +
                      "parameter of that name (parameters: " + Params + ")");
    Req.Args[Name] = A.substr(Eq + 1);
  }
  std::vector<KernelResult> Results;
  for (const KernelModel *K : Selected)
    Results.push_back(evaluateForLaunch(*K, Req));
  std::optional<report::Machine> Machine;
  if (!O.Machine.empty()) {
    try {
      Machine = report::loadMachine(O.Machine);
    } catch (const std::exception &E) {
      throw UserError("--machine '" + O.Machine + "': " + E.what());
    }
  }

  if (O.Json) {
    nlohmann::json Out;
    Out["source"] = O.File;
    Out["arch"] = M.Arch;
    if (Req.Shape)
      Out["launch"] = {{"grid", Req.Shape->Grid}, {"block", Req.Shape->Block}, {"args", Req.Args}};
    Out["kernels"] = nlohmann::json::array();
    for (const KernelResult &R : Results) {
      const KernelModel &K = *R.Kernel;
      nlohmann::json KJ = {{"name", K.Name},
                           {"mangled", K.Mangled},
                           {"exact", K.Exact},
                           {"unknown", K.Unknown},
                           {"functions", K.Functions}};
      KJ["params"] = nlohmann::json::array();
      for (const ModelParam &P : K.Params)
        KJ["params"].push_back({{"name", P.Name}, {"type", P.Type}});
      if (R.Total && (K.Exact || R.Bounds)) {
        KJ.update(launchTotalsToJson(*R.Total, R.Bounds ? &*R.Bounds : nullptr));
      } else {
        KJ["total"] = nullptr;
        KJ["problem"] = R.Problem;
      }
      if (R.Bounds)
        KJ["bounds"] = totalBoundsToJson(*R.Bounds);
      if (!R.Assumes.empty())
        KJ["assumes"] = R.Assumes;
      if (Req.Shape)
        KJ["warp"] = warpResultToJson(R);
      if (Machine)
        KJ["placement"] = staticPlacement(R, *Machine);
      if (O.Terms) {
        KJ["terms"] = nlohmann::json::array();
        for (const ModelTerm &T : K.Terms) {
          nlohmann::json C = nlohmann::json::object();
          for (int I = 0; I < NumCounters; ++I)
            if (T.Counts[I])
              C[counterName(I)] = T.Counts[I];
          nlohmann::json Fs = nlohmann::json::array();
          for (const ExprPtr &F : T.Factors)
            Fs.push_back(F->toJson());
          KJ["terms"].push_back({{"where", T.Where}, {"counts", C}, {"factors", Fs}});
        }
      }
      Out["kernels"].push_back(KJ);
    }
    std::cout << Out.dump(2) << "\n";
  } else {
    for (const KernelResult &R : Results) {
      printKernelText(std::cout, R, O.Terms);
      if (Machine)
        printStaticPlacement(std::cout, staticPlacement(R, *Machine));
    }
  }
  // A launch was asked for but some kernel could not be evaluated: say so.
  int RC = 0;
  if (Req.Shape)
    for (const KernelResult &R : Results)
      if (!R.Total) {
        std::cerr << "hroof: kernel " << R.Kernel->Name << ": " << R.Problem << "\n";
        RC = 1;
      }
  return RC;
}

} // namespace

int demoMain(); // DemoCommand.cpp

namespace {

/// "hroof: SUBCOMMAND: WHAT (see hroof SUBCOMMAND --help)" for a command
/// line hroof cannot use; the subcommand is the first argument when it names
/// one, otherwise that argument is the offending word.
std::string usageErrorLine(CLI::App &App, const std::vector<char *> &Args,
                           const std::string &What) {
  std::string Names;
  for (CLI::App *Sub : App.get_subcommands([](CLI::App *) { return true; }))
    Names += (Names.empty() ? "" : ", ") + Sub->get_name();
  if (Args.size() < 2)
    return "hroof: no subcommand given (one of: " + Names + "; see hroof --help)";
  std::string First = Args[1];
  for (CLI::App *Sub : App.get_subcommands([](CLI::App *) { return true; }))
    if (Sub->get_name() == First)
      return "hroof: " + First + ": " + What + " (see hroof " + First + " --help)";
  if (First.rfind("-", 0) == 0)
    return "hroof: " + What + " (see hroof --help)";
  return "hroof: '" + First + "' is not a subcommand (one of: " + Names + "; see hroof --help)";
}

} // namespace

int main(int argc, char **argv) {
  CLI::App App{"hroof: hierarchical roofline analysis of CUDA kernels: static "
               "counts from the hroof LLVM plugin, dynamic counts and hardware "
               "counters from the runtime, reports on the roofline"};
  App.require_subcommand(1);
  addVersionFlag(App);
  std::string EnvHelp = "\nEnvironment:\n";
  for (int I = 0; I < int(Setting::Count); ++I)
    EnvHelp += "  " + std::string(settingInfo(Setting(I)).Env) + ": " +
               settingInfo(Setting(I)).Help + "\n";
  App.footer(EnvHelp);

  StaticOptions SO;
  CLI::App *Static =
      App.add_subcommand("static", "Compile FILE.cu with the plugin (no GPU needed) and print each "
                                   "kernel's static counts; with --grid/--block (and --arg values) "
                                   "the totals of that launch and the static arithmetic intensity. "
                                   "FILE may also be a static-model .json written by the plugin.");
  Static->add_option("file", SO.File, "CUDA source (.cu) or static model (.json)")->required();
  Static->add_option("--arch", SO.Arch, "GPU architecture (default sm_90)");
  Static->add_option("--grid", SO.Grid, "grid dimensions X[,Y[,Z]]");
  Static->add_option("--block", SO.Block, "block dimensions X[,Y[,Z]]");
  Static->add_option("--arg", SO.Args,
                     "kernel argument value NAME=VALUE (NAME: parameter name or "
                     "argN; NAME+OFF: the integer field at byte OFF of a struct passed by "
                     "value); an integer in the range of the parameter's type, signed or "
                     "unsigned as the model reads it, or its bits in hexadecimal (0x...); "
                     "a pointer's address; repeatable");
  Static->add_option("--kernel", SO.KernelRegex,
                     "only kernels whose name matches this regular expression");
  Static->add_flag("--json", SO.Json, "print JSON (schema: docs/static-model.md)");
  Static->add_option("--machine", SO.Machine,
                     "machine file (docs/machines/*.json, from hroof-ert): with a launch, place "
                     "each kernel on the hierarchical roofline before it runs (static AI at L1, "
                     "shared and HBM, the time each level needs, the lower bound on the time)");
  Static->add_flag("--terms", SO.Terms,
                   "also print the model's terms (per-thread counts x multiplicity)");
  Static->add_option("extra", SO.Extra,
                     "after --: extra clang arguments (e.g. -- -Iinclude -DN=4)");
  Static->footer(environmentHelp(
      {Setting::Clang, Setting::Plugin, Setting::CudaPath, Setting::WarpEvalLimit}));

  CLI::App *Demo = App.add_subcommand(
      "demo", "Run hroof on the bundled example kernels (examples/, launches "
              "in examples/demo.json): the static model of each (needs clang and "
              "the plugin here); where a GPU is present, also runs the "
              "instrumented example binaries (build/examples/) under hroof run "
              "and prints the static model at each real launch beside the exact "
              "dynamic counts and the kernel time.");
  Demo->footer(
      environmentHelp({Setting::Clang, Setting::Plugin, Setting::CudaPath, Setting::Examples,
                       Setting::MachinesDir, Setting::ReportJs, Setting::ReportAssets}));

  Subcommand Run = addRunCommand(App);
  Subcommand Report = addReportCommand(App), Compare = addCompareCommand(App);
  Subcommand Ncu = addNcuCommand(App);

  // `hroof static FILE [options] -- CLANG ARGS`: everything after `--` goes to
  // clang verbatim (CLI11 would try to match "-I..." against hroof's options).
  std::vector<char *> Args(argv, argv + argc);
  if (argc > 1 && std::string(argv[1]) == "static")
    for (int I = 2; I < argc; ++I)
      if (std::string(argv[I]) == "--") {
        SO.Extra.assign(argv + I + 1, argv + argc);
        Args.resize(I);
        break;
      }
  for (CLI::App *Sub : App.get_subcommands([](CLI::App *) { return true; }))
    addVersionFlag(*Sub);
  try {
    App.parse(int(Args.size()), Args.data());
  } catch (const CLI::ParseError &E) {
    if (E.get_exit_code() == 0)
      return App.exit(E); // --help, --version
    std::cerr << usageErrorLine(App, Args, E.what()) << "\n";
    return UsageExitStatus;
  }
  try {
    if (Static->parsed())
      return runStatic(SO);
    if (Demo->parsed())
      return demoMain();
    if (Run.Parser->parsed())
      return Run.Run();
    for (Subcommand *S : {&Report, &Compare, &Ncu})
      if (S->Parser->parsed())
        return S->Run();
  } catch (const UsageError &E) {
    std::cerr << usageErrorLine(App, Args, E.what()) << "\n";
    return UsageExitStatus;
  } catch (const UserError &E) {
    std::cerr << "hroof: " << E.what() << "\n";
    return 1;
  }
  return 0;
}
