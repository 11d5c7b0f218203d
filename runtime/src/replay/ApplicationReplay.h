//===- ApplicationReplay.h - counters gathered across launches of a shape -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// HROOF_REPLAY=application (docs/runtime.md "Application replay"). With
// kernel replay a launch whose metric set needs several passes is replayed
// by CUPTI, which saves the device memory before the first pass and restores
// it between passes, a cost that grows with the device memory the process
// holds, while a one-pass range needs no save (measured:
// docs/validation/deep-learning.md, "the cost of the counters: plain run,
// hroof run, ncu" and "where a range's time goes"). So, like Nsight
// Compute's --replay-mode application, the metric set is split into groups
// that each need ONE pass (planOnePassGroups) and group g is collected on
// the g-th launch of the same work key (kernel, grid, block, dynamic shared
// memory and by-value parameter bytes: launches/WorkKey.h) and context: the
// same kernel with the same shape does the same work on inputs of the same
// size, as a training step that repeats does.
//
// A CUPTI range profiler object collects only the counters of the first
// config it ran (ReplayPolicy.h, listFitsObject), so each group runs on an
// object whose first config was that group, and a change of group costs a
// fresh object, whose first Start is costly (ReplayPolicy.h): role() prefers
// the group the context's object runs now and lets a launch that would
// need another wait (no counters) while the other open shapes have their
// turn, so in a loop the object changes group about once per group, not at
// every launch. Groups 1.. are therefore collected in the order the object
// goes through them, not launch by launch.
//
// The first launch of a record is the "recorded launch"; the launches that
// collect its other groups are "replay launches" (their own records, if any,
// carry no counters). The record's counters are the groups' raw values
// merged (a metric in several groups: the lowest group's value, i.e. the
// recorded launch's own for the time and clock metrics, which planning puts
// in group 0) and evaluated as a single multi-pass range would be.
//
// A record is held back (hold) until its counters are complete, then handed
// back for writing; at exit the incomplete ones are written with the groups
// they have and "counters_incomplete" naming those missing.
//
// Plain C++ (no CUDA, no CUPTI): the pass counts come from an oracle, the
// tensor-type check from a hook; unit-tested in
// test/unit/runtime/ApplicationReplayTest.cpp.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_APPLICATIONREPLAY_H
#define HROOF_RUNTIME_APPLICATIONREPLAY_H

