//===- ReportInputs.cpp - the inputs of `hroof report`, merged by kernel --===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Profiles (read once into a Profile, ProfileData.h) and Nsight Compute
// exports merged into one Dataset, per kernel.
//===----------------------------------------------------------------------===//
#include "Ceilings.h"
#include "ReportData.h"

#include "../Toolchain.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace hroof {
namespace report {

std::string readFile(const std::string &Path) {
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
    throw UserError("'" + Path + "' is a directory");
  if (std::string Why = unreadableReason(Path); !Why.empty())
    throw UserError("cannot read '" + Path + "': " + Why);
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  if (In.bad())
    throw UserError("cannot read '" + Path + "': read failed");
  return SS.str();
}

KernelData &kernelFor(Dataset &D, const std::string &Name, const std::string &Mangled) {
  const std::string &Key = Mangled.empty() ? Name : Mangled;
  for (KernelData &K : D.Kernels)
    if ((K.Mangled.empty() ? K.Name : K.Mangled) == Key)
      return K;
  D.Kernels.push_back({});
  D.Kernels.back().Name = Name;
  D.Kernels.back().Mangled = Mangled;
  return D.Kernels.back();
}

namespace {

void addSource(SourceCounts &S, const SourceCounts &Add) {
  if (!Add.Launches)
    return;
  S.Launches += Add.Launches;
  S.Estimated += Add.Estimated;
  addInto(S.Counts, Add.Counts);
}

void addUnique(std::vector<std::string> &List, const std::vector<std::string> &Add) {
  for (const std::string &S : Add)
    if (std::find(List.begin(), List.end(), S) == List.end())
      List.push_back(S);
}

void addKernel(Dataset &D, const std::string &Path, const std::set<std::string> &Devices,
               const ProfileKernel &A) {
  KernelData &K = kernelFor(D, A.Name, A.Mangled);
  K.Inputs.insert(Path);
  K.FromProfile = true;
  K.Devices.insert(Devices.begin(), Devices.end());
  K.Launches += A.Launches;
  K.Instrumented |= A.Instrumented;
  K.TimedLaunches += A.TimedLaunches;
  K.DurationNs += A.DurationNs;
  addSource(K.Dynamic, A.Dynamic);
  K.DynamicFromModel += A.FromModel;
  addSource(K.Counters, A.Counters);
  addSource(K.Static, A.Static);
  K.StaticExact &= A.StaticExact;
  if (A.StaticHasBounds) {
    K.StaticHasBounds = true;
    addInto(K.StaticLo, A.StaticLo);
    addInto(K.StaticHi, A.StaticHi);
    K.StaticNoHi.insert(A.StaticNoHi.begin(), A.StaticNoHi.end());
  }
  K.StaticMatches += A.StaticMatches;
  K.StaticDiffers += A.StaticDiffers;
  addUnique(K.StaticProblems, A.StaticProblems);
  addUnique(K.StaticUnknown, A.StaticUnknown);
  if (A.StaticWarp.Launches) {
    K.StaticWarp.Launches += A.StaticWarp.Launches;
    K.StaticWarpExact &= A.StaticWarpExact;
    addInto(K.StaticWarp.Counts, A.StaticWarp.Counts);
    addInto(K.StaticWarpHi, A.StaticWarpHi);
  }
}

} // namespace

void addKernels(Dataset &D, const std::string &Path, const std::set<std::string> &Devices,
                const std::vector<ProfileKernel> &Kernels) {
  for (const ProfileKernel &A : Kernels)
    addKernel(D, Path, Devices, A);
}

void addLaunches(Dataset &D, const std::vector<ProfileLaunch> &Launches) {
  // A launch whose counters miss one-pass groups (counters_incomplete,
  // --replay application) is counted like one without counters, as the
  // runtime's aggregates count it.
  for (const ProfileLaunch &L : Launches)
    if (L.CounterWarps) {
      KernelData &K = kernelFor(D, L.Kernel, L.Mangled);
      K.CounterWarps += L.Warps;
      ++K.CounterWarpLaunches;
    }
  addCounterPeaks(D.Peaks, Launches);
}

void addProfile(Dataset &D, const Profile &P) {
  // The same profile twice (same process) would count every launch twice.
  if (!P.Id.empty() && !D.ProfileIds.emplace(P.Id, P.Path).second)
    throw UserError("'" + P.Path + "' is the same profile as '" + D.ProfileIds[P.Id] +
                    "' (same host, pid and start time): give each profile once");
  std::set<std::string> Devs = P.deviceNames();
  D.Devices.insert(Devs.begin(), Devs.end());
  if (P.Kernels.empty()) {
    D.Notes.push_back("'" + P.Path + "' records no kernel launches");
    return;
  }
  addLaunches(D, P.Launches);
  addKernels(D, P.Path, Devs, P.Kernels);
}

Dataset loadInputs(const std::vector<InputFile> &Inputs, bool KeepGoing) {
  Dataset D;
  // Profiles first, then ncu exports, so ncu rows can attach to the
  // profiles' kernels whatever the order on the command line.
  for (const InputFile &In : Inputs) {
    if (!In.FileError.empty())
      throw UserError(In.FileError);
    if (!In.Fatal.empty() && !In.P && In.Unreadable.empty())
      throw UserError(In.Fatal);
    D.Inputs.push_back(In.Path);
    if (In.Ncu)
      continue;
    if (!In.Unreadable.empty()) {
      if (!KeepGoing)
        throw UserError(In.Unreadable);
      D.Notes.push_back(In.Unreadable + ": left out");
      continue;
    }
    if (!In.Fatal.empty())
      throw UserError(In.Fatal);
    if (std::string Why = incompleteReason(*In.P); !Why.empty())
      D.Notes.push_back(Why);
    addProfile(D, *In.P);
  }
  for (const InputFile &In : Inputs)
    if (In.Ncu)
      addNcuCsv(D, In.Path, In.NcuText);
  if (D.Kernels.empty())
    throw UserError((Inputs.size() == 1 ? "'" + Inputs[0].Path + "' records"
                                        : std::string("the inputs record")) +
                    std::string(" no kernel launches (empty profile: did the application "
                                "launch any kernel under hroof run?)"));
  return D;
}

Dataset loadInputs(const std::vector<std::string> &Paths, bool KeepGoing) {
  return loadInputs(readInputFiles(Paths), KeepGoing);
}

} // namespace report
} // namespace hroof
