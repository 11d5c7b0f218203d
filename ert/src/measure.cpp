// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// hroof-ert's measurement groups, one function each (declared in run.h): FMA, Tensor Cores,
// L1, shared, L2/HBM, copy references, the FLOPs-per-byte ridge and cuBLASLt. Each runs its
// sweep, records every benchmark's self-check, writes its CSV and fills Results.
#include "run.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis.h"
#include "cublas_ref.h"

namespace ert {

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
  if (ert::highest_plateau(pl, &p2)) {
    // The L2 ceiling until measure_l2 (the slice sweep) replaces it; kept as a reference.
    R.refs["l2_grid_stride"] =
        entry(p2.value, "GB/s",
              "highest plateau of the global working-set sweep (" + human_bytes(p2.x_begin) + ".." +
                  human_bytes(p2.x_end) +
                  "; ld.global.cg bypasses L1, each element read by one thread per pass; per point "
                  "the best of 3 read kernels: ld.global.cg with and without .L2::256B, "
                  "ld.global.nc.L1::no_allocate; see global_sweep.csv)");
    R.ceil_bw["l2"] = R.refs["l2_grid_stride"];
  }
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

// L2: the slice sweep (ert_kernels.h: bench_l2_slice); its best L1-bypassing point is the L2
// ceiling (unless the global sweep's L2 plateau is higher). Working sets 1 MiB .. 40 MiB (at
// most 80% of L2), per working set every shape and slice size.
void measure_l2(Results &R) {
  const auto &D = C.dev;
  Csv csv{C.out + "/l2_sweep.csv",
          {"ws_bytes", "shape", "load_bytes", "l1_bypass", "unroll", "threads", "blocks_per_sm",
           "slice_bytes", "blocks", "gbs", "ms", "bytes", "clock_mhz", "verified"}};
  const size_t MiB = 1 << 20;
  std::vector<size_t> sizes;
  for (size_t ws : {MiB, 3 * MiB / 2, 2 * MiB, 3 * MiB, 4 * MiB, 6 * MiB, 8 * MiB, 12 * MiB,
                    16 * MiB, 24 * MiB, 32 * MiB, 40 * MiB})
    if (ws <= D.l2_bytes * 4 / 5 && (!C.quick || (ws & (ws - 1)) == 0))
      sizes.push_back(ws);
  struct Best {
    double gbs = 0;
    std::string where;
  } best, diag;
  for (size_t ws : sizes) {
    double ws_best = 0;
    for (int s = 0; s < ert::l2_shape_count(); ++s) {
      const ert::L2Shape sh = ert::l2_shape(s);
      for (size_t slice : {128 * 1024, 512 * 1024}) {
        if (!sh.l1_bypass && slice != 512 * 1024)
          continue; // the diagnostic shape: one slice size
        ert::L2Point p = ert::bench_l2_slice(ws, slice, s, C.quick ? 1 : 3, C.reps);
        const ert::Bench &b = p.b;
        record_check("l2 " + std::string(sh.name) + " slice=" + std::to_string(slice) +
                         " ws=" + std::to_string(ws),
                     b);
        csv.rows.push_back(
            {std::to_string(ws), sh.name, std::to_string(sh.load_bytes), sh.l1_bypass ? "1" : "0",
             std::to_string(sh.unroll), std::to_string(sh.threads), std::to_string(p.blocks_per_sm),
             std::to_string(slice), std::to_string(p.blocks), fmt(b.rate_g()), fmt(b.ms, 4),
             fmt(b.work, 0), fmt(b.clock_mhz, 0), b.verified ? "1" : "0"});
        Best &into = sh.l1_bypass ? best : diag;
        std::string where = human_bytes(ws) + " working set, " + sh.name + ", " +
                            human_bytes(slice) + " per block, " + std::to_string(p.blocks) +
                            " blocks (" + std::to_string(p.blocks_per_sm) + " per SM)";
        if (b.verified && b.rate_g() > into.gbs)
          into = {b.rate_g(), where};
        if (sh.l1_bypass && b.verified)
          ws_best = std::max(ws_best, b.rate_g());
      }
    }
    progress("l2 sweep " + human_bytes(ws) + ": best " + fmt(ws_best) + " GB/s");
  }
  csv.write();
  R.files.push_back("l2_sweep.csv");
  if (diag.gbs > 0)
    R.refs["l2_l1_allocating"] =
        entry(diag.gbs, "GB/s",
              "not a ceiling: best point of the L2 sweep's ld.global.nc.v2 shape (the load "
              "gpu-l2-cache's compiler emits), which may be served by L1 when blocks on one SM "
              "share a slice: " +
                  diag.where);
  if (best.gbs <= 0)
    return;
  progress("l2 sweep best: " + fmt(best.gbs) + " GB/s (" + best.where + ")");
  double grid =
      R.refs.contains("l2_grid_stride") ? R.refs["l2_grid_stride"]["value"].get<double>() : 0.0;
  if (best.gbs < grid) {
    progress("l2: the global sweep's plateau (" + fmt(grid) + " GB/s) stays the L2 ceiling");
    return;
  }
  R.ceil_bw["l2"] = entry(
      best.gbs, "GB/s",
      "best point of the L2 slice sweep (" + best.where +
          "): each block reads one slice of the working set, slices shared by all blocks, "
          "L1 bypassed (ld.global.cg), so every byte counted (blocks x slice bytes) is requested "
          "from L2; median of " +
          std::to_string(C.reps) + " launches; all points in l2_sweep.csv");
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

} // namespace ert