#include "metrics/HwMetrics.h"
#include "profile/Profile.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hroof {
namespace rt {

/// The number of replay passes CUPTI needs for a metric list (0: unknown).
using PassOracle = std::function<size_t(const std::vector<std::string> &)>;

/// A metric set split into one-pass groups.
struct GroupPlan {
  std::vector<std::vector<std::string>> Groups;
  /// Metrics that alone need more than one pass (or an unknown count): each
  /// is a group of its own, replayed by CUPTI as kernel replay would.
  std::vector<std::string> MultiPass;
};

/// Whether \p Metric depends on the launch's timing (duration, clocks): such
/// metrics are placed first, so that group 0 (the recorded launch's own)
/// holds them.
bool timeDependentMetric(const std::string &Metric);

/// Whether \p Metric is a signature (the duration, the L2 bytes): planning
/// puts it in every group it adds no pass to (planOnePassGroups).
bool signatureMetric(const std::string &Metric);

/// Whether \p Metric is one of CUPTI's SASS-patched metrics (sm__sass_*).
bool sassMetric(const std::string &Metric);

/// Splits \p Metrics into groups of one pass each: the time-dependent metrics
/// first, then each metric into the first group that stays at one pass with
/// it (first fit), else a new group. SASS-patched metrics and the others
/// never share a group: in a batched user-replay session the SASS metrics
/// read 0 while CUPTI's concurrent-kernel activity is enabled (measured:
/// docs/validation/deep-learning.md, "range-profiler costs and SASS metrics
/// in user-replay sessions"), so their groups are collected with a
/// kernel-replay range of their own. gpu__time_duration.sum is then added to
/// every later group that it adds no pass to, and so is lts__t_bytes.sum:
/// a replay launch inside the range gets its own duration (a replayed launch
/// gets no activity record), and each group's launch can be checked against
/// the recorded one (sameWork, sameTraffic). Calls \p Passes about metrics x
/// groups times.
/// \p Together: sets of metrics that must come from one launch (HFMA2.MMA,
/// subtracted from the hmma pipe): each set's members in Metrics are placed
/// as one, if they fit one pass together.
GroupPlan planOnePassGroups(const std::vector<std::string> &Metrics, const PassOracle &Passes,
                            const std::vector<std::vector<std::string>> &Together = {});

/// The groups of a plan that list \p Need takes: group 0 (the recorded
/// launch's own: duration and clocks) and the first group holding each of
/// its metrics (the signatures, in many groups, make no other one needed). A context plans one set of groups for every tensor type and
/// each kernel's list takes its part of it (AppReplayCounters.cpp,
/// SessionReplay::groups): lists that differ by a tensor type then share their groups,
/// and so the range profiler objects that run them.
std::vector<size_t> groupsFor(const std::vector<std::vector<std::string>> &Groups,
                              const std::vector<std::string> &Need);

/// Whether a replay launch that took \p Ns did the work of a recorded launch
/// that took \p RecordedNs (both gpu__time_duration.sum, ns): within a
/// quarter of the longer one, plus 1.5 us for short kernels' jitter. A launch
/// shape does not always fix the work: cuBLAS runs GEMMs of different depth
/// with one grid, block and shared memory (PyTorch AMP: a group from the
/// other GEMM doubled a record's tensor FLOPs; docs/validation/deep-learning.md,
/// "what a counter range costs; application replay in batched sessions").
bool sameWork(double RecordedNs, double Ns);

/// The same for the L2 bytes (lts__t_bytes.sum): within a quarter of the
/// larger, plus 64 KiB. A GEMM of twice the depth moves about twice the
/// bytes through L2 even where its duration is close (a short kernel:
/// cuBLAS nvjet and CUTLASS GEMMs of PyTorch: the same section).
bool sameTraffic(double RecordedBytes, double Bytes);

/// "group 2 of 4: lts__t_bytes.sum, dram__bytes_read.sum, ...": how a
/// missing group is named in counters_incomplete (its first metrics).
std::string describeGroup(size_t Group, size_t Groups, const std::vector<std::string> &Metrics);

/// What the counters of one launch are for.
struct AppTicket {
  uint32_t Record = 0; ///< correlation id of the recorded launch
  size_t Group = 0, Groups = 0;
  bool NewRecord = false; ///< this launch is the recorded launch (group 0)
  unsigned Mask = 0;      ///< the record's metric list (tensor-type mask)
};

/// The kernel's tensor types as the recorded launch found them (the check
/// runs on the assembled values; HwMetrics.h).
struct AppTypes {
  bool Learning = false;
  std::shared_ptr<const LearnedTypes> Types;
  uint64_t Code = 0;
  std::string Mangled, Name;
  std::string Chip;
  std::vector<std::string> TypeMetrics; ///< the tensor type metrics the chip has
  /// Some metrics were left out (leaveOut): learned types go to this run's
  /// memory, not to the type cache (a metric not measured counts as used).
  bool Partial = false;
};

/// What a launch does in application mode.
enum class AppRole {
  None,       ///< no counters (limits reached, or outside the range with nothing to collect)
  Record,     ///< starts a record: the caller plans its groups and calls startRecord
  Replay,     ///< collects a group of an open record; keeps its own record, without counters
  ReplayOnly, ///< the same outside HROOF_RANGE: counters only, no record
};

/// The per-shape state of application replay. Thread-safe.
class ApplicationReplay {
public:
  /// The tensor-type check of assembled values (HardwareCounters::checkTypes):
  /// returns the problem ("" if none) and the types inferred zero. Unset: no
  /// check.
  using TypeCheck = std::function<std::string(
      const AppTypes &, const std::map<std::string, double> &, std::vector<std::string> &)>;
  void setTypeCheck(TypeCheck C) { Check = std::move(C); }

  /// A launch of shape \p Shape: the oldest record of that shape with a
  /// group not yet collected nor under way takes it (the group is marked
  /// under way). With \p Prefer (the metric list of the group the context's
  /// range profiler object runs now): a missing group with that list first,
  /// in any record of the shape, since any other group costs a fresh object
  /// (AppReplayCounters.cpp); else the lowest missing group of the oldest
  /// record. None: the launch may start a record.
  std::optional<AppTicket> replaySlot(const std::string &Shape,
                                      const std::vector<std::string> *Prefer = nullptr);
  /// The role of a launch of \p Shape (\p InRange: HROOF_RANGE selects it):
  /// a group of an open record of that shape if one is missing (\p T says
  /// which, chosen as replaySlot does with \p Prefer; replay launches count
  /// against no limit), else, inside the range, a new record if \p Take (the
  /// launch and per-shape limits) allows it. With \p Prefer, a launch whose
  /// shape misses only other groups gets None (waits) until more launches
  /// than there are open records went by without one for \p Prefer's group,
  /// so that the object changes group rarely (each change: a fresh object).
  AppRole role(const std::string &Shape, bool InRange, const std::function<bool()> &Take,
               AppTicket &T, const std::vector<std::string> *Prefer = nullptr);
  /// Whether some record of \p Shape still misses a group nobody collects.
  bool wantsReplay(const std::string &Shape);
  /// Starts the record of launch \p Corr (group 0 under way). Its counters
  /// keep the metrics of \p Wanted only (empty: all its groups'): a shared
  /// group may hold other tensor types' metrics too.
  AppTicket startRecord(const std::string &Shape, uint32_t Corr, unsigned Mask,
                        std::vector<std::vector<std::string>> Groups, AppTypes Types,
                        std::vector<std::string> Wanted = {});
  /// Metrics of record \p Corr that will not be collected (\p Why: the
  /// reason, in its "not_evaluated"): no tensor type among them is inferred
  /// zero, and the types learned from the record are not cached.
  void leaveOut(uint32_t Corr, const std::vector<std::string> &Metrics, const std::string &Why);
  /// The tensor type metrics record \p Corr's pipes showed idle (zero),
  /// once its tensor pipes' values are in; none before, or for a record
  /// that is not learning its types.
  std::optional<std::vector<std::string>> idleTypes(uint32_t Corr) const;
  /// The launch of \p T gave no values: its group is missing again; a
  /// recorded launch that failed drops its record (its own record says why).
  void failed(const AppTicket &T);
  /// The launch of \p T ran but its values were lost (a batched session
  /// whose ranges did not match its launches): its group is missing again,
  /// the recorded launch's own group 0 too, and the record stays.
  void retry(const AppTicket &T);
  /// The values of \p T's group (\p NotEvaluated: metrics CUPTI left NaN).
  /// Returns the record to write when this completed a record that was
  /// already held back.
  std::optional<LaunchRecord> deliver(const AppTicket &T, std::map<std::string, double> Values,
                                      const std::string &NotEvaluated);
  /// At the record's finalize: its counters when complete (then false, \p R
  /// is written now), or keeps \p R until they are (true). Launches that are
  /// no record of this class pass through (false).
  bool hold(LaunchRecord &R);
  /// At exit: the records still held, with the counters of the groups they
  /// have and counters_incomplete naming the missing ones; records whose
  /// launch never finished are dropped.
  std::vector<LaunchRecord> takeIncomplete();

