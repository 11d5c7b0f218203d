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
#include "cublas_ref.h"
#include "ert_kernels.h"

using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

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
Ctx C;

double elapsed_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - C.t0).count();
}
void progress(const std::string &s) {
  std::fprintf(stderr, "[ert %6.1fs] %s\n", elapsed_s(), s.c_str());
  std::fflush(stderr);
}
bool want(const std::string &group) { return C.only.empty() || C.only.count(group); }

std::string fmt(double v, int prec = 1) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, v);
  return b;
}

json entry(double value, const std::string &unit, const std::string &method) {
  json j;
  j["value"] = std::round(value * 10) / 10;
  j["unit"] = unit;
  j["method"] = method;
  return j;
}

void record_check(const std::string &name, const ert::Bench &b) {
  C.checks.push_back({{"benchmark", name}, {"verified", b.verified}, {"check", b.check}});
  if (!b.verified) {
    C.all_verified = false;
    progress("CHECK FAILED: " + name + ": " + b.check);
  }
}

// CSV writer: header + rows of strings.
struct Csv {
  std::string path;
  std::vector<std::string> head;
  std::vector<std::vector<std::string>> rows;
  void write() const {
    std::ofstream o(path);
    if (!o)
      throw std::runtime_error("cannot write " + path);
    for (size_t i = 0; i < head.size(); ++i)
      o << (i ? "," : "") << head[i];
    o << "\n";
    for (auto &r : rows) {
      for (size_t i = 0; i < r.size(); ++i)
        o << (i ? "," : "") << r[i];
      o << "\n";
    }
  }
};

std::string human_bytes(double b) {
  const char *u[] = {"B", "KiB", "MiB", "GiB"};
  int i = 0;
  while (b >= 1024 && i < 3) {
    b /= 1024;
    ++i;
  }
  return fmt(b, b < 10 ? 1 : 0) + " " + u[i];
}

// Working-set sizes: powers of two from lo to hi with an extra point at 1.5x each.
std::vector<size_t> ws_sizes(size_t lo, size_t hi, bool halfsteps) {
  std::vector<size_t> v;
  for (size_t s = lo; s <= hi; s *= 2) {
    v.push_back(s);
    if (halfsteps && s * 3 / 2 <= hi)
      v.push_back(s * 3 / 2);
  }
  std::sort(v.begin(), v.end());
  return v;
}

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

// What the measurement groups produce, filled group by group and written at the end.
struct Results {
  json ceil_flops = json::object(), ceil_bw = json::object(), refs = json::object();
  json ridge;                             // the FLOPs-per-byte sweep's result (null if not run)
  std::vector<double> compute_clocks;     // SM clock of the FMA and Tensor Core ceilings
  std::vector<std::string> files;         // CSV files written
  std::map<std::string, double> clock_of; // benchmark -> MHz
};

