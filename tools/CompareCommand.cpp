//===- CompareCommand.cpp - hroof compare PROFILE... ---------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Per kernel, the three sources side by side (per launch): the static model,
// the dynamic counts and the hardware counters: FLOPs per precision, special
// operations, requested bytes, cache-level bytes and arithmetic intensity,
// with the reason for each disagreement where the tool knows it
// (docs/report.md "hroof compare").
//===----------------------------------------------------------------------===//
#include "Settings.h"
#include "Subcommand.h"
#include "Toolchain.h"
#include "report/ReportData.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <regex>
#include <sstream>
#include <tuple>

namespace hroof {

using namespace report;

namespace {

struct CompareOptions {
  std::vector<std::string> Inputs;
  std::string Kernel;
  bool Json = false;
  double Tolerance = 1.0; ///< percent
};

/// Per-launch value of \p Key (or of the keys under prefix "P." when Key
/// ends in '.') in \p S; nullopt when the source is absent or lacks it.
std::optional<double> perLaunch(const SourceCounts &S, const std::string &Key) {
  if (!S.present())
    return std::nullopt;
  if (!Key.empty() && Key.back() == '.') {
    auto It = S.Counts.lower_bound(Key);
    if (It == S.Counts.end() || It->first.compare(0, Key.size(), Key) != 0)
      return std::nullopt;
    return sumPrefix(S.Counts, Key) / double(S.Launches);
  }
  if (!S.Counts.count(Key))
    return std::nullopt;
  return get(S.Counts, Key) / double(S.Launches);
}

std::optional<double> flopsOf(const SourceCounts &S) {
  auto A = perLaunch(S, "flops."), B = perLaunch(S, "tensor_flops.");
  if (!A && !B)
    return std::nullopt;
  return A.value_or(0) + B.value_or(0);
}

bool differ(std::optional<double> A, std::optional<double> B, double TolPct) {
  if (!A || !B)
    return false;
  double M = std::max(std::fabs(*A), std::fabs(*B));
  return M > 0 && std::fabs(*A - *B) > M * TolPct / 100.0;
}

std::string cell(std::optional<double> V) { return V ? fmtNum(*V, 4) : "-"; }

struct Line {
  std::string What;
  std::optional<double> Static, Dynamic, Counters;
  std::optional<double> StaticHi; ///< upper bound where the static value is a range
  /// A warp-level row whose dynamic count is 0 while the kernel's requested
  /// bytes of that space and direction are not: not counted at warp level.
  bool DynamicNotCounted = false;
};

/// The static cell: a number, or "lo..hi" for bounds.
std::string staticCell(const Line &L) {
  if (L.StaticHi && L.Static && std::isinf(*L.StaticHi))
    return fmtNum(*L.Static, 3) + "..(no bound)";
  if (L.StaticHi && L.Static && *L.StaticHi != *L.Static)
    return fmtNum(*L.Static, 3) + ".." + fmtNum(*L.StaticHi, 3);
  return cell(L.Static);
}

nlohmann::json optJson(std::optional<double> V) {
  return V ? nlohmann::json(*V) : nlohmann::json(nullptr);
}

/// A model that is not exact gives bounds: the static cell of the counters
/// under \p Keys (prefixes ending in '.', or whole keys) becomes lo..hi per
/// launch, hi infinite where some counter has no upper bound.
void staticBounds(const KernelData &K, std::initializer_list<std::string> Keys, Line &L) {
  if (!K.StaticHasBounds || !K.Static.Launches)
    return;
  double Lo = 0, Hi = 0;
  bool Bounded = true;
  auto Match = [&](const std::string &Counter) {
    for (const std::string &Key : Keys)
      if (Key.back() == '.' ? Counter.compare(0, Key.size(), Key) == 0 : Counter == Key)
        return true;
    return false;
  };
  for (const auto &[Counter, V] : K.StaticLo)
    Lo += Match(Counter) ? V : 0;
  for (const auto &[Counter, V] : K.StaticHi)
    Hi += Match(Counter) ? V : 0;
  for (const std::string &Counter : K.StaticNoHi)
    Bounded &= !Match(Counter);
  double N = double(K.Static.Launches);
  L.Static = Lo / N;
  L.StaticHi = Bounded ? Hi / N : std::numeric_limits<double>::infinity();
}

/// The per-launch rows of one kernel: FLOPs by precision, bytes by level
/// and the arithmetic intensities, in each source.
std::vector<Line> comparisonLines(const KernelData &K) {
  std::vector<Line> Lines;
  auto Add = [&](const std::string &What, const std::string &Key) {
    Line L{What, perLaunch(K.Static, Key), perLaunch(K.Dynamic, Key), perLaunch(K.Counters, Key)};
    if (L.Static)
      staticBounds(K, {Key}, L);
    // Rows that are zero in every source carry nothing.
    if (L.Static.value_or(0) || L.Dynamic.value_or(0) || L.Counters.value_or(0))
      Lines.push_back(L);
  };
  Lines.push_back({"FLOPs (all)", flopsOf(K.Static), flopsOf(K.Dynamic), flopsOf(K.Counters)});
  if (Lines.back().Static)
    staticBounds(K, {"flops.", "tensor_flops."}, Lines.back());
  for (const char *P : {"f64", "f32", "f16", "bf16"})
    Add(std::string("  flops ") + P, std::string("flops.") + P);
  for (const char *T : {"f16", "bf16", "tf32", "fp8", "int8", "f64"})
    Add(std::string("  tensor ") + T, std::string("tensor_flops.") + T);
  Add("special ops", "special.");
  Add("global bytes (requested)", "bytes.global.");
  Add("shared bytes", "bytes.shared.");
  Add("local bytes", "bytes.local.");
  Add("L1 bytes", "l1_bytes");
  Add("L2 bytes", "l2_bytes");
  Add("DRAM bytes", "dram_bytes");
  // Warp-level traffic: the static warp model and the dynamic counts (an
  // instrumented build counts them exactly) against the counters of the same
  // quantity (the counters' bytes.* are per warp request already).
  for (const auto &[What, WarpKey, CounterKey] :
       {std::tuple{"warp bytes global load", "warp_bytes.global.load", "bytes.global.load"},
        {"warp bytes global store", "warp_bytes.global.store", "bytes.global.store"},
        {"warp bytes shared load", "warp_bytes.shared.load", "bytes.shared.load"},
        {"warp bytes shared store", "warp_bytes.shared.store", "bytes.shared.store"},
        {"sectors global load", "sectors.global.load", "sectors.global.load"},
        {"sectors global store", "sectors.global.store", "sectors.global.store"},
        {"wavefronts shared load", "wavefronts.shared.load", "wavefronts.shared.load"},
        {"wavefronts shared store", "wavefronts.shared.store", "wavefronts.shared.store"},
        // The footprint is the compulsory DRAM traffic: equal to the DRAM
        // bytes when caches are flushed before the launch and the working
        // set does not fit in L2 (footprintReasons).
        {"footprint load (DRAM read)", "footprint.global.load", "dram_read_bytes"},
        {"footprint store (DRAM write)", "footprint.global.store", "dram_write_bytes"}}) {
    bool Footprint = std::string(WarpKey).rfind("footprint", 0) == 0;
    Line L{What, perLaunch(K.StaticWarp, WarpKey),
           Footprint ? std::nullopt : perLaunch(K.Dynamic, WarpKey),
           perLaunch(K.Counters, CounterKey), std::nullopt};
    // A request that executes has at least one distinct address, so a zero
    // beside nonzero requested bytes means the build did not count it
    // (built without the opt-in -hroof-warp-counts, or a device function the plugin does not
    // instrument), not that the hardware saw nothing.
    std::string Key(WarpKey);
    std::string Thread = "bytes" + Key.substr(Key.find('.'));
    if (!Footprint && L.Dynamic && *L.Dynamic == 0 && perLaunch(K.Dynamic, Thread).value_or(0) > 0) {
      L.Dynamic.reset();
      L.DynamicNotCounted = true;
    }
    if (L.Static && K.StaticWarpHi.count(WarpKey))
      L.StaticHi = get(K.StaticWarpHi, WarpKey) / double(K.StaticWarp.Launches);
    if (L.Static.value_or(0) || L.StaticHi.value_or(0) || L.Dynamic.value_or(0) ||
        L.Counters.value_or(0))
      Lines.push_back(L);
  }
  auto F = [&](const SourceCounts &S) { return flopsOf(S); };
  auto AI = [&](const SourceCounts &S, const std::string &Key) -> std::optional<double> {
    auto Fl = F(S);
    auto B = perLaunch(S, Key);
    if (!Fl || !B || *B <= 0)
      return std::nullopt;
    return *Fl / *B;
  };
  Lines.push_back({"AI global (requested)", AI(K.Static, "bytes.global."),
                   AI(K.Dynamic, "bytes.global."), AI(K.Counters, "bytes.global.")});
  // Per level, the static warp-level model's bytes (sectors x 32 at L1,
  // wavefronts x 128 at shared, the footprint at HBM; lower bounds where it
  // gives bounds) beside the counters'.
  auto LevelBytes = [&](const SourceCounts &S, std::initializer_list<const char *> Keys,
                        double Unit) -> std::optional<double> {
    std::optional<double> Sum;
    for (const char *Key : Keys)
      if (auto V = perLaunch(S, Key))
        Sum = Sum.value_or(0) + *V * Unit;
    return Sum;
  };
  auto Over = [](std::optional<double> Fl, std::optional<double> B) -> std::optional<double> {
    if (!Fl || !B || *B <= 0)
      return std::nullopt;
    return *Fl / *B;
  };
  auto SF = flopsOf(K.Static);
  std::optional<double> StaticL1 =
      Over(SF, LevelBytes(K.StaticWarp, {"sectors.global.load", "sectors.global.store"}, 32));
  std::optional<double> StaticShared = Over(
      SF, LevelBytes(K.StaticWarp, {"wavefronts.shared.load", "wavefronts.shared.store"}, 128));
  std::optional<double> StaticHbm =
      Over(SF, LevelBytes(K.StaticWarp, {"footprint.global.load", "footprint.global.store"}, 1));
  std::optional<double> CounterShared =
      Over(flopsOf(K.Counters),
           LevelBytes(K.Counters, {"wavefronts.shared.load", "wavefronts.shared.store"}, 128));
  // The dynamic warp-level counts (instrumented builds) give the same levels.
  auto DF = flopsOf(K.Dynamic);
  std::optional<double> DynL1 =
      Over(DF, LevelBytes(K.Dynamic, {"sectors.global.load", "sectors.global.store"}, 32));
  std::optional<double> DynShared =
      Over(DF, LevelBytes(K.Dynamic, {"wavefronts.shared.load", "wavefronts.shared.store"}, 128));
  std::optional<double> None;
  for (const auto &[Name, Static, Dynamic, Counter] :
       {std::tuple{"AI L1", StaticL1, DynL1, AI(K.Counters, "l1_bytes")},
        {"AI shared", StaticShared, DynShared, CounterShared},
        {"AI L2", None, None, AI(K.Counters, "l2_bytes")},
        {"AI HBM", StaticHbm, None, AI(K.Counters, "dram_bytes")}})
    if (Static || Dynamic || Counter)
      Lines.push_back({Name, Static, Dynamic, Counter});

  return Lines;
}

/// The FLOPs and requested global bytes per launch of each source.
struct Totals {
  std::optional<double> SF, DF, CF, SB, DB, CB;
  explicit Totals(const KernelData &K)
      : SF(flopsOf(K.Static)), DF(flopsOf(K.Dynamic)), CF(flopsOf(K.Counters)),
        SB(perLaunch(K.Static, "bytes.global.")), DB(perLaunch(K.Dynamic, "bytes.global.")),
        CB(perLaunch(K.Counters, "bytes.global.")) {}
};

/// Why the sources are what they are: which ones exist, and whether the
/// static model agrees with the dynamic counts.
void staticReasons(const KernelData &K, const Totals &T, double Tolerance,
                   std::vector<std::string> &Why) {
  const std::optional<double> &SF = T.SF, &DF = T.DF, &SB = T.SB, &DB = T.DB;
  if (!K.Instrumented && !K.Dynamic.present())
    Why.push_back(K.Counters.present()
                      ? "counters only: no dynamic counts or static model (uninstrumented or "
                        "library kernel, or an ncu import)"
                      : "no counts at all: an uninstrumented kernel without hardware counters "
                        "(only its time is known; run with counters on, or import an ncu export)");
  if (K.Instrumented && !K.Static.present()) {
    std::string P;
    for (const std::string &S : K.StaticProblems)
      P += (P.empty() ? "" : "; ") + S;
    Why.push_back("no static totals at these launches" + (P.empty() ? "" : ": " + P));
  }
  bool StaticDiffers =
      differ(SF, DF, Tolerance) || differ(SB, DB, Tolerance) || K.StaticDiffers > 0;
  if (StaticDiffers) {
    if (!K.StaticExact) {
      std::string U;
      for (const std::string &S : K.StaticUnknown)
        U += (U.empty() ? "" : "; ") + S;
      Why.push_back("static != dynamic: the static model is not exact for this kernel "
                    "(guards or loops it cannot sum, unknown calls)" +
                    (U.empty()
                         ? std::string(" - see `hroof static --terms` for what it could not model")
                         : ": " + U));
    } else {
      Why.push_back("static != dynamic on " + std::to_string(K.StaticDiffers) +
                    " launch(es) although the model claims exactness: a model bug worth reporting");
    }
  } else if (SF && DF) {
    Why.push_back("static == dynamic (FLOPs and requested bytes)");
  }
}

/// Why the hardware counters differ from the dynamic counts (FLOPs, then
/// requested global bytes).
void counterReasons(const KernelData &K, const Totals &T, double Tolerance,
                    std::vector<std::string> &Why) {
  const std::optional<double> &DF = T.DF, &CF = T.CF, &DB = T.DB, &CB = T.CB;
  double Special = perLaunch(K.Dynamic, "special.").value_or(0);
  if (differ(DF, CF, Tolerance)) {
    if (*CF > *DF && Special > 0)
      Why.push_back("counters > dynamic FLOPs by " + fmtNum(*CF - *DF) +
                    "/launch: special-function expansion - " + fmtNum(Special) +
                    " div/sqrt/rcp/rsqrt/transcendental ops per launch, counted apart by hroof, "
                    "execute as FFMA/FMUL sequences the hardware counts as FLOPs");
    else if (*CF > *DF && perLaunch(K.Counters, "flops.f16").value_or(0) >
                              perLaunch(K.Dynamic, "flops.f16").value_or(0))
      Why.push_back("counters > dynamic f16 FLOPs: the counters take every half instruction as "
                    "packed (HADD2/HMUL2 = 2, HFMA2 = 4 FLOPs), also scalar ones, and count "
                    "the HFMA2.MMA instructions ptxas uses to load constants");
    else if (*CF > *DF)
      Why.push_back("counters > dynamic FLOPs by " + fmtRatio(*CF, *DF) +
                    ": work not in the instrumented IR (library calls, inline asm the pass "
                    "does not parse, backend-generated code)");
    else
      Why.push_back("counters < dynamic FLOPs (" + fmtRatio(*CF, *DF) +
                    "): the backend removed or fused operations after the IR the pass saw, "
                    "or counters cover other launches (replay, sampling)");
  } else if (DF && CF) {
    Why.push_back("counters == dynamic FLOPs (within " + fmtNum(Tolerance) + "%)");
  }
  if (differ(DB, CB, Tolerance)) {
    bool Bulk = false;
    for (const std::string &U : K.StaticUnknown)
      Bulk |= U.find("bulk") != std::string::npos || U.find("tma") != std::string::npos ||
              U.find("TMA") != std::string::npos || U.find("unmodeled") != std::string::npos ||
              U.find("cp.async") != std::string::npos;
    // The counters of an instrumented binary include its flush: one 8-byte
    // global atomic per warp and counter.
    double Flush = 0;
    if (K.Instrumented && K.CounterWarpLaunches) {
      int Used = 0;
      for (const auto &[Key, V] : K.Dynamic.Counts)
        Used += V > 0;
      Flush = 8.0 * Used * K.CounterWarps / double(K.CounterWarpLaunches);
    }
    if (*CB > *DB && Flush > 0 && std::fabs(*CB - *DB - Flush) <= 0.01 * Flush)
      Why.push_back("counters see " + fmtNum(*CB - *DB) +
                    " more global bytes per launch: the instrumentation's own flush "
                    "(one 8-byte atomic per warp and counter = " +
                    fmtNum(Flush) + "); a plain build has no such bytes");
    else if (*CB > *DB)
      Why.push_back(std::string("counters see more requested global bytes (") + fmtRatio(*CB, *DB) +
                    "): " +
                    (Bulk ? "unmodeled bulk/TMA copies (the static model lists them)"
                          : "bulk/TMA or cp.async copies and library code the "
                            "instrumentation does not count"));
    else
      Why.push_back("counters see fewer requested global bytes (" + fmtRatio(*CB, *DB) +
                    "): the hardware counts a warp's access to one address once "
                    "(lanes reading the same element, e.g. a broadcast weight), or "
                    "accesses were predicated off or eliminated after the IR the pass saw");
  }
}

/// Cache effects: L2 and HBM traffic against the requested bytes.
void cacheReasons(const KernelData &K, const Totals &T, std::vector<std::string> &Why) {
  double Req = T.DB.value_or(T.CB.value_or(0));
  if (Req > 0) {
    if (auto L2 = perLaunch(K.Counters, "l2_bytes")) {
      if (*L2 > Req * 1.1)
        Why.push_back("cache effects: L2 traffic is " + fmtRatio(*L2, Req) +
                      " the requested bytes (32-byte sector granularity of uncoalesced "
                      "accesses, L1 misses re-fetching lines, writes)");
      else if (*L2 < Req * 0.9)
        Why.push_back("cache effects: L2 traffic is " + fmtRatio(*L2, Req) +
                      " the requested bytes (L1 hits serve the rest)");
    }
    if (auto Dr = perLaunch(K.Counters, "dram_bytes")) {
      if (*Dr < Req * 0.9)
        Why.push_back("cache effects: HBM traffic is " + fmtRatio(*Dr, Req) +
                      " the requested bytes (reuse in L1/L2)");
      else if (*Dr > Req * 1.1)
        Why.push_back("cache effects: HBM traffic is " + fmtRatio(*Dr, Req) +
                      " the requested bytes (lines evicted and re-read, partial-sector writes)");
    }
  }
}

/// The footprint against the DRAM bytes: equal within 2% when the caches
/// were flushed before the launch and its working set exceeds L2; below it
/// when earlier work left the data in L2; above it when lines are evicted
/// and fetched again (working set beyond L2 with reuse).
void footprintReasons(const std::vector<Line> &Lines, std::vector<std::string> &Why) {
  for (const Line &L : Lines) {
    if (L.What.rfind("footprint", 0) != 0 || !L.Static || !L.Counters)
      continue;
    double Lo = *L.Static, Hi = L.StaticHi.value_or(Lo), C = *L.Counters;
    std::string Dir = L.What.find("load") != std::string::npos ? "read" : "written";
    if (C >= Lo * 0.98 && C <= Hi * 1.02)
      Why.push_back("DRAM bytes " + Dir + " equal the footprint within 2% (" + fmtNum(C, 4) +
                    " vs " + staticCell(L) + ")");
    else if (C < Lo)
      Why.push_back("DRAM bytes " + Dir + " are " + fmtRatio(C, Lo) +
                    " the footprint: part of the data was in L2 already (profile with "
                    "--cache-control all to flush it) or stayed there at the end (writes)");
    else
      Why.push_back("DRAM bytes " + Dir + " are " + fmtRatio(C, Hi) +
                    " the footprint: lines evicted from L2 and fetched again, or partial-sector "
                    "writes");
  }
}

/// Where the static model gives bounds (not exact), whether the dynamic
/// counts lie inside them: they must, whatever the data.
void boundsReasons(const std::vector<Line> &Lines, std::vector<std::string> &Why) {
  std::string Inside, Outside;
  for (const Line &L : Lines) {
    bool IsWarp = L.What.rfind("warp bytes", 0) == 0 || L.What.rfind("sectors", 0) == 0 ||
                  L.What.rfind("wavefronts", 0) == 0 || L.What.rfind("footprint", 0) == 0;
    if (IsWarp || !L.Static || !L.StaticHi || !L.Dynamic || *L.StaticHi == *L.Static)
      continue;
    bool In = *L.Static * 0.99 <= *L.Dynamic && *L.Dynamic <= *L.StaticHi * 1.01;
    std::string &To = In ? Inside : Outside;
    To += (To.empty() ? "" : ", ") + L.What.substr(L.What.find_first_not_of(' '));
  }
  if (!Inside.empty())
    Why.push_back("dynamic within the static bounds: " + Inside);
  if (!Outside.empty())
    Why.push_back("dynamic OUTSIDE the static bounds (a defect of the model): " + Outside);
}

/// One warp-level comparison of \p Got against the static cell of \p L
/// (exact: equal within the tolerance; bounds: inside): which list it joins.
std::string &warpVerdict(const Line &L, double Got, double Tolerance, std::string &Equal,
                         std::string &Within, std::string &Off) {
  if (L.StaticHi && *L.StaticHi != *L.Static)
    return *L.Static <= Got && Got <= *L.StaticHi ? Within : Off;
  return differ(L.Static, Got, Tolerance) ? Off : Equal;
}

/// Whether the static warp-level model agrees with the dynamic counts and
/// with the counters (exact rows equal, bounded rows containing the value),
/// and the dynamic counts with the counters; the rows that do not, named.
void warpReasons(const std::vector<Line> &Lines, double Tolerance, std::vector<std::string> &Why) {
  std::string Equal, Within, Off, DEqual, DWithin, DOff, DCEqual, DCOff;
  auto Join = [](std::string &To, const std::string &What) {
    To += (To.empty() ? "" : ", ") + What;
  };
  std::string NotCounted;
  for (const Line &L : Lines) {
    bool IsWarp = L.What.rfind("warp bytes", 0) == 0 || L.What.rfind("sectors", 0) == 0 ||
                  L.What.rfind("wavefronts", 0) == 0;
    if (!IsWarp)
      continue;
    if (L.DynamicNotCounted)
      Join(NotCounted, L.What);
    if (L.Static && L.Counters)
      Join(warpVerdict(L, *L.Counters, Tolerance, Equal, Within, Off), L.What);
    if (L.Static && L.Dynamic)
      Join(warpVerdict(L, *L.Dynamic, Tolerance, DEqual, DWithin, DOff), L.What);
    if (L.Dynamic && L.Counters)
      Join(differ(L.Dynamic, L.Counters, Tolerance) ? DCOff : DCEqual, L.What);
  }
  if (!NotCounted.empty())
    Why.push_back("warp-level dynamic counts not in this build: " + NotCounted +
                  " (0 beside nonzero requested bytes: built without -mllvm -hroof-warp-counts, "
                  "or accesses in a device function the plugin does not instrument)");
  if (!DEqual.empty())
    Why.push_back("warp-level static == dynamic: " + DEqual);
  if (!DWithin.empty())
    Why.push_back("warp-level dynamic within the static bounds: " + DWithin);
  if (!DOff.empty())
    Why.push_back("warp-level dynamic OUTSIDE the static model (a defect of one of them): " + DOff);
  if (!DCEqual.empty())
    Why.push_back("warp-level dynamic == counters: " + DCEqual);
  if (!DCOff.empty())
    Why.push_back("warp-level dynamic differs from the counters: " + DCOff +
                  " (requests the IR does not show: the backend's spills, bulk copies, "
                  "accesses it merges or splits otherwise; docs/counting-model.md "
                  "\"Warp-level traffic\")");
  if (!Equal.empty())
    Why.push_back("warp-level static == counters: " + Equal);
  if (!Within.empty())
    Why.push_back("counters within the static bounds: " + Within);
  if (!Off.empty())
    Why.push_back("warp-level static disagrees with the counters: " + Off +
                  " (docs/counting-model.md, \"Warp-level traffic\")");
}

nlohmann::json kernelJson(const KernelData &K, const std::vector<Line> &Lines,
                          const std::vector<std::string> &Why) {
  nlohmann::json KJ = {{"kernel", K.Name},
                       {"mangled", K.Mangled},
                       {"launches", K.Launches},
                       {"static_launches", K.Static.Launches},
                       {"dynamic_launches", K.Dynamic.Launches},
                       {"counter_launches", K.Counters.Launches},
                       {"static_warp_launches", K.StaticWarp.Launches},
                       {"static_exact", K.StaticExact},
                       {"reasons", Why}};
  nlohmann::json Rows = nlohmann::json::array();
  for (const Line &L : Lines) {
    nlohmann::json R = {{"what", L.What},
                        {"static", optJson(L.Static)},
                        {"dynamic", optJson(L.Dynamic)},
                        {"counters", optJson(L.Counters)}};
    if (L.StaticHi)
      R["static_hi"] = *L.StaticHi;
    Rows.push_back(R);
  }
  KJ["per_launch"] = Rows;
  return KJ;
}

void printKernel(const KernelData &K, const std::vector<Line> &Lines,
                 const std::vector<std::string> &Why) {
  std::cout << "kernel " << K.Name << "\n  launches " << K.Launches << " (static at "
            << K.Static.Launches << ", dynamic at " << K.Dynamic.Launches << ", counters at "
            << K.Counters.Launches << "); per launch:\n";
  if (K.DynamicFromModel)
    std::cout << "  dynamic at " << K.DynamicFromModel
              << " launch(es): the exact static model's counts (the kernel was not "
                 "instrumented; -mllvm -hroof-instrument-exact measures them)\n";
  std::cout << "  " << std::left << std::setw(26) << "" << std::right << std::setw(14) << "static"
            << std::setw(14) << "dynamic" << std::setw(14) << "counters"
            << "\n";
  for (const Line &L : Lines)
    std::cout << "  " << std::left << std::setw(26) << L.What << std::right << std::setw(14)
              << staticCell(L) << std::setw(14) << cell(L.Dynamic) << std::setw(14)
              << cell(L.Counters) << "\n";
  for (const std::string &W : Why)
    std::cout << "  - " << W << "\n";
  std::cout << "\n";
}

int runCompare(const CompareOptions &O) {
  // A negative tolerance would make every row a disagreement.
  if (!std::isfinite(O.Tolerance) || O.Tolerance < 0) {
    std::ostringstream V;
    V << O.Tolerance;
    throw UsageError("--tolerance must be a percentage of 0 or more (not " + V.str() + ")");
  }
  Dataset D = loadInputs(O.Inputs);
  std::regex Re;
  try {
    Re = std::regex(O.Kernel.empty() ? ".*" : O.Kernel);
  } catch (const std::regex_error &) {
    throw UsageError("--kernel '" + O.Kernel + "' is not a valid regular expression");
  }
  nlohmann::json Out = nlohmann::json::array();
  int Shown = 0;
  for (const KernelData &K : D.Kernels) {
    if (!std::regex_search(K.Name, Re) && !std::regex_search(K.Mangled, Re))
      continue;
    ++Shown;
    std::vector<Line> Lines = comparisonLines(K);
    std::vector<std::string> Why;
    Totals T(K);
    staticReasons(K, T, O.Tolerance, Why);
    counterReasons(K, T, O.Tolerance, Why);
    cacheReasons(K, T, Why);
    boundsReasons(Lines, Why);
    warpReasons(Lines, O.Tolerance, Why);
    footprintReasons(Lines, Why);
    if (O.Json)
      Out.push_back(kernelJson(K, Lines, Why));
    else
      printKernel(K, Lines, Why);
  }
  if (!Shown)
    throw UserError("--kernel '" + O.Kernel + "' matches no kernel in the inputs");
  if (O.Json)
    std::cout << Out.dump(2) << "\n";
  for (const std::string &N : D.Notes)
    std::cerr << "note: " << N << "\n";
  return 0;
}

} // namespace

Subcommand addCompareCommand(CLI::App &App) {
  auto O = std::make_shared<CompareOptions>();
  CLI::App *C = App.add_subcommand(
      "compare", "Per kernel, the static model, the dynamic counts and the hardware "
                 "counters side by side (FLOPs, bytes, arithmetic intensity per launch), "
                 "with the reason for each disagreement where known. See docs/report.md.");
  C->add_option("inputs", O->Inputs, "profile JSON files (merged) and/or ncu raw CSV files")
      ->required();
  C->add_option("--kernel", O->Kernel, "only kernels whose name matches this regular expression");
  C->add_option("--tolerance", O->Tolerance,
                "relative difference (percent, 0 or more) that counts as a "
                "disagreement (default 1)");
  C->add_flag("--json", O->Json, "print JSON");
  C->footer(environmentHelp({}));
  return {C, [O] { return runCompare(*O); }};
}

} // namespace hroof
