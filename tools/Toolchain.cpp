//===- Toolchain.cpp - find clang, the plugin and CUDA; compile with them -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Toolchain.h"
#include "Settings.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hroof {

std::string executableDir() {
  char Buf[4096];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  if (N <= 0)
    return ".";
  std::string P(Buf, size_t(N));
  return P.substr(0, P.rfind('/'));
}

std::string installPrefix() {
  std::string Dir = executableDir();
  size_t Slash = Dir.rfind('/');
  return Slash == std::string::npos || Slash == 0 ? Dir + "/.." : Dir.substr(0, Slash);
}

std::string dataPath(const std::string &Rel) {
  std::string P = installPrefix() + "/share/hroof/" + Rel;
  struct stat S;
  return stat(P.c_str(), &S) == 0 ? P : "";
}

static bool isFile(const std::string &P) {
  struct stat S;
  return stat(P.c_str(), &S) == 0 && S_ISREG(S.st_mode);
}

static bool isDirectory(const std::string &P) {
  struct stat S;
  return stat(P.c_str(), &S) == 0 && S_ISDIR(S.st_mode);
}

std::string unreadableReason(const std::string &Path) {
  int Fd = open(Path.c_str(), O_RDONLY);
  if (Fd < 0)
    return std::strerror(errno);
  struct stat S;
  bool Dir = fstat(Fd, &S) == 0 && S_ISDIR(S.st_mode);
  close(Fd);
  return Dir ? "it is a directory" : "";
}

std::string readTextFile(const std::string &Path) {
  if (std::string Why = unreadableReason(Path); !Why.empty())
    throw UserError("cannot read '" + Path + "': " + Why);
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  if (!In && !In.eof())
    throw UserError("cannot read '" + Path + "': read failed");
  return SS.str();
}

std::string findOnPath(const std::string &Program) {
  const char *Path = std::getenv("PATH");
  std::stringstream Dirs(Path ? Path : "");
  for (std::string Dir; std::getline(Dirs, Dir, ':');) {
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/" + Program;
    if (isFile(Candidate) && access(Candidate.c_str(), X_OK) == 0)
      return Candidate;
  }
  return "";
}

