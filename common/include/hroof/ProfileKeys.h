//===- ProfileKeys.h - the profile JSON's keys, spelled once --------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The runtime writes hroof-<pid>.json (runtime/src/profile/Profile.cpp,
// Transfers.cpp, Timing.cpp; the header and devices in Injection.cpp through
// headerToJson and deviceToJson) and `hroof report` reads it (tools/report/
// ProfileData.cpp, ReportInputs.cpp, TornProfile.cpp): both spell the keys
// with the names below (scripts/check_profile_keys.py, ctest
// house.profile-keys). ProfileKeyTable lists each key once per object that
// holds it, with its JSON type and what it means; hroof-profile-schema
// writes it as share/hroof/profile-schema.json for the Python readers
// (scripts/profile_schema.py).
//
// Count objects (flops.f32, bytes.global.load, ...) take their keys from
// CounterLayout.h (the counters' from CounterMetrics.h), not from here; a launch's `static_warp` is the static
// model's `warp` object (docs/static-model.md).
// Header-only, no LLVM, no JSON library. docs/profile-format.md describes
// the format.
//
// Adding a key: a constant below, a row in ProfileKeyTable, the writer, the
// reader and docs/profile-format.md.
//===----------------------------------------------------------------------===//
#ifndef HROOF_PROFILEKEYS_H
#define HROOF_PROFILEKEYS_H