  /// For the notes: records completed, replay launches served, records
  /// written incomplete, completed records with metrics not evaluated.
  struct Stats {
    uint64_t Records = 0, Completed = 0, ReplayLaunches = 0, Incomplete = 0, Failed = 0;
    uint64_t NotEvaluated = 0; ///< completed with metrics CUPTI left NaN
    /// Groups given back: their launch's duration was not the recorded
    /// launch's (sameWork), so it did other work.
    uint64_t OtherWork = 0;
    /// Groups of tensor types not collected: the recorded launch's tensor
    /// pipes showed the types zero (inferIdleTypes).
    uint64_t IdleTypeGroups = 0;
  };
  Stats stats();

private:
  enum class GroupState { Missing, UnderWay, Done };
  struct Record {
    std::string Shape;
    unsigned Mask = 0;
    std::vector<std::vector<std::string>> Metrics; ///< by group
    std::vector<std::string> Wanted;               ///< sorted; empty: every metric
    std::vector<GroupState> State;
    std::vector<std::map<std::string, double>> Values; ///< by group
    std::string NotEvaluated;
    AppTypes Types;
    std::optional<nlohmann::json> Counters; ///< assembled (complete)
    std::optional<LaunchRecord> Held;       ///< finalized, waiting for counters
    std::vector<std::string> LeftOut;       ///< metrics not collected (leaveOut)
    size_t OtherWork = 0; ///< groups given back by dropOtherWork
    std::vector<std::string> IdleTypes; ///< type metrics known zero (inferIdleTypes)
    bool PipesIn = false; ///< the tensor pipes' values are collected
    bool Abandoned = false; ///< written incomplete: its shape's launches differ
  };
  /// The first missing group of \p Shape's oldest record that has one (only
  /// groups whose list is \p Only, if given); under M, nothing marked.
  std::optional<AppTicket> findSlot(const std::string &Shape,
                                    const std::vector<std::string> *Only);
  /// Marks \p T's group under way (under M); returns \p T.
  std::optional<AppTicket> take(std::optional<AppTicket> T);
  /// Gives back (missing again) each group whose launch did other work than
  /// the recorded one's (sameWork on the durations, sameTraffic on the L2
  /// bytes), under M. After more than twice its group count of those, the
  /// record is abandoned: the recorded launch itself may be the odd one, and
  /// the shape must be free for a new record.
  void dropOtherWork(Record &Rec, uint32_t Corr);
  /// While a record learns its kernel's tensor types: once its tensor
  /// pipes' values are in, the types no busy pipe issues are zero
  /// (typesIdleByPipes), and each missing group that holds only such types
  /// (and the signatures, which group 0 has) is done without a launch. The
  /// fp16 and int8 groups need two passes each (a kernel-replay range), so
  /// a kernel without Tensor Core work learns its types at one-pass cost.
  void inferIdleTypes(Record &Rec);
  /// Whether group \p G of \p Rec waits for the tensor pipes' values: a
  /// group of tensor types only, while the record learns types.
  bool waitsForPipes(const Record &Rec, size_t G) const;
  std::optional<std::map<std::string, double>> pipeValues(const Record &Rec) const;
  /// An abandoned record's counters, as far as they go, into \p R.
  void writeAbandoned(Record &Rec, LaunchRecord &R);
  /// Merges the groups' values (lowest group first) and evaluates them.
  nlohmann::json assemble(Record &Rec, std::vector<std::string> *Missing);

  mutable std::mutex M;
  std::map<uint32_t, Record> Records;                   ///< by correlation id
  std::map<std::string, std::vector<uint32_t>> ByShape; ///< open records, oldest first
  TypeCheck Check;
  Stats S;
  /// Launches that waited since the object's group was last collected (role).
  size_t Waited = 0;
};

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_APPLICATIONREPLAY_H