int runProgram(const std::vector<std::string> &Argv, const std::string &OutPath,
               const std::string &ErrPath) {
  std::cout.flush();
  std::cerr.flush();
  pid_t Pid = fork();
  if (Pid < 0)
    return 127;
  if (Pid == 0) {
    auto Redirect = [](const std::string &P, int Fd) {
      if (P.empty())
        return;
      int F = open(P.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (F < 0)
        _exit(127);
      dup2(F, Fd);
      close(F);
    };
    Redirect(OutPath, 1);
    if (!ErrPath.empty() && ErrPath == OutPath)
      dup2(1, 2); // one file, one offset: the two streams interleave
    else
      Redirect(ErrPath, 2);
    std::vector<char *> A;
    for (const std::string &S : Argv)
      A.push_back(const_cast<char *>(S.c_str()));
    A.push_back(nullptr);
    execvp(A[0], A.data());
    _exit(127);
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : WIFSIGNALED(Status) ? 128 + WTERMSIG(Status) : 1;
}

Toolchain Toolchain::find() {
  Toolchain TC;
  TC.Clang = setting(Setting::Clang);
  if (TC.Clang.empty())
    TC.Clang = HROOF_DEFAULT_CLANG;
  if (!isFile(TC.Clang) || access(TC.Clang.c_str(), X_OK) != 0)
    throw UserError("clang++ not found at '" + TC.Clang +
                    "' (install clang-22 with scripts/setup.sh, or set HROOF_CLANG)");
  TC.Plugin = setting(Setting::Plugin);
  if (TC.Plugin.empty())
    TC.Plugin = executableDir() + "/../lib/hroof.so";
  if (!isFile(TC.Plugin))
    throw UserError("the hroof plugin is missing at '" + TC.Plugin +
                    "' (build it with scripts/setup.sh, or set HROOF_PLUGIN)");
  TC.CudaPath = setting(Setting::CudaPath);
  if (TC.CudaPath.empty())
    TC.CudaPath = HROOF_DEFAULT_CUDA_PATH;
  if (!isFile(TC.CudaPath + "/include/cuda.h"))
    throw UserError("the CUDA toolkit is missing at '" + TC.CudaPath + "' (set CUDA_PATH)");
  return TC;
}

namespace {
/// Runs Argv with extra environment; returns exit status, stderr captured.
int runProcess(const std::vector<std::string> &Argv, const std::vector<std::string> &Env,
               std::string &Stderr) {
  char ErrPath[] = "/tmp/hroof-err-XXXXXX";
  int ErrFd = mkstemp(ErrPath);
  if (ErrFd < 0)
    throw UserError("cannot create a temporary file in /tmp");
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(ErrFd, 2);
    int Null = open("/dev/null", 1);
    if (Null >= 0)
      dup2(Null, 1);
    for (const std::string &E : Env)
      putenv(const_cast<char *>(E.c_str()));
    std::vector<char *> A;
    for (const std::string &S : Argv)
      A.push_back(const_cast<char *>(S.c_str()));
    A.push_back(nullptr);
    execv(A[0], A.data());
    perror("exec");
    _exit(127);
  }
  int Status = 0;
  waitpid(Pid, &Status, 0);
  close(ErrFd);
  std::ifstream In(ErrPath);
  std::stringstream SS;
  SS << In.rdbuf();
  Stderr = SS.str();
  unlink(ErrPath);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128;
}
/// The first line of clang's output that reports an error, for a one-line
/// message (the rest on request).
std::string firstErrorLine(const std::string &Diagnostics, int ExitStatus) {
  std::istringstream Lines(Diagnostics);
  for (std::string L; std::getline(Lines, L);)
    if (L.find("error") != std::string::npos)
      return L;
  return "clang exited with status " + std::to_string(ExitStatus);
}
} // namespace

CompileResult compileStaticModel(const Toolchain &TC, const std::string &File,
                                 const std::string &Arch,
                                 const std::vector<std::string> &ExtraArgs) {
  if (std::string Why = unreadableReason(File); !Why.empty())
    throw UserError("cannot read '" + File + "': " + Why);
  char JsonPath[] = "/tmp/hroof-model-XXXXXX";
  int Fd = mkstemp(JsonPath);
  if (Fd < 0)
    throw UserError("cannot create a temporary file in /tmp");
  close(Fd);
  bool HasOpt = false;
  for (const std::string &A : ExtraArgs)
    HasOpt |= A.size() >= 2 && A.compare(0, 2, "-O") == 0;
  std::vector<std::string> Argv = {TC.Clang,
                                   "-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=" + Arch,
                                   "--cuda-path=" + TC.CudaPath,
                                   "-Wno-unknown-cuda-version",
                                   "-fno-discard-value-names",
                                   "-fpass-plugin=" + TC.Plugin,
                                   "-S",
                                   "-o",
                                   "/dev/null"};
  if (!HasOpt)
    Argv.push_back("-O2");
  // CUDA 13 keeps Thrust, CUB and libcu++ under include/cccl, which nvcc
  // searches and clang does not: the same #include <cub/...> must work here.
  if (isDirectory(TC.CudaPath + "/include/cccl")) {
    Argv.push_back("-isystem");
    Argv.push_back(TC.CudaPath + "/include/cccl");
  }
  // The cache-hinted loads and stores that nvcc has and clang lacks
  // (__ldlu, __stcs, ...), installed next to the plugin's folder.
  std::string Compat = executableDir() + "/../include/hroof/cuda_compat.h";
  if (isFile(Compat)) {
    Argv.push_back("-include");
    Argv.push_back(Compat);
  }
  Argv.insert(Argv.end(), ExtraArgs.begin(), ExtraArgs.end());
  Argv.push_back(File);
  CompileResult R;
  int RC = runProcess(Argv, {"HROOF_STATIC_JSON=" + std::string(JsonPath)}, R.Diagnostics);
  std::ifstream In(JsonPath);
  std::stringstream SS;
  SS << In.rdbuf();
  R.ModelJson = SS.str();
  unlink(JsonPath);
  if (RC != 0) {
    std::string First = firstErrorLine(R.Diagnostics, RC);
    // The file is not at fault for an architecture clang does not know.
    if (First.find("unsupported CUDA gpu architecture") != std::string::npos)
      throw UsageError("--arch '" + Arch + "': clang does not know this GPU architecture (" +
                       First + "); e.g. sm_90");
    // Clang failing with the plugin may be the plugin's fault, not the
    // file's: the same compile without it tells which.
    std::vector<std::string> Plain;
    for (const std::string &A : Argv)
      if (A.compare(0, 14, "-fpass-plugin=") != 0)
        Plain.push_back(A);
    std::string PlainDiagnostics;
    if (runProcess(Plain, {}, PlainDiagnostics) == 0)
      throw UserError("the hroof plugin failed on '" + File +
                      "' (clang compiles it without the plugin): " + First + "; please report it");
    throw UserError("'" + File + "' does not compile: " + First);
  }
  if (R.ModelJson.empty())
    throw UserError("the plugin wrote no static model for '" + File + "' (is '" + TC.Plugin +
                    "' an hroof plugin?)");
  // The plugin's own warnings (device code at -O0, ...) reach the user as a
  // compile would show them; clang's other diagnostics stay captured.
  std::istringstream Lines(R.Diagnostics);
  for (std::string L; std::getline(Lines, L);)
    if (L.find("warning: hroof:") != std::string::npos)
      std::cerr << L << "\n";
  return R;
}

} // namespace hroof
