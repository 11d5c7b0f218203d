//===- Ceilings.cpp - where the report's ceilings come from --------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "Ceilings.h"

#include "../Toolchain.h"

#include "hroof/ProfileKeys.h"

#include <algorithm>

namespace hroof {
namespace report {

namespace pk = hroof::profile_keys;

namespace {

void keepHighest(std::map<std::string, double> &Out, const std::string &Key, double V) {
  double G = V / 1e9; // per second -> GFLOP/s, GB/s
  if (G > 0)
    Out[Key] = std::max(Out[Key], G);
}

/// Shell-safe form of a path: as is when it has no special character.
std::string shellWord(const std::string &S) {
  bool Plain = !S.empty() && S.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                 "0123456789_./-+=:@,%") == std::string::npos;
  if (Plain)
    return S;
  std::string R = "'";
  for (char C : S)
    R += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return R + "'";
}

} // namespace

void addCounterPeaks(CounterPeaks &P, const std::vector<ProfileLaunch> &Launches) {
  for (const ProfileLaunch &L : Launches) {
    if (!L.Peak)
      continue;
    ++P.Records;
    for (const auto &[Prec, V] : L.Peak->FlopsPerS) {
      keepHighest(P.Flops, Prec, V);
      // The counters count bf16 under f16 (one HFMA2 pipe, one peak).
      if (Prec == "f16")
        keepHighest(P.Flops, "bf16", V);
    }
    for (const auto &[Type, V] : L.Peak->TensorFlopsPerS)
      keepHighest(P.Flops, "tensor_" + Type, V);
    for (const auto &[Level, V] : L.Peak->BytesPerS)
      keepHighest(P.Bandwidth, Level, V);
  }
}

std::optional<Machine> machineFromPeaks(const CounterPeaks &P, const std::string &Device,
                                        std::vector<std::string> &Missing) {
  for (const char *F : {"f32", "f64"})
    if (!P.Flops.count(F))
      Missing.push_back(F);
  for (const char *B : {"l1", "l2", "hbm"})
    if (!P.Bandwidth.count(B))
      Missing.push_back(B);
  if (P.Flops.empty() || P.Bandwidth.empty())
    return std::nullopt;
  Machine M;
  M.Name = Device.empty() ? std::string("the profiled GPU") : Device;
  M.FromCounterPeaks = true;
  M.Flops = P.Flops;
  M.Bandwidth = P.Bandwidth;
  return M;
}

std::string measureCommands(const std::vector<std::string> &Inputs) {
  std::string Report = "hroof report";
  for (const std::string &I : Inputs)
    Report += " " + shellWord(I);
  return shellWord(executableDir() + "/hroof-ert") + " --out ert-out" +
         " (on a machine with this GPU; docs/ert.md), then " + Report +
         " --machine ert-out/machine.json";
}

namespace {

std::string joined(const std::vector<std::string> &Items) {
  std::string R;
  for (const std::string &I : Items)
    R += (R.empty() ? "" : ", ") + I;
  return R;
}

/// No machine file: the counters' peaks, or an error naming what is missing.
Machine peakCeilings(Dataset &D, const std::string &Device, const std::string &Why) {
  std::vector<std::string> Missing;
  std::optional<Machine> M = machineFromPeaks(D.Peaks, Device, Missing);
  if (!M)
    throw UserError(Why + ", and the inputs' hardware counters record no " +
                    (D.Peaks.Records
                         ? "FLOP or no bandwidth peak (in " + std::to_string(D.Peaks.Records) +
                               " launch record(s) with a \"" + pk::Peak + "\")"
                         : "peaks (no launch record has counters with a \"" +
                               std::string(pk::Peak) +
                               "\": --counters none, an Nsight Compute export, or a profile "
                               "written before peaks were recorded)") +
                    ": give --machine M.json; measure it with " + measureCommands(D.Inputs));
  D.Notes.push_back(Why +
                    ": the ceilings are the peaks the hardware counters recorded (per-cycle "
                    "peak_sustained x the clock of the launch, the highest over " +
                    std::to_string(D.Peaks.Records) +
                    " launch record(s)): nominal rates, not measured (hroof-ert measures what "
                    "kernels reach)" +
                    (Missing.empty() ? "" : "; no peak for " + joined(Missing)));
  D.Notes.push_back("measure the ceilings: " + measureCommands(D.Inputs));
  return *M;
}

} // namespace

Machine chooseMachine(Dataset &D, const std::string &MachinePath, bool AnyMachine) {
  std::string Device = D.Devices.size() == 1 ? *D.Devices.begin() : "";
  if (D.Devices.size() > 1)
    D.Notes.push_back("the inputs ran on several GPU models (" +
                      joined({D.Devices.begin(), D.Devices.end()}) + ")");
  if (!MachinePath.empty()) {
    Machine M = loadMachine(MachinePath);
    for (const std::string &Dv : D.Devices)
      if (!sameDevice(Dv, M.Name) && !AnyMachine)
        throw UserError("machine file '" + MachinePath + "' is for '" + M.Name +
                        "' but the profile ran on '" + Dv +
                        "' (use the machine file of that GPU, or --any-machine" +
                        (D.Peaks.Records ? ", or leave out --machine for the peaks its "
                                           "hardware counters recorded)"
                                         : ")"));
    return M;
  }
  if (D.Devices.size() > 1) // one set of peaks would mix the GPUs' roofs
    throw UserError("the inputs ran on several GPU models (" +
                    joined({D.Devices.begin(), D.Devices.end()}) +
                    "): give --machine M.json (and --any-machine)");
  if (!Device.empty())
    if (std::optional<std::string> F = findMachineFor(Device))
      return loadMachine(*F);
  return peakCeilings(D, Device,
                      Device.empty()
                          ? "the inputs do not say which GPU they ran on"
                          : "no bundled machine file for '" + Device + "' in " + machinesDir());
}

} // namespace report
} // namespace hroof
