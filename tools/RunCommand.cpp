//===- RunCommand.cpp - hroof run [options] -- CMD ARGS... ----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Runs CMD under the hroof runtime: sets CUDA_INJECTION64_PATH to
// <bin>/../lib/libhroof_rt.so (or --runtime-lib) and one environment variable
// per runtime setting given as an option (the options are generated from
// common/include/hroof/RuntimeSettings.h, the one table of settings), runs
// CMD (fork/exec; its exit status becomes hroof's), then prints a per-kernel
// summary of every profile the run wrote (docs/runtime.md).
//
// Links no CUPTI: only the settings header and the profile's JSON.
//===----------------------------------------------------------------------===//
#include "Subcommand.h"
#include "Toolchain.h"
#include "report/Format.h"
#include "report/ProfileReader.h"

#include "hroof/RuntimeSettings.h"

#include <nlohmann/json.hpp>

#include <dirent.h>
#include <dlfcn.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>

namespace hroof {

/// The program hroof run waits for; its signal handler forwards to it.
static volatile pid_t ChildPid = 0;
static void forwardSignal(int Sig) {
  if (ChildPid > 0)
    ::kill(ChildPid, Sig);
}

namespace {

struct RunOptions {
  std::vector<std::string> Values = std::vector<std::string>(size_t(rt::RtSetting::Count));
  std::vector<std::string> Command;
  std::string RuntimeLib;
  bool NoSummary = false;
};

bool fileExists(const std::string &P) {
  struct stat St;
  return ::stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

std::string dirOf(const std::string &P) {
  auto Slash = P.rfind('/');
  if (Slash == std::string::npos)
    return ".";
  return Slash == 0 ? "/" : P.substr(0, Slash);
}

bool endsWith(const std::string &S, const char *T) {
  size_t N = std::strlen(T);
  return S.size() >= N && S.compare(S.size() - N, N, T) == 0;
}

std::string fmtCount(double V) { return report::fmtSi(V, report::SiStyle::Counts); }

double sumLeaves(const nlohmann::json &J, const char *Top) {
  double S = 0;
  if (!J.contains(Top))
    return 0;
  std::function<void(const nlohmann::json &)> Walk = [&](const nlohmann::json &N) {
    if (N.is_number())
      S += N.get<double>();
    else if (N.is_object())
      for (auto &E : N)
        Walk(E);
  };
  Walk(J[Top]);
  return S;
}

double globalBytes(const nlohmann::json &T) {
  double S = 0;
  if (T.contains("bytes") && T["bytes"].contains("global"))
    for (auto &E : T["bytes"]["global"])
      if (E.is_number())
        S += E.get<double>();
  return S;
}

/// The copies and memsets of one profile, per kind, and their share of the
/// GPU time (kernels + transfers).
void printTransfers(const nlohmann::json &P) {
  if (!P.contains("transfers") || !P["transfers"].contains("by_kind"))
    return;
  const nlohmann::json &Kinds = P["transfers"]["by_kind"];
  if (Kinds.empty())
    return;
  double KernelNs = 0, TransferNs = 0;
  for (const auto &K : P.value("kernels", nlohmann::json::array()))
    if (K.contains("duration_ns") && K["duration_ns"].contains("total"))
      KernelNs += K["duration_ns"]["total"].get<double>();
  for (const auto &T : Kinds)
    TransferNs += T.value("duration_ns", 0.0);
  std::cout << "  " << std::left << std::setw(10) << "transfer" << std::right << std::setw(9)
            << "count" << std::setw(12) << "bytes" << std::setw(12) << "total ms" << std::setw(10)
            << "GB/s"
            << "\n";
  for (const auto &T : Kinds)
    std::cout << "  " << std::left << std::setw(10) << T.value("kind", std::string("?"))
              << std::right << std::setw(9) << T.value("count", 0) << std::setw(12)
              << fmtCount(T.value("bytes", 0.0)) << std::setw(12) << std::fixed
              << std::setprecision(3) << T.value("duration_ns", 0.0) / 1e6 << std::setw(10)
              << std::setprecision(1) << T.value("gbytes_per_s", 0.0) << "\n";
  if (KernelNs + TransferNs > 0)
    std::cout << "  transfers: " << std::setprecision(1)
              << 100.0 * TransferNs / (KernelNs + TransferNs)
              << "% of the GPU time (kernels + transfers)\n";
}

/// Prints the per-kernel table of one profile.
void printSummary(const std::string &Path, const nlohmann::json &P) {
  report::ProfileFields F(Path);
  std::cout << "hroof: profile " << Path
            << (P.contains("rank") && P["rank"].is_string()
                    ? " (rank " + P["rank"].get<std::string>() + ")"
                    : std::string())
            << (F.flag(P, "", "complete") ? ""
                                          : " (incomplete: the process "
                                            "did not finish normally)")
            << "\n";
  if (P.contains("devices"))
    for (auto &D : P["devices"])
      std::cout << "  device " << D.value("ordinal", 0) << ": " << D.value("name", std::string("?"))
                << " (sm " << D.value("compute_capability", std::string("?")) << ")\n";
  std::cout << "  " << std::left << std::setw(40) << "kernel" << std::right << std::setw(9)
            << "launches" << std::setw(12) << "total ms" << std::setw(11) << "mean us"
            << std::setw(10) << "flops" << std::setw(10) << "gl.bytes" << std::setw(14)
            << "static=dyn" << std::setw(10) << "hw.flops" << std::setw(10) << "hw.dram"
            << "\n";
  const nlohmann::json Kernels = P.value("kernels", nlohmann::json::array());
  for (size_t I = 0; I < Kernels.size(); ++I) {
    const nlohmann::json &K = Kernels[I];
    std::string Where = "/kernels/" + std::to_string(I);
    std::string Name = F.text(K, Where, "kernel", "?");
    if (Name.size() > 39)
      Name = Name.substr(0, 36) + "...";
    const nlohmann::json D = K.value("duration_ns", nlohmann::json::object());
    double Total = F.number(D, Where + "/duration_ns", "total"),
           Mean = F.number(D, Where + "/duration_ns", "mean");
    std::string Flops = "-", Bytes = "-", Match = "-";
    if (F.flag(K, Where, "instrumented") && K.contains("dynamic")) {
      const nlohmann::json &T = K["dynamic"]["total"];
      if (F.count(K["dynamic"], Where + "/dynamic", "launches") > 0) {
        Flops = fmtCount(sumLeaves(T, "flops") + sumLeaves(T, "tensor_flops"));
        Bytes = fmtCount(globalBytes(T));
      }
      const nlohmann::json S = K.value("static", nlohmann::json::object());
      uint64_t M = F.count(S, Where + "/static", "matches_dynamic"),
               Df = F.count(S, Where + "/static", "differs_from_dynamic");
      Match = std::to_string(M) + "/" + std::to_string(M + Df);
    }
    // Hardware counters (range profiler), summed over the profiled launches.
    std::string HwFlops = "-", HwDram = "-";
    if (K.contains("counters") && K["counters"].contains("total")) {
      const nlohmann::json &T = K["counters"]["total"];
      HwFlops = fmtCount(sumLeaves(T, "flops") + sumLeaves(T, "tensor_flops"));
      if (T.contains("dram_bytes"))
        HwDram = fmtCount(T["dram_bytes"].get<double>());
    }
    std::cout << "  " << std::left << std::setw(40) << Name << std::right << std::setw(9)
              << F.count(K, Where, "launches") << std::setw(12) << std::fixed
              << std::setprecision(3) << Total / 1e6 << std::setw(11) << std::setprecision(1)
              << Mean / 1e3 << std::setw(10) << Flops << std::setw(10) << Bytes << std::setw(14)
              << Match << std::setw(10) << HwFlops << std::setw(10) << HwDram << "\n";
  }
  printTransfers(P);
  if (P.contains("ranges") && P["ranges"].is_array())
    std::cout << "  " << P["ranges"].size()
              << " NVTX range path(s): hroof report --by range shows them\n";
  if (P.value("graph_launches", 0) > 0)
    std::cout << "  " << P["graph_launches"].get<uint64_t>()
              << " CUDA graph launch(es): their kernels are listed with "
                 "durations; dynamic counts are not attributed to them\n";
  for (auto &N : P.value("notes", nlohmann::json::array()))
    std::cout << "  note: " << N.get<std::string>() << "\n";
}

/// Why the CUDA driver cannot be loaded here (dlerror() of libcuda.so.1,
/// which the CUDA runtime loads too, so the child fails the same way), or ""
/// when it can. Without it no CUDA call succeeds and the runtime library,
/// which the driver loads, never runs.
std::string missingDriverReason() {
  if (void *H = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    ::dlclose(H);
    return "";
  }
  const char *E = ::dlerror();
  return E ? E : "libcuda.so.1 cannot be loaded";
}

/// Creates the directory the profile goes to (\p Output itself, or the
/// folder of a file name ending in .json), with its parents: the runtime
/// inside the application only opens the file.
void makeOutputDir(const std::string &Output) {
  std::string Dir = endsWith(Output, ".json") ? dirOf(Output) : Output;
  if (Dir.empty())
    return;
  std::error_code E;
  std::filesystem::create_directories(Dir, E);
  if (E)
    throw UserError("cannot create the output directory '" + Dir + "': " + E.message());
}

/// Why a run wrote no profile under \p Output, on stderr.
void explainNoProfile(const std::string &Output) {
  if (std::string Why = missingDriverReason(); !Why.empty())
    std::cerr << "hroof: no profile was written: there is no CUDA driver here (" << Why
              << "), so no CUDA program can run; run it on a machine with an NVIDIA GPU "
                 "and its driver\n";
  else
    std::cerr << "hroof: no profile was written under '" << Output
              << "' (the command made no CUDA call, or the output is not "
                 "writable: see the messages above)\n";
}

/// Profiles written by this run: the runtime stores HROOF_RUN_ID in each.
std::vector<std::string> findProfiles(const std::string &Output, const std::string &RunId) {
  std::string Dir = endsWith(Output, ".json") ? dirOf(Output) : Output;
  std::vector<std::string> Out;
  std::unique_ptr<DIR, int (*)(DIR *)> D(::opendir(Dir.c_str()), ::closedir);
  if (!D)
    return Out;
  while (dirent *E = ::readdir(D.get())) {
    std::string Name = E->d_name;
    if (!endsWith(Name, ".json"))
      continue;
    std::string Path = (Dir == "/" ? "/" : Dir + "/") + Name;
    std::ifstream In(Path);
    std::string Head(1 << 16, '\0'); // the header (keys sorted) comes first
    In.read(&Head[0], std::streamsize(Head.size()));
    Head.resize(size_t(In.gcount()));
    if (Head.find("\"hroof_profile\"") == std::string::npos ||
        Head.find("\"run_id\": \"" + RunId + "\"") == std::string::npos)
      continue;
    Out.push_back(Path);
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// Throws UsageError for a command line hroof run cannot use, before
/// anything starts.
void checkRunOptions(const RunOptions &O) {
  if (O.Command.empty())
    throw UsageError("no command given: hroof run [options] -- CMD ARGS...");
  // Check option values before starting anything.
  for (int I = 0; I < int(rt::RtSetting::Count); ++I)
    if (!O.Values[I].empty()) {
      std::string E = rt::checkRtSetting(rt::RtSetting(I), O.Values[I]);
      if (!E.empty())
        throw UsageError("--" + std::string(rt::rtSettingInfo(rt::RtSetting(I)).Option) + ": " + E);
    }
  // The runtime profiles everything under an expression it cannot compile
  // (a note in the profile); given as an option, it is a usage error. Same
  // dialect as the runtime's (ECMAScript, runtime/src/profile/Profile.cpp).
  for (rt::RtSetting S :
       {rt::RtSetting::KernelFilter, rt::RtSetting::Range, rt::RtSetting::TimingRange})
    if (const std::string &V = O.Values[int(S)]; !V.empty()) {
      try {
        std::regex Re(V, std::regex::ECMAScript);
      } catch (const std::regex_error &E) {
        throw UsageError("--" + std::string(rt::rtSettingInfo(S).Option) + ": '" + V +
                         "' is not a valid regular expression (" + E.what() + ")");
      }
    }
}

int runRun(const RunOptions &O) {
  checkRunOptions(O);
  std::string Lib =
      O.RuntimeLib.empty() ? executableDir() + "/../lib/libhroof_rt.so" : O.RuntimeLib;
  if (!fileExists(Lib))
    throw UserError("runtime library '" + Lib +
                    "' not found (build it: ninja -C "
                    "build hroof_rt, or give --runtime-lib)");
  char Real[PATH_MAX];
  if (::realpath(Lib.c_str(), Real))
    Lib = Real;
  if (const char *Old = std::getenv("CUDA_INJECTION64_PATH"))
    if (*Old && Lib != Old)
      std::cerr << "hroof: CUDA_INJECTION64_PATH was '" << Old
                << "'; replaced by the hroof runtime for this run\n";
  ::setenv("CUDA_INJECTION64_PATH", Lib.c_str(), 1);
  // NVTX hands its calls to the library named here; the runtime passes them
  // on to CUPTI, whose NVTX callbacks give the launches' range paths.
  if (const char *Old = std::getenv("NVTX_INJECTION64_PATH"))
    if (*Old && Lib != Old)
      std::cerr << "hroof: NVTX_INJECTION64_PATH was '" << Old
                << "'; replaced by the hroof runtime for this run\n";
  ::setenv("NVTX_INJECTION64_PATH", Lib.c_str(), 1);
  for (int I = 0; I < int(rt::RtSetting::Count); ++I)
    if (!O.Values[I].empty())
      ::setenv(rt::rtSettingInfo(rt::RtSetting(I)).Env, O.Values[I].c_str(), 1);
  std::string RunId = std::to_string(long(::getpid()));
  ::setenv(rt::rtEnvInfo(rt::RtEnv::RunId).Env, RunId.c_str(), 1);
  std::string Output = rt::rtSettingText(rt::RtSetting::Output);
  if (Output.empty())
    Output = ".";
  makeOutputDir(Output);

  std::cout.flush();
  std::cerr.flush();
  // Like system(): the child gets Ctrl-C, hroof waits for it.
  struct sigaction Ign = {}, OldInt, OldQuit;
  Ign.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &Ign, &OldInt);
  ::sigaction(SIGQUIT, &Ign, &OldQuit);
  pid_t Pid = ::fork();
  if (Pid < 0)
    throw UserError(std::string("fork failed: ") + std::strerror(errno));
  if (Pid == 0) {
    ::sigaction(SIGINT, &OldInt, nullptr);
    ::sigaction(SIGQUIT, &OldQuit, nullptr);
    std::vector<char *> Argv;
    for (const std::string &A : O.Command)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    ::execvp(Argv[0], Argv.data());
    std::fprintf(stderr, "hroof: cannot run '%s': %s\n", Argv[0], std::strerror(errno));
    ::_exit(127);
  }
  // SIGTERM/SIGHUP to hroof (a batch system's time limit, `timeout`) go to
  // the program, and hroof stays to print what the profile holds.
  ChildPid = Pid;
  struct sigaction Fwd = {}, OldTerm, OldHup;
  Fwd.sa_handler = forwardSignal;
  ::sigaction(SIGTERM, &Fwd, &OldTerm);
  ::sigaction(SIGHUP, &Fwd, &OldHup);
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGTERM, &OldTerm, nullptr);
  ::sigaction(SIGHUP, &OldHup, nullptr);
  ::sigaction(SIGINT, &OldInt, nullptr);
  ::sigaction(SIGQUIT, &OldQuit, nullptr);
  int RC = WIFEXITED(Status)     ? WEXITSTATUS(Status)
           : WIFSIGNALED(Status) ? 128 + WTERMSIG(Status)
                                 : 1;
  if (WIFSIGNALED(Status))
    std::cerr << "hroof: '" << O.Command[0] << "' was killed by signal " << WTERMSIG(Status)
              << "\n";

  bool Enabled = true;
  rt::parseRtBool(rt::rtSettingText(rt::RtSetting::Enable), Enabled);
  if (O.NoSummary || !Enabled ||
      (WIFEXITED(Status) && RC == 127 && findProfiles(Output, RunId).empty()))
    return RC;
  std::vector<std::string> Profiles = findProfiles(Output, RunId);
  if (Profiles.empty())
    explainNoProfile(Output);
  for (const std::string &P : Profiles) {
    nlohmann::json J;
    try {
      J = report::readProfile(P);
    } catch (const UserError &) {
      std::cerr << "hroof: profile " << P << " is not valid JSON (the process "
                << "was killed while writing it)\n";
      continue;
    }
    try {
      printSummary(P, J);
    } catch (const UserError &E) {
      std::cerr << "hroof: " << E.what() << "\n";
    }
  }
  // torchrun / mpirun under hroof run: one profile per worker process.
  if (Profiles.size() > 1)
    std::cout << "hroof: " << Profiles.size()
              << " profiles (one per process): hroof report PROFILES... --by rank shows "
                 "each rank and GPU, communication time and the imbalance\n";
  return RC;
}

} // namespace

Subcommand addRunCommand(CLI::App &App) {
  auto O = std::make_shared<RunOptions>();
  Subcommand S;
  std::string Env = "\nEach option sets the environment variable named in its "
                    "help; the variables work without hroof run too (set "
                    "CUDA_INJECTION64_PATH to build/lib/libhroof_rt.so).\n";
  S.Parser = App.add_subcommand(
      "run", "Run CMD under the hroof runtime (libhroof_rt.so, via "
             "CUDA_INJECTION64_PATH): every kernel launch with its duration; for "
             "kernels compiled with the hroof plugin, the exact dynamic counts of "
             "each launch and the static model evaluated with its grid, block and "
             "arguments. Writes hroof-<pid>.json per CUDA process (schema: "
             "docs/profile-format.md), then prints a per-kernel summary. Exit "
             "status: CMD's (128+N if a signal N killed it). Usage: hroof run "
             "[options] -- CMD ARGS...");
  Env += "\nEnvironment (each also the option that names it above):\n ";
  for (int I = 0; I < int(rt::RtSetting::Count); ++I)
    Env += std::string(" ") + rt::rtSettingInfo(rt::RtSetting(I)).Env;
  S.Parser->footer(Env + "\n");
  for (int I = 0; I < int(rt::RtSetting::Count); ++I) {
    const rt::RuntimeSettingInfo &Info = rt::rtSettingInfo(rt::RtSetting(I));
    std::string Help =
        std::string(Info.Help) + " [" + Info.Env + ", default '" + Info.Default + "']";
    S.Parser->add_option(std::string("--") + Info.Option, O->Values[I], Help);
  }
  S.Parser->add_option("--runtime-lib", O->RuntimeLib,
                       "the runtime library to inject (default: "
                       "<dir of hroof>/../lib/libhroof_rt.so)");
  S.Parser->add_flag("--no-summary", O->NoSummary,
                     "do not print the per-kernel summary after CMD exits");
  S.Parser->add_option("command", O->Command, "CMD ARGS... (after --)");
  S.Run = [O]() { return runRun(*O); };
  return S;
}

} // namespace hroof
