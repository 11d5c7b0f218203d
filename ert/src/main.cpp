// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert: measures the machine's ceilings (FLOP/s per precision, bandwidth per memory
// level), each beside references measured in the same run, and writes a machine JSON plus
// the raw sweeps as CSV. docs/ert.md describes usage, schema and methods.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "analysis.h"
#include "run.h"

using namespace ert;
namespace fs = std::filesystem;

namespace {
struct Peaks {
  json src; // the --peaks file as read
  bool have = false;
  double metric(const std::string &name) const {
    if (!have || !src.contains("metrics") || !src["metrics"].contains(name))
      return 0;
    auto &m = src["metrics"][name];
    return m.is_object() ? m.value("value", 0.0) : m.get<double>();
  }
};

// Parses the command line into C and *peaks; returns -1 to go on, else the exit status.
int parse_options(int argc, char **argv, Peaks *peaks) {
  CLI::App app{
      "hroof-ert: empirical roofline toolkit. Measures the GPU's ceilings (FMA on CUDA cores for\n"
      "f64/f32/half2/bf162, Tensor Cores per input type, L1/shared/HBM bandwidth from "
      "working-set\n"
      "sweeps with plateau detection, L2 bandwidth as the best point of an L2 sweep over working\n"
      "sets and kernel shapes, the FLOPs-per-byte ridge) beside references measured in the\n"
      "same run (cuBLASLt GEMM per precision, device-to-device copy, hardware peaks at the "
      "measured\n"
      "clock), and writes OUT/machine.json plus the raw sweeps as CSV. Progress goes to stderr;\n"
      "the result table to stdout. Schema and methods: docs/ert.md.",
      "hroof-ert"};
  std::string only_s;
  app.set_version_flag("--version", "hroof-ert " HROOF_VERSION);
  app.add_option("--out", C.out, "output directory (created if missing)")->capture_default_str();
  app.add_flag("--quick", C.quick, "coarser sweeps and shorter launches");
  app.add_option("--device", C.device, "CUDA device index")
      ->capture_default_str()
      ->check(CLI::Range(0, 1023));
  app.add_option(
      "--only", only_s,
      "comma-separated subset of groups to run: fma,tensor,l1,shared,global,l2,copy,ridge,"
      "cublas "
      "(default: all)");
  app.add_option(
         "--peaks", C.peaks_path,
         "JSON of Nsight Compute peak_sustained metrics (ert/run_on_gpu.sh writes it) used for the "
         "peak_* references; without it only peak_f32/peak_f64 are given, from the per-SM rates "
         "of docs/ert.md, and only for sm_90")
      ->check(CLI::ExistingFile);
  app.add_flag("--no-cublas", C.no_cublas, "skip the cuBLASLt references");
  app.add_option("--global-ws", C.global_ws,
                 "run the global (grid-stride L2/HBM) sweep at this one working-set size in "
                 "bytes (for profiling)");
  app.add_flag("--ncu-probe", C.probe,
               "launch a few short benchmark kernels and exit (target for ncu's peak query)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    if (e.get_exit_code() == 0)
      return app.exit(e); // --help
    std::fprintf(stderr, "hroof-ert: error: %s (see --help)\n", e.what());
    return 2;
  }
  if (!only_s.empty()) {
    static const std::set<std::string> groups = {"fma", "tensor", "l1",    "shared", "global",
                                                 "l2",  "copy",   "ridge", "cublas"};
    std::stringstream ss(only_s);
    std::string g;
    while (std::getline(ss, g, ',')) {
      if (!groups.count(g)) {
        std::fprintf(stderr,
                     "hroof-ert: error: --only: unknown group '%s' "
                     "(fma,tensor,l1,shared,global,l2,copy,ridge,cublas)\n",
                     g.c_str());
        return 2;
      }
      C.only.insert(g);
    }
  }
  if (C.no_cublas)
    C.only.erase("cublas");

  if (!C.peaks_path.empty()) {
    try {
      std::ifstream in(C.peaks_path);
      peaks->src = json::parse(in);
      peaks->have = true;
    } catch (const std::exception &e) {
      std::fprintf(stderr, "hroof-ert: error: --peaks %s: %s\n", C.peaks_path.c_str(), e.what());
      return 2;
    }
  }
  if (C.quick) {
    C.launch_ms = 4;
    C.reps = 3;
  }
  return -1;
}

// Creates the output directory and checks it is writable (not needed for --ncu-probe).
bool prepare_output_dir() {
  std::error_code ec;
  fs::create_directories(C.out, ec);
  std::ofstream t(C.out + "/.write-test");
  if (ec || !t) {
    std::fprintf(stderr, "hroof-ert: error: cannot write to output directory '%s'%s\n",
                 C.out.c_str(), ec ? (": " + ec.message()).c_str() : "");
    return false;
  }
  t.close();
  fs::remove(C.out + "/.write-test", ec);
  return true;
}

// The run's SM clock: median over the compute benchmarks, else over all.
double run_clock_mhz(const Results &R) {
  double clock_mhz = ert::median(R.compute_clocks);
  if (clock_mhz <= 0) {
    std::vector<double> all;
    for (auto &kv : R.clock_of)
      all.push_back(kv.second);
    clock_mhz = ert::median(all);
  }
  return clock_mhz;
}

// Hardware peaks at the measured clock: FLOP peaks from --peaks or the sm_90 per-SM rates,
// memory peaks from --peaks only.
void add_peak_references(Results &R, const Peaks &peaks, double clock_mhz) {
  const auto &D = C.dev;
  auto clk_for = [&](const std::string &k) {
    auto it = R.clock_of.find(k);
    return it != R.clock_of.end() && it->second > 0 ? it->second : clock_mhz;
  };
  const bool sm90 = D.cc_major == 9 && D.cc_minor == 0;
  auto add_flop_peak = [&](const std::string &key, const std::string &metric,
                           const std::string &instr, double builtin_per_sm) {
    double per_dev = peaks.metric(metric);
    double clk = clk_for("fma_" + key);
    std::string src;
    double per_sm = 0;
    if (per_dev > 0) {
      per_sm = per_dev / D.sm_count;
      src = "Nsight Compute " + metric + " = " + fmt(per_dev, 0) + " thread-inst/cycle (" +
            fmt(per_sm, 0) + " per SM, " + C.peaks_path + ")";
    } else if (sm90 && builtin_per_sm > 0) {
      per_sm = builtin_per_sm;
      src = fmt(per_sm, 0) + " " + instr +
            "/SM/cycle for sm_90 (Nsight Compute peak_sustained, the reference numbers of "
            "docs/ert.md)";
    } else {
      return;
    }
    double v = per_sm * 2 * D.sm_count * clk / 1e3;
    R.refs["peak_" + key] =
        entry(v, "GFLOP/s",
              src + " x 2 FLOP x " + std::to_string(D.sm_count) + " SMs x " + fmt(clk, 0) +
                  " MHz measured during the " + key + " FMA benchmark");
  };
  add_flop_peak("f64", "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained", "DFMA",
                64);
  add_flop_peak("f32", "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", "FFMA",
                128);
  if (peaks.have) {
    const double clk1 = clk_for("l1");
    double wf = peaks.metric("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained");
    if (wf > 0)
      R.refs["peak_l1"] = entry(wf * 128 * clk1 / 1e3, "GB/s",
                                "L1/shared data pipe: Nsight Compute "
                                "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained = " +
                                    fmt(wf, 0) + " wavefronts/cycle (" + fmt(wf / D.sm_count, 0) +
                                    " per SM) x 128 B per wavefront (32 banks x 4 B) x " +
                                    fmt(clk1, 0) + " MHz SM clock measured during the L1 sweep");
    double l1 = peaks.metric("l1tex__t_bytes.sum.peak_sustained");
    if (l1 > 0)
      R.refs["peak_l1_tag"] =
          entry(l1 * clk1 / 1e3, "GB/s",
                "Nsight Compute l1tex__t_bytes.sum.peak_sustained = " + fmt(l1, 0) + " B/cycle (" +
                    fmt(l1 / D.sm_count, 0) + " per SM, L1 tag stage) x " + fmt(clk1, 0) +
                    " MHz SM clock measured during the L1 sweep");
    double l2 = peaks.metric("lts__t_bytes.sum.peak_sustained");
    double l2hz = peaks.metric("lts__cycles_elapsed.avg.per_second");
    if (l2 > 0 && l2hz > 0)
      R.refs["peak_l2"] = entry(
          l2 * l2hz / 1e9, "GB/s",
          "Nsight Compute lts__t_bytes.sum.peak_sustained = " + fmt(l2, 0) +
              " B/cycle x L2 clock " + fmt(l2hz / 1e6, 0) +
              " MHz (lts__cycles_elapsed.avg.per_second, measured by ncu on the probe kernels)");
    double dr = peaks.metric("dram__bytes.sum.peak_sustained");
    double drhz = peaks.metric("dram__cycles_elapsed.avg.per_second");
    if (dr > 0 && drhz > 0)
      R.refs["peak_hbm"] = entry(dr * drhz / 1e9, "GB/s",
                                 "Nsight Compute dram__bytes.sum.peak_sustained = " + fmt(dr, 1) +
                                     " B/cycle x DRAM clock " + fmt(drhz / 1e6, 0) +
                                     " MHz (dram__cycles_elapsed.avg.per_second)");
  }
}

// Writes OUT/machine.json (schema hroof-machine/1, docs/ert.md).
bool write_machine_json(const Results &R, int argc, char **argv, double clock_mhz) {
  const auto &D = C.dev;
  char date[32];
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  std::string cmd;
  for (int i = 0; i < argc; ++i)
    cmd += (i ? " " : "") + std::string(argv[i]);
  json out;
  out["schema"] = "hroof-machine/1";
  out["tool"] = "hroof-ert";
  out["date"] = date;
  out["command"] = cmd;
  out["quick"] = C.quick;
  out["device"] = {
      {"name", D.name},
      {"sm_count", D.sm_count},
      {"clock_mhz", std::round(clock_mhz)},
      {"clock_method",
       "median over the FMA and Tensor Core benchmarks of the SM clock seen in their timed "
       "launches: the longest-running block's clock64() cycles over its %globaltimer nanoseconds"},
      {"compute_capability", std::to_string(D.cc_major) + "." + std::to_string(D.cc_minor)},
      {"l2_bytes", D.l2_bytes},
      {"memory_bytes", D.global_mem},
      {"max_clock_mhz_attribute", D.clock_khz_attr / 1000},
      {"memory_clock_mhz_attribute", D.mem_clock_khz_attr / 1000},
      {"memory_bus_width_bits", D.mem_bus_width}};
  out["ceilings"] = {{"flops", R.ceil_flops}, {"bandwidth", R.ceil_bw}};
  out["references"] = R.refs;
  if (!R.ridge.is_null())
    out["ridge"] = R.ridge;
  out["all_checks_passed"] = C.all_verified;
  out["checks"] = C.checks;
  out["files"] = R.files;
  out["elapsed_s"] = std::round(elapsed_s() * 10) / 10;
  {
    std::ofstream o(C.out + "/machine.json");
    o << out.dump(2) << "\n";
    if (!o) {
      std::fprintf(stderr, "hroof-ert: error: cannot write %s/machine.json\n", C.out.c_str());
      return false;
    }
  }
  return true;
}

// The result table on stdout: each ceiling with its ratio to its references.
void print_table(Results &R, double clock_mhz) {
  const auto &D = C.dev;
  struct Row {
    std::string group, key;
    std::vector<std::string> ref;
  };
  std::vector<Row> rows = {{"flops", "f64", {"peak_f64", "cublas_f64"}},
                           {"flops", "f32", {"peak_f32", "cublas_f32"}},
                           {"flops", "f16", {}},
                           {"flops", "bf16", {}},
                           {"flops", "tensor_f16", {"cublas_f16"}},
                           {"flops", "tensor_bf16", {"cublas_bf16"}},
                           {"flops", "tensor_tf32", {"cublas_tf32"}},
                           {"flops", "tensor_fp8", {"cublas_fp8"}},
                           {"flops", "tensor_int8", {}},
                           {"flops", "tensor_f64", {"cublas_f64", "peak_f64"}},
                           {"bandwidth", "l1", {"peak_l1", "peak_l1_tag"}},
                           {"bandwidth", "shared", {"peak_l1"}},
                           {"bandwidth", "l2", {"peak_l2", "l2_grid_stride", "l2_l1_allocating"}},
                           {"bandwidth", "hbm", {"copy_d2d", "peak_hbm"}}};
  std::printf("hroof-ert: %s, %d SMs, clock %.0f MHz during the run%s\n", D.name.c_str(),
              D.sm_count, clock_mhz, C.quick ? " (quick)" : "");
  std::printf("%-22s %14s %-8s  %s\n", "ceiling", "measured", "unit",
              "ratio to reference (reference value)");
  for (auto &r : rows) {
    json &g = r.group == "flops" ? R.ceil_flops : R.ceil_bw;
    if (!g.contains(r.key))
      continue;
    double v = g[r.key]["value"];
    std::string rr;
    for (auto &ref : r.ref) {
      if (!R.refs.contains(ref))
        continue;
      double rv = R.refs[ref]["value"];
      rr += ref + " " + fmt(100 * v / rv) + "% (" + fmt(rv) + ")  ";
    }
    std::printf("%-22s %14.1f %-8s  %s\n", (r.group + "." + r.key).c_str(), v,
                g[r.key]["unit"].get<std::string>().c_str(), rr.empty() ? "-" : rr.c_str());
  }
  std::printf("ridge (f32, HBM): %s FLOP/byte\n",
              R.ridge.is_null() ? "-"
                                : fmt(R.ridge["ridge_flop_per_byte"].get<double>(), 2).c_str());
  std::printf("all self-checks passed: %s; wrote %s/machine.json and %zu CSV file(s) in %.1f s\n",
              C.all_verified ? "yes" : "NO", C.out.c_str(), R.files.size(), elapsed_s());
}

} // namespace

