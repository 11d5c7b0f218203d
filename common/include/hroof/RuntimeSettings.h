//===- hroof/RuntimeSettings.h - every runtime setting, declared once -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The single table of the runtime's settings (libhroof_rt.so). Each row is
// both an environment variable (read by the library inside the application)
// and a `hroof run` option (tools/RunCommand.cpp turns every row into
// `--<option> VALUE` and passes it on as the environment variable), with one
// help text, like Kokkos Tools' settings table. Add a setting here and both
// sides see it; docs/runtime.md lists the same table.
//
// Also the environment variables that `hroof run` sets for the runtime
// without an option of their own (RtEnv below).
//
// Header-only, no dependencies (no LLVM, no CUDA): in common/ so that the
// runtime, `hroof` (which links no CUPTI) and the unit tests include it as
// <hroof/RuntimeSettings.h> through hroof_model's include directory.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIMESETTINGS_H
#define HROOF_RUNTIMESETTINGS_H

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace hroof {
namespace rt {

enum class SettingKind { Bool, Int, String };

/// One row: the environment variable, the `hroof run` option (without the
/// leading dashes), its kind, its default (as text) and its help.
struct RuntimeSettingInfo {
  const char *Env;
  const char *Option;
  SettingKind Kind;
  const char *Default;
  const char *Help;
};

enum class RtSetting {
  Enable,
  Output,
  KernelFilter,
  LaunchLimit,
  Counting,
  StaticEval,
  EvalLimit,
  WarpEvalLimit,
  FlushMs,
  Verbose,
  Counters,
  TypeCache,
  Range,
  CacheControl,
  CountersPerShape,
  Replay,
  TimingRange,
  RoundActivity,
  Count
};

/// The rows, in RtSetting's order.
inline constexpr RuntimeSettingInfo RtSettingTable[] = {
      {"HROOF_ENABLE", "enable", SettingKind::Bool, "1",
       "0 disables the runtime entirely (the application runs untouched, no "
       "profile is written)"},
      {"HROOF_OUTPUT", "output", SettingKind::String, ".",
       "where the profile goes: a directory (the file is "
       "hroof-<pid>[-rank<R>].json in it) or a file name ending in .json, in "
       "which %p becomes the pid and %r the MPI/Slurm rank; hroof run creates "
       "the directory"},
      {"HROOF_KERNEL_FILTER", "kernel-filter", SettingKind::String, "",
       "only kernels whose mangled or demangled name matches this ECMAScript "
       "regular expression (searched, not anchored) are profiled; empty: all"},
      {"HROOF_LAUNCH_LIMIT", "launch-limit", SettingKind::Int, "100",
       "launches of each kernel recorded one by one in the profile; later "
       "launches only enter the kernel's aggregate (bounded memory); also the "
       "most launches of each kernel (per device) given hardware counters: "
       "with --replay application or passes the most records, not counting the "
       "launches that collect their other counter groups or passes"},
      {"HROOF_COUNTING", "counting", SettingKind::Bool, "1",
       "read the dynamic counters of instrumented kernels (0: durations only; "
       "instrumented kernels then run without the per-launch sum of the counters and "
       "synchronization)"},
      {"HROOF_STATIC_EVAL", "static-eval", SettingKind::Bool, "1",
       "evaluate the embedded static model of each instrumented launch with "
       "its real grid, block and arguments"},
      {"HROOF_EVAL_LIMIT", "eval-limit", SettingKind::Int, "67108864",
       "most thread-by-thread evaluations of the static model per launch, and steps "
       "of each sum over a loop's iterations, before giving up on that launch "
       "(never a guess)"},
      {"HROOF_WARP_EVAL_LIMIT", "warp-eval-limit", SettingKind::Int, "1048576",
       "most lane evaluations of the warp-level memory model (warp bytes, "
       "sectors, shared wavefronts) per launch, each a few hundred ns of the "
       "application's host time; affine addresses cost one block's threads "
       "per class of blocks (edges, runs), other accesses one evaluation per "
       "thread; a launch that needs more gets no warp-level numbers, decided "
       "before any work (0: off)"},
      {"HROOF_FLUSH_MS", "flush-ms", SettingKind::Int, "200",
       "the profile's aggregates are rewritten at most this often (ms) while "
       "the application runs; launch records are written as they complete"},
      {"HROOF_VERBOSE", "verbose", SettingKind::Int, "0",
       "1: one stderr line per module and kernel seen; 2: one per launch; 3: also "
       "each work key's parameter words (docs/runtime.md, \"Work keys\")"},
      {"HROOF_COUNTERS", "counters", SettingKind::String, "roofline",
       "hardware counters per launch (CUPTI range profiler, kernel replay): "
       "roofline (time, FLOPs, tensor ops, bytes at L1/shared/L2/HBM, peaks; "
       "every Tensor Core type at a kernel's first profiled launch, then only "
       "the types it used), roofline-full (every type at every launch: more "
       "replay passes), none, or a comma-separated list of metric names (the "
       "words roofline and roofline-full add the roofline set); the kernel "
       "filter and launch limit bound which launches are replayed"},
      {"HROOF_TYPE_CACHE", "type-cache", SettingKind::String, "auto",
       "where --counters roofline keeps the Tensor Core types it learned, for "
       "the next run (whose first launches then skip the type-learning replay "
       "passes): auto ($XDG_CACHE_HOME/hroof/tensor-types.tsv, else "
       "~/.cache/hroof/tensor-types.tsv), none (learn at every run), or a file; "
       "entries are keyed by chip, a hash of the kernel's machine code and its "
       "name"},
      {"HROOF_RANGE", "range", SettingKind::String, "",
       "only launches (and copies) inside an NVTX range whose path matches this "
       "ECMAScript regular expression (searched in the path, e.g. "
       "\"train/step 10/forward\"; ranges of a named domain appear as "
       "DOMAIN@MESSAGE) are profiled: counters, dynamic counts and records, like "
       "Nsight Compute's --nvtx-include; others are ignored entirely; empty: all"},
      {"HROOF_CACHE_CONTROL", "cache-control", SettingKind::String, "none",
       "all: before the counter range of each profiled launch, a read-only "
       "kernel streams a buffer twice the L2's size through it (outside the "
       "range), so the launch's DRAM bytes are its compulsory traffic, as with "
       "Nsight Compute's default --cache-control all, when the metric set takes "
       "one replay pass (e.g. --counters dram__bytes_read.sum,"
       "dram__bytes_write.sum; with more passes the memory restored between "
       "them leaves dirty lines in the L2 and DRAM writes run high); none: the "
       "caches keep what earlier kernels left, as in the application"},
      {"HROOF_COUNTERS_PER_SHAPE", "counters-per-shape", SettingKind::Int, "0",
       "N > 0: hardware counters only for the first N launches of each work key "
       "on each device: launch shape (kernel, grid, block, dynamic shared memory) "
       "and by-value parameter bytes, addresses left out (docs/runtime.md, \"Work "
       "keys\"); a later launch of the same key carries the first one's "
       "counters (counters_from), in every replay mode; launches of keys without "
       "a record keep their activity durations and the report counts them at "
       "their kernel's mean; 0: every launch up to the launch limit; with "
       "--replay application or passes: the first N launches of each key (at most "
       "16 keys per launch shape) are recorded, their counters gathered from later "
       "launches"},
      {"HROOF_REPLAY", "replay", SettingKind::String, "kernel",
       "kernel: each profiled launch is replayed once per counter pass (CUPTI "
       "saves and restores device memory when there are several; a process that "
       "launches NCCL or other communication kernels, or shares device memory with "
       "other processes by CUDA IPC, switches to application replay, since the "
       "restore would erase what the others write: docs/multi-gpu.md); application "
       "(experimental, docs/runtime.md \"Application replay\"): the metric set is "
       "split into groups of one pass each, group g collected on a later launch "
       "of the record's work key (docs/runtime.md \"Work keys\") like Nsight "
       "Compute's --replay-mode application, no memory save/restore, many "
       "launches' groups in one batched session; a record still missing groups at "
       "exit is written with counters_incomplete; passes (experimental, "
       "docs/runtime.md \"Pass replay\"): a recorded launch collects its duration, "
       "clocks, L2 and DRAM bytes itself, and the rest of the metric set comes "
       "from one range profiler object in user replay, counter pass p on a later "
       "launch of the record's work key (after --range: the next steps of a "
       "training loop), else of its launch shape (then counters_estimated); the "
       "program must repeat the recorded work once per pass (8 on GH100 with every "
       "tensor type; fewer where the records' tensor pipes show types unused), else "
       "those passes' metrics are not_evaluated. With application or passes, "
       "--launch-limit and --counters-per-shape count recorded launches"},
      {"HROOF_TIMING_RANGE", "timing-range", SettingKind::String, "",
       "launches outside --range whose NVTX path matches this ECMAScript regular "
       "expression (e.g. \"^step (1[2-9])(/|$)\") add only their kernel time to the "
       "profile's \"timing\" section (no record, counters or counts); hroof report "
       "--by range and --by rank then take time, communication and imbalance from "
       "those steps, leaving out every step in which a launch carried counters for "
       "the profiled one (docs/runtime.md \"Timing ranges\"); empty: none"},
      {"HROOF_ROUND_ACTIVITY", "round-activity", SettingKind::String, "off",
       "with --replay passes, the kernel activity records while a round of counter "
       "passes runs (SASS metrics read 0 beside concurrent-kernel records): off: "
       "none (kernels overlap as without hroof; launches of --timing-range during "
       "a round are counted without time, and their steps are left out as "
       "replayed; a launch of --range during a round turns serial records on); "
       "serial: serial kernel records (the program's kernels run one at a time, "
       "NCCL's overlap with compute included) (docs/runtime.md \"Pass replay\")"},
};
static_assert(sizeof(RtSettingTable) / sizeof(RtSettingTable[0]) == size_t(RtSetting::Count),
              "one row per RtSetting");

inline const RuntimeSettingInfo &rtSettingInfo(RtSetting S) { return RtSettingTable[int(S)]; }

/// Environment variables that `hroof run` sets for the runtime itself: not
/// settings of the user (no option, not in the profile's "settings").
enum class RtEnv { RunId, Count };

struct RtEnvInfo {
  const char *Env;
  const char *Help;
};

inline const RtEnvInfo &rtEnvInfo(RtEnv V) {
  static const RtEnvInfo Table[] = {
      {"HROOF_RUN_ID", "the run's id (the pid of `hroof run`), stored as the profile's run_id "
                       "so that `hroof run` finds the profiles its run wrote"},
  };
  static_assert(sizeof(Table) / sizeof(Table[0]) == size_t(RtEnv::Count), "one row per RtEnv");
  return Table[int(V)];
}

/// The variable's value, or "" when it is not set.
inline std::string rtEnvText(RtEnv V) {
  const char *T = std::getenv(rtEnvInfo(V).Env);
  return T ? std::string(T) : std::string();
}

/// Raw text of a setting: the environment variable if set, else the default.
inline std::string rtSettingText(RtSetting S) {
  const RuntimeSettingInfo &I = rtSettingInfo(S);
  const char *V = std::getenv(I.Env);
  return V ? std::string(V) : std::string(I.Default);
}

/// Parses a setting's text for its kind. Returns false (and leaves \p Out)
/// when the text is malformed. Bools accept 1/0, on/off, true/false, yes/no.
inline bool parseRtBool(const std::string &T, bool &Out) {
  std::string L;
  for (char C : T)
    L += char(C >= 'A' && C <= 'Z' ? C - 'A' + 'a' : C);
  if (L == "1" || L == "on" || L == "true" || L == "yes") {
    Out = true;
    return true;
  }
  if (L == "0" || L == "off" || L == "false" || L == "no" || L.empty()) {
    Out = false;
    return true;
  }
  return false;
}

inline bool parseRtInt(const std::string &T, int64_t &Out) {
  if (T.empty())
    return false;
  char *End = nullptr;
  errno = 0;
  long long V = std::strtoll(T.c_str(), &End, 0);
  if (*End || errno || V < 0)
    return false;
  Out = V;
  return true;
}

/// HROOF_CACHE_CONTROL: "all" (flush the L2 before each counter range) or
/// "none", case-insensitive. Returns false (and leaves \p FlushAll) when the
/// text is neither.
inline bool parseCacheControl(const std::string &T, bool &FlushAll) {
  std::string L;
  for (char C : T)
    L += char(C >= 'A' && C <= 'Z' ? C - 'A' + 'a' : C);
  if (L != "all" && L != "none")
    return false;
  FlushAll = L == "all";
  return true;
}

/// HROOF_REPLAY's modes.
enum class ReplayMode { Kernel, Application, Passes };

inline const char *replayModeName(ReplayMode M) {
  return M == ReplayMode::Kernel ? "kernel" : M == ReplayMode::Application ? "application" : "passes";
}

/// HROOF_REPLAY: "kernel", "application" or "passes", case-insensitive.
/// Returns false (and leaves \p Mode) when the text is none of them.
inline bool parseReplayMode(const std::string &T, ReplayMode &Mode) {
  std::string L;
  for (char C : T)
    L += char(C >= 'A' && C <= 'Z' ? C - 'A' + 'a' : C);
  for (ReplayMode M : {ReplayMode::Kernel, ReplayMode::Application, ReplayMode::Passes})
    if (L == replayModeName(M)) {
      Mode = M;
      return true;
    }
  return false;
}

/// Checks \p Text against the setting's kind; returns "" or a message.
inline std::string checkRtSetting(RtSetting S, const std::string &Text) {
  const RuntimeSettingInfo &I = rtSettingInfo(S);
  bool B;
  int64_t N;
  switch (I.Kind) {
  case SettingKind::Bool:
    return parseRtBool(Text, B)
               ? ""
               : std::string(I.Env) + "='" + Text + "' is not a boolean (1/0, on/off)";
  case SettingKind::Int:
    return parseRtInt(Text, N)
               ? ""
               : std::string(I.Env) + "='" + Text + "' is not a non-negative integer";
  case SettingKind::String:
    if (S == RtSetting::CacheControl)
      return parseCacheControl(Text, B) ? ""
                                        : std::string(I.Env) + "='" + Text + "' is not all or none";
    if (S == RtSetting::Replay) {
      ReplayMode M;
      return parseReplayMode(Text, M) ? ""
                                      : std::string(I.Env) + "='" + Text +
                                            "' is not kernel, application or passes";
    }
    if (S == RtSetting::Counters) // roofline | none | METRIC,... (HwMetrics.h)
      for (char C : Text)
        if (!((C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') ||
              C == '_' || C == '.' || C == ',' || C == ' ' || C == '-'))
          return std::string(I.Env) + "='" + Text +
                 "' is not roofline, roofline-full, none or a comma-separated list of metric names";
    return "";
  }
  return "";
}

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIMESETTINGS_H