// Parses the command line into C and *peaks; returns -1 to go on, else the exit status.
int parse_options(int argc, char **argv, Peaks *peaks) {
  CLI::App app{
      "hroof-ert: empirical roofline toolkit. Measures the GPU's ceilings (FMA on CUDA cores for\n"
      "f64/f32/half2/bf162, Tensor Cores per input type, L1/shared/L2/HBM bandwidth from "
      "working-set\n"
      "sweeps with plateau detection, the FLOPs-per-byte ridge) beside references measured in the\n"
      "same run (cuBLASLt GEMM per precision, device-to-device copy, hardware peaks at the "
      "measured\n"
      "clock), and writes OUT/machine.json plus the raw sweeps as CSV. Progress goes to stderr;\n"
      "the result table to stdout. Schema and methods: docs/ert.md.",
      "hroof-ert"};
  std::string only_s;
  app.add_option("--out", C.out, "output directory (created if missing)")->capture_default_str();
  app.add_flag("--quick", C.quick,
               "coarser sweeps and shorter launches (H100: about 1.5 s instead of 10 s)");
  app.add_option("--device", C.device, "CUDA device index")
      ->capture_default_str()
      ->check(CLI::Range(0, 1023));
  app.add_option(
      "--only", only_s,
      "comma-separated subset of groups to run: fma,tensor,l1,shared,global,copy,ridge,cublas "
      "(default: all)");
  app.add_option(
         "--peaks", C.peaks_path,
         "JSON of Nsight Compute peak_sustained metrics (ert/run_on_gpu.sh writes it) used for the "
         "peak_* references; without it only peak_f32/peak_f64 are given, from the per-SM rates "
         "of docs/ert.md, and only for sm_90")
      ->check(CLI::ExistingFile);
  app.add_flag("--no-cublas", C.no_cublas, "skip the cuBLASLt references");
  app.add_option("--global-ws", C.global_ws,
                 "run the L2/HBM sweep at this one working-set size in bytes (for profiling)");
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
    static const std::set<std::string> groups = {"fma",    "tensor", "l1",    "shared",
                                                 "global", "copy",   "ridge", "cublas"};
    std::stringstream ss(only_s);
    std::string g;
    while (std::getline(ss, g, ',')) {
      if (!groups.count(g)) {
        std::fprintf(stderr,
                     "hroof-ert: error: --only: unknown group '%s' "
                     "(fma,tensor,l1,shared,global,copy,ridge,cublas)\n",
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

// FMA on the CUDA cores, one ceiling per precision.
void measure_fma(Results &R) {
  Csv fma_csv{C.out + "/fma.csv",
              {"precision", "gflops", "ms", "work_flop", "clock_mhz", "verified"}};
  struct F {
    ert::FmaType t;
    const char *key;
    const char *name;
  };
  for (F f : {F{ert::FmaType::f64, "f64", "f64 DFMA"}, F{ert::FmaType::f32, "f32", "f32 FFMA"},
              F{ert::FmaType::f16x2, "f16", "half2 HFMA2"},
              F{ert::FmaType::bf16x2, "bf16", "bf162 HFMA2.BF16"}}) {
    ert::Bench b = ert::bench_fma(f.t, C.launch_ms, C.reps);
    record_check(std::string("fma_") + f.key, b);
    progress(std::string("fma ") + f.name + ": " + fmt(b.rate_g()) + " GFLOP/s at " +
             fmt(b.clock_mhz, 0) + " MHz");
    fma_csv.rows.push_back({f.key, fmt(b.rate_g()), fmt(b.ms, 4), fmt(b.work, 0),
                            fmt(b.clock_mhz, 0), b.verified ? "1" : "0"});
    R.ceil_flops[f.key] = entry(
        b.rate_g(), "GFLOP/s",
        std::string(f.name) + " chains (8 per thread, 2048 threads per SM), x=x*m+c; median of " +
            std::to_string(C.reps) + " launches");
    R.ceil_flops[f.key]["clock_mhz"] = std::round(b.clock_mhz);
    R.clock_of[std::string("fma_") + f.key] = b.clock_mhz;
    R.compute_clocks.push_back(b.clock_mhz);
  }
  fma_csv.write();
  R.files.push_back("fma.csv");
}

// Tensor Cores: the best verified kernel (wgmma or mma.sync) per input type.
void measure_tensor(Results &R) {
  const auto &D = C.dev;
  Csv tc_csv{C.out + "/tensor.csv",
             {"type", "instruction", "a_operand", "warpgroups_per_sm", "gflops", "ms", "work",
              "clock_mhz", "verified"}};
  struct T {
    ert::TcType t;
    const char *key;
    const char *unit;
  };
  const bool wg = ert::wgmma_supported();
  if (!wg)
    progress("wgmma not available on this device: Tensor Cores measured with mma.sync only");
  for (T t : {T{ert::TcType::f16, "f16", "GFLOP/s"}, T{ert::TcType::bf16, "bf16", "GFLOP/s"},
              T{ert::TcType::tf32, "tf32", "GFLOP/s"}, T{ert::TcType::fp8, "fp8", "GFLOP/s"},
              T{ert::TcType::int8, "int8", "GOP/s"}, T{ert::TcType::f64, "f64", "GFLOP/s"}}) {
    double best = 0, best_clk = 0;
    std::string best_m;
    auto consider = [&](const std::string &instr, const std::string &aop, int wgs,
                        const ert::Bench &b) {
      record_check(std::string("tensor_") + t.key + " " + instr + " " + aop + " wg" +
                       std::to_string(wgs),
                   b);
      tc_csv.rows.push_back({t.key, instr, aop, std::to_string(wgs), fmt(b.rate_g()), fmt(b.ms, 4),
                             fmt(b.work, 0), fmt(b.clock_mhz, 0), b.verified ? "1" : "0"});
      progress(std::string("tensor ") + t.key + " " + instr + " A:" + aop +
               (wgs ? " " + std::to_string(wgs) + " warpgroup(s)/SM" : "") + ": " +
               fmt(b.rate_g()) + " " + t.unit + " at " + fmt(b.clock_mhz, 0) + " MHz");
      if (b.verified && b.rate_g() > best) {
        best = b.rate_g();
        best_clk = b.clock_mhz;
        best_m = instr + (aop.empty() ? "" : ", A from " + aop) +
                 (wgs ? ", " + std::to_string(wgs) + " warpgroup(s) per SM" : "");
      }
    };
    if (wg && t.t != ert::TcType::f64) {
      std::vector<int> wgs = C.quick ? std::vector<int>{2} : std::vector<int>{1, 2};
      for (int rs = 0; rs < 2; ++rs)
        for (int w : wgs) {
          ert::Bench b = ert::bench_wgmma(t.t, rs, w, C.launch_ms, C.reps);
          const char *k = t.t == ert::TcType::tf32                                ? "k8"
                          : (t.t == ert::TcType::f16 || t.t == ert::TcType::bf16) ? "k16"
                                                                                  : "k32";
          consider(std::string("wgmma.m64n256") + k, rs ? "registers" : "shared", w, b);
        }
    }
    if (t.t == ert::TcType::fp8 && D.cc_major * 10 + D.cc_minor != 89) {
      if (D.cc_major * 10 + D.cc_minor < 89)
        progress("tensor fp8: no fp8 Tensor Cores before sm_89");
      else
        progress("tensor fp8: mma.sync not timed (sm_90 emulates fp8 mma.sync; wgmma is the "
                 "hardware path)");
    } else if (!(wg && C.quick && t.t != ert::TcType::f64)) {
      ert::Bench b = ert::bench_mma_sync(t.t, C.launch_ms, C.reps);
      consider(t.t == ert::TcType::f64 ? "mma.sync.m8n8k4 (DMMA)" : "mma.sync.m16n8", "", 0, b);
    }
    if (t.t == ert::TcType::f64 && D.cc_major >= 9) {
      ert::Bench b = ert::bench_dmma_m16n8k16(C.launch_ms, C.reps);
      consider("mma.sync.m16n8k16.f64 (DMMA)", "", 0, b);
    }
    if (best > 0) {
      std::string key = std::string("tensor_") + t.key;
      R.ceil_flops[key] = entry(best, t.unit,
                                "best verified Tensor Core kernel: " + best_m + "; median of " +
                                    std::to_string(C.reps) + " launches, random operands");
      R.ceil_flops[key]["clock_mhz"] = std::round(best_clk);
      R.compute_clocks.push_back(best_clk);
    }
  }
  tc_csv.write();
  R.files.push_back("tensor.csv");
}

// The ceiling of a working-set sweep: its highest (or last) plateau.
bool sweep_ceiling(const std::string &name, const std::vector<ert::Point> &pts, bool highest,
                   ert::Plateau *out) {
  auto pl = ert::find_plateaus(pts, 0.10, 3);
  bool ok = highest ? ert::highest_plateau(pl, out) : ert::last_plateau(pl, out);
  if (!ok)
    progress(name + ": no plateau found in the sweep");
  return ok;
}

// L1: the plateau of the working-set sweep where every block reads the same data.
void measure_l1(Results &R) {
  Csv csv{C.out + "/l1_sweep.csv", {"ws_bytes", "gbs", "ms", "bytes", "clock_mhz", "verified"}};
  std::vector<ert::Point> pts;
  double clk = 0;
  auto sizes = C.quick ? ws_sizes(8 << 10, 1 << 20, false) : ws_sizes(4 << 10, 2 << 20, true);
  for (size_t ws : sizes) {
    ert::Bench b = ert::bench_l1(ws, C.quick ? 2 : 5, C.reps);
    record_check("l1 ws=" + std::to_string(ws), b);
    csv.rows.push_back({std::to_string(ws), fmt(b.rate_g()), fmt(b.ms, 4), fmt(b.work, 0),
                        fmt(b.clock_mhz, 0), b.verified ? "1" : "0"});
    pts.push_back({(double)ws, b.rate_g()});
    progress("l1 sweep " + human_bytes(ws) + " per SM: " + fmt(b.rate_g()) + " GB/s");
  }
  csv.write();
  R.files.push_back("l1_sweep.csv");
  ert::Plateau p;
  if (sweep_ceiling("l1", pts, true, &p)) {
    for (size_t i = p.first; i <= p.last; ++i)
      clk += std::stod(csv.rows[i][4]);
    clk /= p.size();
    R.ceil_bw["l1"] = entry(p.value, "GB/s",
                            "plateau of the L1 working-set sweep (every block reads the same " +
                                human_bytes(p.x_begin) + ".." + human_bytes(p.x_end) +
                                " with ld.global.ca, 16 B per thread; median over the plateau's " +
                                std::to_string(p.size()) + " points)");
    R.ceil_bw["l1"]["clock_mhz"] = std::round(clk);
    R.clock_of["l1"] = clk;
  }
}

// Shared memory: the plateau of the per-block array sweep.
void measure_shared(Results &R) {
  const auto &D = C.dev;
  Csv csv{C.out + "/shared_sweep.csv",
          {"smem_bytes_per_block", "gbs", "ms", "bytes", "clock_mhz", "verified"}};
  std::vector<ert::Point> pts;
  std::vector<size_t> sizes = {8 << 10, 16 << 10, 32 << 10, 48 << 10, 64 << 10, 96 << 10};
  for (size_t s : sizes) {
    if ((int)s * 2 > D.smem_per_sm || (int)s > D.smem_per_block_optin)
      continue;
    ert::Bench b = ert::bench_shared(s, C.quick ? 2 : 5, C.reps);
    record_check("shared bytes=" + std::to_string(s), b);
    csv.rows.push_back({std::to_string(s), fmt(b.rate_g()), fmt(b.ms, 4), fmt(b.work, 0),
                        fmt(b.clock_mhz, 0), b.verified ? "1" : "0"});
    pts.push_back({(double)s, b.rate_g()});
    progress("shared sweep " + human_bytes(s) + " per block: " + fmt(b.rate_g()) + " GB/s");
  }
  csv.write();
  R.files.push_back("shared_sweep.csv");
  ert::Plateau p;
  if (sweep_ceiling("shared", pts, true, &p)) {
    double clk = 0;
    for (size_t i = p.first; i <= p.last; ++i)
      clk += std::stod(csv.rows[i][4]);
    clk /= p.size();
    R.ceil_bw["shared"] = entry(p.value, "GB/s",
                                "plateau of the shared-memory sweep (ld.shared.v4, conflict-free, "
                                "2 blocks of 1024 threads per SM)");
    R.ceil_bw["shared"]["clock_mhz"] = std::round(clk);
    R.clock_of["shared"] = clk;
  }
}

// L2 and HBM: the highest and the last plateau of the global working-set sweep.
void measure_global(Results &R) {
  const auto &D = C.dev;
  Csv csv{C.out + "/global_sweep.csv",
          {"ws_bytes", "gbs", "ms", "bytes", "clock_mhz", "verified", "best_variant"}};
  for (int v = 0; v < ert::kGlobalReadVariants; ++v)
    csv.head.push_back(std::string("gbs_") + ert::kGlobalReadVariantNames[v]);
  std::vector<ert::Point> pts;
  size_t hi = std::min<size_t>(C.quick ? (1ull << 30) : (4ull << 30), D.global_mem / 4);
  auto sizes = C.global_ws ? std::vector<size_t>{C.global_ws} : ws_sizes(1 << 20, hi, !C.quick);
  for (size_t ws : sizes) {
    std::vector<ert::Bench> bs;
    size_t best = 0;
    for (int v = 0; v < ert::kGlobalReadVariants; ++v) {
      bs.push_back(ert::bench_global_read(ws, C.quick ? 2 : 5, C.reps, v));
      record_check(std::string("global ") + ert::kGlobalReadVariantNames[v] +
                       " ws=" + std::to_string(ws),
                   bs.back());
      if (bs.back().rate_g() > bs[best].rate_g())
        best = v;
    }
    const ert::Bench &b = bs[best];
    std::vector<std::string> row = {std::to_string(ws),
                                    fmt(b.rate_g()),
                                    fmt(b.ms, 4),
                                    fmt(b.work, 0),
                                    fmt(b.clock_mhz, 0),
                                    b.verified ? "1" : "0",
                                    ert::kGlobalReadVariantNames[best]};
    for (auto &x : bs)
      row.push_back(fmt(x.rate_g()));
    csv.rows.push_back(row);
    pts.push_back({(double)ws, b.rate_g()});
    progress("global sweep " + human_bytes(ws) + ": " + fmt(b.rate_g()) + " GB/s");
  }
  csv.write();
  R.files.push_back("global_sweep.csv");
  ert::Plateau p2, ph;
  auto pl = ert::find_plateaus(pts, 0.10, 3);
  if (ert::highest_plateau(pl, &p2))
    R.ceil_bw["l2"] =
        entry(p2.value, "GB/s",
              "highest plateau of the global working-set sweep (" + human_bytes(p2.x_begin) + ".." +
                  human_bytes(p2.x_end) +
                  "; ld.global.cg bypasses L1, each element read by one thread per pass; per point "
                  "the best of 3 read kernels: ld.global.cg with and without .L2::256B, "
                  "ld.global.nc.L1::no_allocate; see global_sweep.csv)");
  double hbm_v = 0;
  size_t hbm_n = 0;
  if (ert::memory_plateau(pts, 2.0 * D.l2_bytes, &hbm_v, &ph, &hbm_n)) {
    R.ceil_bw["hbm"] =
        entry(hbm_v, "GB/s",
              "last plateau of the global working-set sweep (" + human_bytes(ph.x_begin) + ".." +
                  human_bytes(ph.x_end) + "), median of its " + std::to_string(hbm_n) +
                  " points at working sets >= 2x L2; read-only kernel");
  } else {
    progress("hbm: the global sweep has no plateau beyond 2x L2; the largest working set is used");
    R.ceil_bw["hbm"] =
        entry(pts.back().y, "GB/s",
              "read-only kernel on the sweep's largest working set " + human_bytes(pts.back().x));
  }
}

// Copy kernel and cudaMemcpy: the d2d reference, and the HBM ceiling where the copy beats the
// sweep.
void measure_copy(Results &R) {
  double copy_kernel_gbs = 0;
  size_t bytes = C.quick ? (512ull << 20) : (1ull << 30);
  ert::Bench k = ert::bench_copy_kernel(bytes, C.reps * 2);
  record_check("copy kernel", k);
  copy_kernel_gbs = k.rate_g();
  progress("copy kernel " + human_bytes(bytes) + ": " + fmt(k.rate_g()) + " GB/s (read + write)");
  ert::Bench m = ert::bench_memcpy_d2d(bytes, C.reps * 2);
  record_check("cudaMemcpy d2d", m);
  progress("cudaMemcpy d2d " + human_bytes(bytes) + ": " + fmt(m.rate_g()) +
           " GB/s (read + write)");
  R.refs["copy_d2d"] = entry(m.rate_g(), "GB/s",
                             "cudaMemcpyAsync device to device of " + human_bytes(bytes) +
                                 ", bytes read + written, median of " + std::to_string(C.reps * 2));
  Csv csv{C.out + "/copy.csv", {"method", "bytes_each_way", "gbs", "ms", "verified"}};
  csv.rows.push_back({"copy_kernel", std::to_string(bytes), fmt(k.rate_g()), fmt(k.ms, 4),
                      k.verified ? "1" : "0"});
  csv.rows.push_back({"cudaMemcpyAsync_d2d", std::to_string(bytes), fmt(m.rate_g()), fmt(m.ms, 4),
                      m.verified ? "1" : "0"});
  csv.write();
  R.files.push_back("copy.csv");
  if (R.ceil_bw.contains("hbm") && k.verified &&
      copy_kernel_gbs > R.ceil_bw["hbm"]["value"].get<double>()) {
    R.ceil_bw["hbm"] = entry(
        copy_kernel_gbs, "GB/s",
        "copy kernel (ld.global.cg.L2::256B + st.global.cs, 16 B per thread) over " +
            human_bytes(bytes) + ", bytes read + written; above the read-only sweep's plateau of " +
            fmt(R.ceil_bw["hbm"]["value"].get<double>()) + " GB/s");
  }
}

// FLOPs-per-byte sweep: where f32 FMA throughput stops being bandwidth-bound.
void measure_ridge(Results &R) {
  Csv csv{C.out + "/ridge_sweep.csv",
          {"fma_per_float", "flop_per_byte", "gflops", "gbs", "ms", "clock_mhz", "verified"}};
  int n;
  const int *F = ert::ridge_fma_counts(&n);
  size_t bytes = C.quick ? (512ull << 20) : (1ull << 30);
  std::vector<double> ai, gf, gb;
  for (int i = 0; i < n; ++i) {
    if (C.quick && i % 2)
      continue;
    ert::Bench b = ert::bench_ridge(F[i], bytes, C.reps);
    record_check("ridge F=" + std::to_string(F[i]), b);
    double a = F[i] / 2.0, gflops = b.rate_g(), gbs = bytes / (b.ms * 1e6);
    csv.rows.push_back({std::to_string(F[i]), fmt(a, 2), fmt(gflops), fmt(gbs), fmt(b.ms, 4),
                        fmt(b.clock_mhz, 0), b.verified ? "1" : "0"});
    ai.push_back(a);
    gf.push_back(gflops);
    gb.push_back(gbs);
    progress("ridge sweep " + fmt(a, 1) + " FLOP/B: " + fmt(gflops) + " GFLOP/s, " + fmt(gbs) +
             " GB/s");
  }
  csv.write();
  R.files.push_back("ridge_sweep.csv");
  ert::RidgeResult r = ert::find_ridge(ai, gf, gb);
  R.ridge = {{"precision", "f32"},
             {"bandwidth_plateau_gbs", std::round(r.bw_plateau)},
             {"flops_plateau_gflops", std::round(r.flops_plateau)},
             {"ridge_flop_per_byte", std::round(r.ridge_ai * 100) / 100},
             {"knee_flop_per_byte", r.knee_ai},
             {"method", "f32 FMAs per float loaded from a " + human_bytes(bytes) +
                            " buffer (ld.global.cg); ridge = compute plateau / bandwidth plateau; "
                            "knee = first point at 90% of the compute plateau"}};
  progress("ridge: " + fmt(r.ridge_ai, 2) + " FLOP/B (knee at " + fmt(r.knee_ai, 1) + ")");
}

// cuBLASLt GEMM references, the best (shape, algorithm) per precision.
void measure_cublas(Results &R) {
  const auto &D = C.dev;
  Csv csv{C.out + "/cublas.csv", {"precision", "m", "n", "k", "algo", "gflops", "ms"}};
  std::vector<std::vector<int>> big = C.quick ? std::vector<std::vector<int>>{{8192, 8192, 8192}}
                                              : std::vector<std::vector<int>>{{4096, 4096, 4096},
                                                                              {8192, 8192, 8192},
                                                                              {8192, 8192, 16384}};
  std::vector<std::vector<int>> slow =
      C.quick ? std::vector<std::vector<int>>{{4096, 4096, 4096}}
              : std::vector<std::vector<int>>{{4096, 4096, 4096}, {8192, 8192, 8192}};
  for (std::string p : {"f64", "f32", "tf32", "f16", "bf16", "fp8"}) {
    if (p == "fp8" && D.cc_major * 10 + D.cc_minor < 89)
      continue;
    try {
      auto runs =
          ert::cublas_gemm(p, (p == "f64" || p == "f32") ? slow : big, C.quick ? 1 : 3, C.reps);
      ert::GemmRun best;
      for (auto &r : runs) {
        csv.rows.push_back({p, std::to_string(r.m), std::to_string(r.n), std::to_string(r.k),
                            std::to_string(r.algo), fmt(r.gflops), fmt(r.ms, 4)});
        if (r.gflops > best.gflops)
          best = r;
      }
      std::string shape =
          std::to_string(best.m) + "x" + std::to_string(best.n) + "x" + std::to_string(best.k);
      R.refs["cublas_" + p] = entry(best.gflops, "GFLOP/s",
                                    "cublasLtMatmul TN, best of " + std::to_string(runs.size()) +
                                        " (shape, algorithm) pairs: " + shape +
                                        " heuristic algorithm #" + std::to_string(best.algo) +
                                        ", random inputs, median of " + std::to_string(C.reps));
      progress("cublas " + p + ": best " + fmt(best.gflops) + " GFLOP/s (" + shape + ")");
    } catch (const std::exception &e) {
      progress("cublas " + p + ": " + e.what());
    }
  }
  csv.write();
  R.files.push_back("cublas.csv");
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
  out["R.files"] = R.files;
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
                           {"bandwidth", "l2", {"peak_l2"}},
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