namespace hroof {
namespace profile_keys {

/// The format version written in Version.
inline constexpr int FormatVersion = 1;

// The top-level object.
inline constexpr const char *Version = "hroof_profile";
inline constexpr const char *Pid = "pid";
inline constexpr const char *Host = "host";
inline constexpr const char *Command = "command";
inline constexpr const char *Rank = "rank";
inline constexpr const char *RankFrom = "rank_from";
inline constexpr const char *LocalRank = "local_rank";
inline constexpr const char *WorldSize = "world_size";
inline constexpr const char *RunId = "run_id";
inline constexpr const char *StartTime = "start_time";
inline constexpr const char *Counters = "counters";
inline constexpr const char *Settings = "settings";
inline constexpr const char *Launches = "launches";
inline constexpr const char *Kernels = "kernels";
inline constexpr const char *Devices = "devices";
inline constexpr const char *GraphLaunches = "graph_launches";
inline constexpr const char *LaunchRecords = "launch_records";
inline constexpr const char *Notes = "notes";
inline constexpr const char *Complete = "complete";
inline constexpr const char *Ranges = "ranges";
inline constexpr const char *RangesDropped = "ranges_dropped";
inline constexpr const char *Transfers = "transfers";
inline constexpr const char *Timing = "timing";
// settings (RuntimeSettings.h; Counters, Range and Replay as well).
inline constexpr const char *Enable = "enable";
inline constexpr const char *Output = "output";
inline constexpr const char *KernelFilter = "kernel_filter";
inline constexpr const char *LaunchLimit = "launch_limit";
inline constexpr const char *Counting = "counting";
inline constexpr const char *StaticEval = "static_eval";
inline constexpr const char *EvalLimit = "eval_limit";
inline constexpr const char *WarpEvalLimit = "warp_eval_limit";
inline constexpr const char *FlushMs = "flush_ms";
inline constexpr const char *Verbose = "verbose";
inline constexpr const char *TypeCache = "type_cache";
inline constexpr const char *TimingRange = "timing_range";
inline constexpr const char *RoundActivity = "round_activity";
inline constexpr const char *CacheControl = "cache_control";
inline constexpr const char *CountersPerShape = "counters_per_shape";
inline constexpr const char *Replay = "replay";
// launch_records.
inline constexpr const char *Written = "written";
inline constexpr const char *Dropped = "dropped";
inline constexpr const char *LimitPerKernel = "limit_per_kernel";
// A device.
inline constexpr const char *Ordinal = "ordinal";
inline constexpr const char *Name = "name";
inline constexpr const char *ComputeCapability = "compute_capability";
inline constexpr const char *Sms = "sms";
// A launch record.
inline constexpr const char *Index = "index";
inline constexpr const char *Kernel = "kernel";
inline constexpr const char *Mangled = "mangled";
inline constexpr const char *Api = "api";
inline constexpr const char *Correlation = "correlation";
inline constexpr const char *Thread = "thread";
inline constexpr const char *Device = "device";
inline constexpr const char *Stream = "stream";
inline constexpr const char *Grid = "grid";
inline constexpr const char *Block = "block";
inline constexpr const char *SharedMem = "shared_mem";
inline constexpr const char *Instrumented = "instrumented";
inline constexpr const char *Graph = "graph";
inline constexpr const char *Range = "range";
inline constexpr const char *StartNs = "start_ns";
inline constexpr const char *DurationNs = "duration_ns";
inline constexpr const char *DurationSource = "duration_source";
inline constexpr const char *Args = "args";
inline constexpr const char *Dynamic = "dynamic";
inline constexpr const char *DynamicSource = "dynamic_source";
inline constexpr const char *DynamicProblem = "dynamic_problem";
inline constexpr const char *DynamicWarpProblem = "dynamic_warp_problem";
inline constexpr const char *Static = "static";
inline constexpr const char *StaticExact = "static_exact";
inline constexpr const char *StaticBounds = "static_bounds";
inline constexpr const char *StaticMatchesDynamic = "static_matches_dynamic";
inline constexpr const char *StaticProblem = "static_problem";
inline constexpr const char *StaticWarp = "static_warp";
inline constexpr const char *CountersIncomplete = "counters_incomplete";
inline constexpr const char *CountersFrom = "counters_from";
inline constexpr const char *CountersEstimated = "counters_estimated";
inline constexpr const char *CountersProblem = "counters_problem";
inline constexpr const char *WorkKey = "work_key";
inline constexpr const char *Error = "error";
// Bounds (static_bounds, static.bounds, static_warp sums).
inline constexpr const char *Lo = "lo";
inline constexpr const char *Hi = "hi";
inline constexpr const char *NoUpperBound = "no_upper_bound";
inline constexpr const char *Problem = "problem";
// A launch's hardware counters (metrics/HwMetrics.cpp).
inline constexpr const char *Flops = "flops";
inline constexpr const char *TensorFlops = "tensor_flops";
inline constexpr const char *Bytes = "bytes";
inline constexpr const char *SharedWavefronts = "shared_wavefronts";
inline constexpr const char *Sectors = "sectors";
inline constexpr const char *Wavefronts = "wavefronts";
inline constexpr const char *L1Bytes = "l1_bytes";
inline constexpr const char *L2Bytes = "l2_bytes";
inline constexpr const char *DramBytes = "dram_bytes";
inline constexpr const char *DramReadBytes = "dram_read_bytes";
inline constexpr const char *DramWriteBytes = "dram_write_bytes";
inline constexpr const char *TimeNs = "time_ns";
inline constexpr const char *SmHz = "sm_hz";
inline constexpr const char *Peak = "peak";
inline constexpr const char *Raw = "raw";
inline constexpr const char *NotEvaluated = "not_evaluated";
inline constexpr const char *TensorFlopsInferred = "tensor_flops_inferred";
inline constexpr const char *TensorFlopsProblem = "tensor_flops_problem";
inline constexpr const char *ReplayGroups = "replay_groups";
// counters.peak.
inline constexpr const char *FlopsPerS = "flops_per_s";
inline constexpr const char *TensorFlopsPerS = "tensor_flops_per_s";
inline constexpr const char *L1BytesPerS = "l1_bytes_per_s";
inline constexpr const char *L2BytesPerS = "l2_bytes_per_s";
inline constexpr const char *DramBytesPerS = "dram_bytes_per_s";
// A kernel aggregate (and Kernel, Mangled, Instrumented, Launches, ...).
inline constexpr const char *RecordedLaunches = "recorded_launches";
inline constexpr const char *EstimatedLaunches = "estimated_launches";
inline constexpr const char *Errors = "errors";
inline constexpr const char *ByDevice = "by_device";
// Its sums: duration_ns, counters, dynamic, static, static_warp.
inline constexpr const char *TimedLaunches = "timed_launches";
inline constexpr const char *Total = "total";
inline constexpr const char *Min = "min";
inline constexpr const char *Max = "max";
inline constexpr const char *Mean = "mean";
inline constexpr const char *FromModel = "from_model";
inline constexpr const char *Exact = "exact";
inline constexpr const char *MatchesDynamic = "matches_dynamic";
inline constexpr const char *DiffersFromDynamic = "differs_from_dynamic";
inline constexpr const char *Problems = "problems";
inline constexpr const char *Bounds = "bounds";
// transfers, a transfer aggregate (by kind) and a transfer record.
inline constexpr const char *ByKind = "by_kind";
inline constexpr const char *Records = "records";
inline constexpr const char *Kind = "kind";
inline constexpr const char *Count = "count";
inline constexpr const char *GBytesPerS = "gbytes_per_s";
inline constexpr const char *SrcDevice = "src_device";
inline constexpr const char *DstDevice = "dst_device";
// timing (HROOF_TIMING_RANGE) and its entries.
inline constexpr const char *RangeFilter = "range_filter";
inline constexpr const char *Entries = "entries";
inline constexpr const char *Replayed = "replayed";
inline constexpr const char *TotalNs = "total_ns";
inline constexpr const char *FirstStartNs = "first_start_ns";
inline constexpr const char *LastEndNs = "last_end_ns";
inline constexpr const char *Communication = "communication";
// A communication launch's collective (NCCL's NVTX payload).
inline constexpr const char *Collective = "collective";
inline constexpr const char *Call = "call";
inline constexpr const char *Comm = "comm";
inline constexpr const char *Op = "op";
inline constexpr const char *Calls = "calls";

/// One key: the object that holds it, the key, its JSON type, what it holds.
/// Types: "int", "number", "string", "bool", "object", "array", "counts" (a
/// count object, CounterLayout.h), joined by "|" ("int|null").
struct ProfileKeyInfo {
  const char *Object, *Key, *Type, *Meaning;
};

inline constexpr ProfileKeyInfo ProfileKeyTable[] = {
    {"profile", Version, "int", "format version (1)"},
    {"profile", Pid, "int", "the process id"},
    {"profile", Host, "string", "the host name"},
    {"profile", Command, "string", "the command line (/proc/self/cmdline)"},
    {"profile", Rank, "string|null", "the rank in a distributed job"},
    {"profile", RankFrom, "string|null", "the variable the rank came from"},
    {"profile", LocalRank, "string|null", "the rank on its node"},
    {"profile", WorldSize, "string|null", "the number of ranks"},
    {"profile", RunId, "string", "HROOF_RUN_ID (the pid of hroof run), \"\" otherwise"},
    {"profile", StartTime, "int", "Unix seconds at the runtime's start"},
    {"profile", Counters, "int", "number of counters of the count objects"},
    {"profile", Settings, "object", "the settings in effect"},
    {"profile", Launches, "array", "launch records, completion order"},
    {"profile", Kernels, "array", "one aggregate per kernel"},
    {"profile", Devices, "array", "the devices used"},
    {"profile", GraphLaunches, "int", "cuGraphLaunch calls"},
    {"profile", LaunchRecords, "object", "launch records written and dropped"},
    {"profile", Notes, "array", "problems met (strings)"},
    {"profile", Complete, "bool", "the runtime finished the file at exit"},
    {"profile", Ranges, "array", "per NVTX range path, its aggregates"},
    {"profile", RangesDropped, "int", "launches and copies past the range entry limit"},
    {"profile", Transfers, "object", "copies and memsets"},
    {"profile", Timing, "object", "per (range, kernel, device) time of timing ranges"},

    {"settings", Enable, "bool", "HROOF_ENABLE"},
    {"settings", Output, "string", "HROOF_OUTPUT"},
    {"settings", KernelFilter, "string", "HROOF_KERNEL_FILTER"},
    {"settings", LaunchLimit, "int", "HROOF_LAUNCH_LIMIT: launch records per kernel"},
    {"settings", Counting, "bool", "HROOF_COUNTING"},
    {"settings", StaticEval, "bool", "HROOF_STATIC_EVAL"},
    {"settings", EvalLimit, "int", "HROOF_EVAL_LIMIT"},
    {"settings", WarpEvalLimit, "int", "HROOF_WARP_EVAL_LIMIT"},
    {"settings", FlushMs, "int", "HROOF_FLUSH_MS"},
    {"settings", Verbose, "int", "HROOF_VERBOSE"},
    {"settings", Counters, "string", "HROOF_COUNTERS"},
    {"settings", TypeCache, "string", "HROOF_TYPE_CACHE"},
    {"settings", Range, "string", "HROOF_RANGE"},
    {"settings", TimingRange, "string", "HROOF_TIMING_RANGE"},
    {"settings", RoundActivity, "string", "HROOF_ROUND_ACTIVITY"},
    {"settings", CacheControl, "string", "HROOF_CACHE_CONTROL: all or none"},
    {"settings", CountersPerShape, "int", "HROOF_COUNTERS_PER_SHAPE"},
    {"settings", Replay, "string", "HROOF_REPLAY: kernel, application or passes"},

    {"launch_records", Written, "int", "launch records in the file"},
    {"launch_records", Dropped, "int", "launches past the per-kernel limit"},
    {"launch_records", LimitPerKernel, "int", "the per-kernel limit"},

    {"device", Ordinal, "int", "CUDA device ordinal"},
    {"device", Name, "string", "device name"},
    {"device", ComputeCapability, "string", "\"MAJOR.MINOR\""},
    {"device", Sms, "int", "number of SMs"},

    {"launch", Index, "int", "completion order over all kernels"},
    {"launch", Kernel, "string", "demangled name"},
    {"launch", Mangled, "string", "mangled name"},
    {"launch", Api, "string", "the launch API, \"\" when known only from activity"},
    {"launch", Correlation, "int", "CUPTI correlation id"},
    {"launch", Thread, "int", "launching host thread id, 0 unknown"},
    {"launch", Device, "int", "device ordinal, -1 unknown"},
    {"launch", Stream, "int", "CUPTI stream id, -1 unknown"},
    {"launch", Grid, "array", "[x, y, z]"},
    {"launch", Block, "array", "[x, y, z]"},
    {"launch", SharedMem, "int", "dynamic shared memory bytes"},
    {"launch", Instrumented, "bool", "the kernel has __hroof_counters_<mangled>"},
    {"launch", Graph, "bool", "the kernel ran inside a CUDA graph"},
    {"launch", Range, "string", "NVTX range path at the launch, \"\" outside"},
    {"launch", StartNs, "int", "GPU start timestamp"},
    {"launch", DurationNs, "int|null", "GPU duration; null without an activity record"},
    {"launch", DurationSource, "string", "\"counters\": the duration is gpu__time_duration.sum"},
    {"launch", Args, "object", "integer arguments by parameter name"},
    {"launch", Dynamic, "counts|null", "this launch's exact counts"},
    {"launch", DynamicSource, "string", "\"model\": the exact static model evaluated"},
    {"launch", DynamicProblem, "string", "why no dynamic counts"},
    {"launch", DynamicWarpProblem, "string", "why the dynamic warp-level counts are 0 (not counted)"},
    {"launch", Static, "counts|null", "static model at this launch"},
    {"launch", StaticExact, "bool", "the model claims exactness"},
    {"launch", StaticBounds, "object", "[lo, hi] totals of a model that is not exact"},
    {"launch", StaticMatchesDynamic, "bool", "every thread-level counter equal"},
    {"launch", StaticProblem, "string", "why no static totals"},
    {"launch", StaticWarp, "object", "warp-level model at this launch, or {problem}"},
    {"launch", Counters, "object|null", "hardware counters of this launch"},
    {"launch", CountersIncomplete, "array", "one-pass groups missing at exit"},
    {"launch", CountersFrom, "int", "correlation of the launch whose counters these are"},
    {"launch", CountersEstimated, "string", "why the counters may not be this launch's own"},
    {"launch", CountersProblem, "string", "why no counters"},
    {"launch", WorkKey, "string", "digest of the by-value parameter bytes"},
    {"launch", Error, "string", "launch failure or kernel fault"},
    {"launch", Collective, "object", "communication kernel: its library call (NVTX payload)"},
    {"collective", Call, "string", "the call's NVTX range message (ncclAllReduce)"},
    {"collective", Bytes, "int", "message size (NCCL: count x type size)"},
    {"collective", Comm, "string", "the communicator's hash, hex"},
    {"collective", Op, "string", "reduction operation"},
    {"collective", Calls, "int", "grouped calls launched together (bytes summed)"},

    {"bounds", Lo, "counts", "lower bounds"},
    {"bounds", Hi, "object", "upper bounds, null for a counter with none"},
    {"bounds", NoUpperBound, "string", "why some counter has no upper bound"},
    {"static_warp", Problem, "string", "why the warp-level model was not evaluated"},

    {"counters", Flops, "object", "CUDA-core FLOPs by precision"},
    {"counters", TensorFlops, "object", "Tensor Core FLOPs by type"},
    {"counters", Bytes, "object", "requested bytes by space and direction"},
    {"counters", SharedWavefronts, "object", "shared-memory wavefronts {load, store}"},
    {"counters", Sectors, "object", "global sectors {global: {load, store}}"},
    {"counters", Wavefronts, "object", "shared wavefronts {shared: {load, store}}"},
    {"counters", L1Bytes, "number", "bytes at L1/TEX"},
    {"counters", L2Bytes, "number", "bytes at L2"},
    {"counters", DramBytes, "number", "bytes at HBM"},
    {"counters", DramReadBytes, "number", "bytes read from HBM"},
    {"counters", DramWriteBytes, "number", "bytes written to HBM"},
    {"counters", TimeNs, "number", "gpu__time_duration.sum"},
    {"counters", SmHz, "number", "SM clock during the launch"},
    {"counters", Peak, "object", "reference roofs per second"},
    {"counters", Raw, "object", "every collected metric by CUPTI name"},
    {"counters", NotEvaluated, "array", "metrics that did not evaluate"},
    {"counters", TensorFlopsInferred, "array", "Tensor Core types taken as zero"},
    {"counters", TensorFlopsProblem, "string", "a tensor pipe idle when learned was busy"},
    {"counters", ReplayGroups, "int", "one-pass groups the counters came from"},

    {"peak", FlopsPerS, "object", "CUDA-core FLOP/s by precision"},
    {"peak", TensorFlopsPerS, "object", "Tensor Core FLOP/s by type"},
    {"peak", L1BytesPerS, "number", "L1/TEX bytes/s"},
    {"peak", L2BytesPerS, "number", "L2 bytes/s"},
    {"peak", DramBytesPerS, "number", "HBM bytes/s"},

    {"kernel", Kernel, "string", "demangled name"},
    {"kernel", Mangled, "string", "mangled name"},
    {"kernel", Instrumented, "bool", "some launch was instrumented"},
    {"kernel", Launches, "int", "launches, recorded or not"},
    {"kernel", RecordedLaunches, "int", "launches with a record"},
    {"kernel", GraphLaunches, "int", "launches inside CUDA graphs"},
    {"kernel", Errors, "int", "launches with an error"},
    {"kernel", DurationNs, "object", "duration sums of the timed launches"},
    {"kernel", Counters, "object", "{launches, total, estimated_launches}: summed hardware counters"},
    {"kernel", Device, "int", "device ordinal when every launch ran on one"},
    {"kernel", ByDevice, "array", "per device, when the launches ran on several"},
    {"kernel", Dynamic, "object", "{launches, total, from_model}: summed exact counts"},
    {"kernel", Static, "object", "summed static totals"},
    {"kernel", StaticWarp, "object", "{launches, exact, lo, hi}: summed warp-level model"},

    {"duration", TimedLaunches, "int", "launches with a duration"},
    {"duration", Total, "int", "their summed duration"},
    {"duration", Min, "int", "the shortest"},
    {"duration", Max, "int", "the longest"},
    {"duration", Mean, "number", "total / timed_launches"},

    {"sum", Launches, "int", "launches summed"},
    {"sum", Total, "counts", "their sum"},
    {"sum", FromModel, "int", "(dynamic) launches whose counts are the exact model's"},
    {"sum", EstimatedLaunches, "int", "(counters) launches whose counters carry counters_estimated"},
    {"static_sum", Launches, "int", "launches with static totals"},
    {"static_sum", Exact, "bool", "the model claims exactness at every one"},
    {"static_sum", Total, "counts", "summed static totals"},
    {"static_sum", MatchesDynamic, "int", "launches whose counts equal the dynamic ones"},
    {"static_sum", DiffersFromDynamic, "int", "launches whose counts differ"},
    {"static_sum", Problems, "array", "up to 4 reasons a launch had no static totals"},
    {"static_sum", Bounds, "object", "summed static_bounds (model not exact)"},
    {"static_warp_sum", Launches, "int", "launches with warp-level numbers"},
    {"static_warp_sum", Exact, "bool", "the warp-level model is exact at every one"},
    {"static_warp_sum", Lo, "object", "summed lower bounds"},
    {"static_warp_sum", Hi, "object", "summed upper bounds"},

    {"by_device", Device, "int", "device ordinal"},
    {"by_device", Launches, "int", "launches on it"},
    {"by_device", DurationNs, "object", "{timed_launches, total}"},
    {"by_device", Counters, "object", "{launches, total}"},
    {"by_device", Dynamic, "object", "{launches, total}"},

    {"range", Range, "string", "the NVTX range path"},
    {"range", Kernels, "array", "kernel aggregates over the range's launches"},
    {"range", Transfers, "array", "transfer aggregates over the range's copies"},

    {"transfers", ByKind, "array", "one aggregate per kind"},
    {"transfers", Records, "array", "the first copies of each kind"},

    {"transfer_sum", Kind, "string", "HtoD, DtoH, DtoD, PtoP, HtoH, array, memset"},
    {"transfer_sum", Count, "int", "copies"},
    {"transfer_sum", Bytes, "int", "bytes copied"},
    {"transfer_sum", DurationNs, "int", "summed duration"},
    {"transfer_sum", GBytesPerS, "number", "bytes / duration"},

    {"transfer", Kind, "string", "as in transfer_sum"},
    {"transfer", Bytes, "int", "bytes copied"},
    {"transfer", StartNs, "int", "GPU start timestamp"},
    {"transfer", DurationNs, "int", "GPU duration"},
    {"transfer", GBytesPerS, "number", "bytes / duration"},
    {"transfer", Device, "int", "device ordinal"},
    {"transfer", Stream, "int", "CUPTI stream id"},
    {"transfer", Correlation, "int", "correlation id of the API call"},
    {"transfer", Range, "string", "NVTX range path at the API call"},
    {"transfer", SrcDevice, "int", "(PtoP) source device"},
    {"transfer", DstDevice, "int", "(PtoP) destination device"},

    {"timing", RangeFilter, "string", "HROOF_TIMING_RANGE"},
    {"timing", Entries, "array", "one per (range, kernel, device)"},
    {"timing", Dropped, "int", "launches past the entry limit"},

    {"timing_entry", Range, "string", "the NVTX range path"},
    {"timing_entry", Kernel, "string", "demangled name"},
    {"timing_entry", Device, "int", "device ordinal"},
    {"timing_entry", Launches, "int", "launches"},
    {"timing_entry", Replayed, "int", "of which replayed for counters"},
    {"timing_entry", TotalNs, "int", "summed kernel time of the launches"},
    {"timing_entry", FirstStartNs, "int", "the first launch's start"},
    {"timing_entry", LastEndNs, "int", "the last launch's end"},
    {"timing_entry", Communication, "bool", "a communication kernel (hroof/Communication.h)"},
};

} // namespace profile_keys
} // namespace hroof

#endif // HROOF_PROFILEKEYS_H
