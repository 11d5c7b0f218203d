//===- Ceilings.h - where the report's ceilings come from ----------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The ceilings of `hroof report`: --machine, else the bundled machine file
// of the profile's GPU (hroof-ert's measured ceilings), else the peaks the
// hardware counters recorded.
//
// A profile's launch records carry, beside their hardware counters, the
// GPU's reference roofs ("peak": per-cycle .peak_sustained x the clock
// measured during the launch; docs/profile-format.md). When no machine file
// of the GPU is at hand (hroof-ert has not measured it), `hroof report`
// draws the roofline against these: the hardware's nominal rates, not what
// a benchmark reaches (hroof-ert measures that), and the report says so
// wherever it names the ceilings (docs/report.md).
//===----------------------------------------------------------------------===//
#ifndef HROOF_TOOLS_REPORT_CEILINGS_H
#define HROOF_TOOLS_REPORT_CEILINGS_H

#include "ReportData.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace hroof {
namespace report {

/// The ceilings for \p D: the machine file \p MachinePath (of another GPU
/// than the inputs' only with \p AnyMachine), else the bundled one of the
/// inputs' GPU, else the counters' peaks, with notes in \p D saying so and
/// how to measure the GPU. Throws UserError saying what is missing.
Machine chooseMachine(Dataset &D, const std::string &MachinePath, bool AnyMachine);

/// Adds the "peak" objects of launch records \p Launches to \p P (the
/// highest value of each roof: the clock varies from launch to launch).
void addCounterPeaks(CounterPeaks &P, const std::vector<ProfileLaunch> &Launches);

/// The ceilings of \p P as a machine named \p Device; none without at least
/// one FLOP and one bandwidth peak. \p Missing gets the roofs the report
/// uses that the peaks lack (f32, f64, l1, l2, hbm).
std::optional<Machine> machineFromPeaks(const CounterPeaks &P, const std::string &Device,
                                        std::vector<std::string> &Missing);

/// The commands that measure the GPU's ceilings with hroof-ert and report
/// \p Inputs against them: "hroof-ert --out ert-out", then "hroof report
/// INPUTS --machine ert-out/machine.json".
std::string measureCommands(const std::vector<std::string> &Inputs);

} // namespace report
} // namespace hroof

#endif
