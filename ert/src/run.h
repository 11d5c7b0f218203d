// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert's run: the settings and state of one run (parsed in main.cpp), the results the
// measurement groups fill, and the measurement groups themselves (measure.cpp), one function
// per group. main.cpp parses the options, calls the groups and writes the machine JSON.
#ifndef HROOF_ERT_RUN_H
#define HROOF_ERT_RUN_H

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ert_kernels.h"

namespace ert {

using json = nlohmann::ordered_json;

// The run's settings (from the command line) and what it gathers on the way; one per process.
struct Ctx {
  bool quick = false;
  int device = 0;
  std::string out = "ert-out";
  std::set<std::string> only;
  std::string peaks_path;
  bool no_cublas = false;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  ert::DeviceInfo dev;
  std::vector<json> checks; // every benchmark's self-check
  bool all_verified = true;
  double launch_ms = 25; // target length of one timed launch
  int reps = 7;          // timed launches per benchmark
  size_t global_ws = 0;  // --global-ws: the one working set of the L2/HBM sweep
  bool probe = false;    // --ncu-probe
};
extern Ctx C;

double elapsed_s();
/// A progress line on stderr: "[ert   12.3s] ...".
void progress(const std::string &s);
/// Whether measurement group \p group runs (--only).
bool want(const std::string &group);
std::string fmt(double v, int prec = 1);
/// A machine-JSON ceiling or reference: value (rounded to 0.1), unit, method.
json entry(double value, const std::string &unit, const std::string &method);
/// Keeps a benchmark's self-check for the machine JSON; a failed check is reported at once.
void record_check(const std::string &name, const Bench &b);
std::string human_bytes(double b);
/// Working-set sizes: powers of two from lo to hi with an extra point at 1.5x each.
std::vector<size_t> ws_sizes(size_t lo, size_t hi, bool halfsteps);

// CSV writer: header + rows of strings.
struct Csv {
  std::string path;
  std::vector<std::string> head;
  std::vector<std::vector<std::string>> rows;
  void write() const; ///< throws std::runtime_error when the file cannot be written
};

// What the measurement groups produce, filled group by group and written at the end.
struct Results {
  json ceil_flops = json::object(), ceil_bw = json::object(), refs = json::object();
  json ridge;                             // the FLOPs-per-byte sweep's result (null if not run)
  std::vector<double> compute_clocks;     // SM clock of the FMA and Tensor Core ceilings
  std::vector<std::string> files;         // CSV files written
  std::map<std::string, double> clock_of; // benchmark -> MHz
};

// The measurement groups (measure.cpp); each fills R and writes its CSV under C.out.
void measure_fma(Results &R);
void measure_tensor(Results &R);
void measure_l1(Results &R);
void measure_shared(Results &R);
void measure_global(Results &R);
void measure_l2(Results &R);
void measure_copy(Results &R);
void measure_ridge(Results &R);
void measure_cublas(Results &R);

} // namespace ert

#endif // HROOF_ERT_RUN_H