int run(int argc, char **argv) {
  Peaks peaks;
  int rc = parse_options(argc, argv, &peaks);
  if (rc >= 0)
    return rc;
  if (!C.probe && !prepare_output_dir())
    return 2;
  try {
    C.dev = ert::open_device(C.device);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hroof-ert: error: %s\n", e.what());
    return 3;
  }
  const auto &D = C.dev;
  progress("device " + std::to_string(C.device) + ": " + D.name + ", sm_" +
           std::to_string(D.cc_major) + std::to_string(D.cc_minor) + ", " +
           std::to_string(D.sm_count) + " SMs, L2 " + human_bytes(D.l2_bytes) + ", " +
           human_bytes(D.global_mem) + (C.quick ? " (quick)" : ""));
  if (C.probe) {
    ert::probe_kernels();
    progress("probe kernels done");
    return 0;
  }

  Results R;
  if (want("fma"))
    measure_fma(R);
  if (want("tensor"))
    measure_tensor(R);
  if (want("l1"))
    measure_l1(R);
  if (want("shared"))
    measure_shared(R);
  if (want("global"))
    measure_global(R);
  if (want("l2"))
    measure_l2(R);
  if (want("copy"))
    measure_copy(R);
  if (want("ridge"))
    measure_ridge(R);
  ert::release_buffers();
  if (want("cublas"))
    measure_cublas(R);

  const double clock_mhz = run_clock_mhz(R);
  add_peak_references(R, peaks, clock_mhz);
  if (!write_machine_json(R, argc, argv, clock_mhz))
    return 2;
  print_table(R, clock_mhz);
  return C.all_verified ? 0 : 4;
}

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "hroof-ert: error: %s\n", e.what());
    return 3;
  }
}
