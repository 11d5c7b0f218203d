//===- Profile.cpp - settings, records and the incremental profile file ---===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "profile/Profile.h"

#include "hroof/ProfileKeys.h"
#include "metrics/HwMetrics.h"

#include <cxxabi.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace hroof {
namespace rt {

namespace pk = hroof::profile_keys;

//===--- Settings ---------------------------------------------------------===//

Settings Settings::fromEnvironment() {
  Settings S;
  auto Bool = [&](RtSetting Id, bool &Out) {
    std::string T = rtSettingText(Id);
    bool V;
    if (parseRtBool(T, V))
      Out = V;
    else
      S.Problems.push_back(checkRtSetting(Id, T) + "; using " + rtSettingInfo(Id).Default);
  };
  auto Int = [&](RtSetting Id, int64_t &Out) {
    std::string T = rtSettingText(Id);
    int64_t V;
    if (parseRtInt(T, V))
      Out = V;
    else
      S.Problems.push_back(checkRtSetting(Id, T) + "; using " + rtSettingInfo(Id).Default);
  };
  Bool(RtSetting::Enable, S.Enable);
  S.Output = rtSettingText(RtSetting::Output);
  if (S.Output.empty())
    S.Output = ".";
  S.KernelFilter = rtSettingText(RtSetting::KernelFilter);
  Int(RtSetting::LaunchLimit, S.LaunchLimit);
  Bool(RtSetting::Counting, S.Counting);
  Bool(RtSetting::StaticEval, S.StaticEval);
  Int(RtSetting::EvalLimit, S.EvalLimit);
  Int(RtSetting::WarpEvalLimit, S.WarpEvalLimit);
  Int(RtSetting::FlushMs, S.FlushMs);
  Int(RtSetting::Verbose, S.Verbose);
  Int(RtSetting::CountersPerShape, S.CountersPerShape);
  S.Counters = rtSettingText(RtSetting::Counters);
  S.TypeCache = rtSettingText(RtSetting::TypeCache);
  S.Range = rtSettingText(RtSetting::Range);
  S.TimingRange = rtSettingText(RtSetting::TimingRange);
  std::string Cache = rtSettingText(RtSetting::CacheControl);
  if (!parseCacheControl(Cache, S.FlushL2))
    S.Problems.push_back(checkRtSetting(RtSetting::CacheControl, Cache) + "; using " +
                         rtSettingInfo(RtSetting::CacheControl).Default);
  std::string Replay = rtSettingText(RtSetting::Replay);
  ReplayMode Mode = ReplayMode::Kernel;
  if (!parseReplayMode(Replay, Mode))
    S.Problems.push_back(checkRtSetting(RtSetting::Replay, Replay) + "; using " +
                         rtSettingInfo(RtSetting::Replay).Default);
  S.AppReplay = Mode != ReplayMode::Kernel;
  S.PassReplay = Mode == ReplayMode::Passes;
  std::string Round = rtSettingText(RtSetting::RoundActivity);
  S.RoundActivityOff = Round != "serial";
  if (!Round.empty() && Round != "serial" && Round != "off")
    S.Problems.push_back(checkRtSetting(RtSetting::RoundActivity, Round) + "; using " +
                         rtSettingInfo(RtSetting::RoundActivity).Default);
  return S;
}

nlohmann::json Settings::toJson() const {
  return {{pk::Enable, Enable},
          {pk::Output, Output},
          {pk::KernelFilter, KernelFilter},
          {pk::LaunchLimit, LaunchLimit},
          {pk::Counting, Counting},
          {pk::StaticEval, StaticEval},
          {pk::EvalLimit, EvalLimit},
          {pk::WarpEvalLimit, WarpEvalLimit},
          {pk::FlushMs, FlushMs},
          {pk::Verbose, Verbose},
          {pk::Counters, Counters},
          {pk::TypeCache, TypeCache},
          {pk::Range, Range},
          {pk::TimingRange, TimingRange},
          {pk::RoundActivity, RoundActivityOff ? "off" : "serial"},
          {pk::CacheControl, FlushL2 ? "all" : "none"},
          {pk::CountersPerShape, CountersPerShape},
          {pk::Replay, PassReplay  ? "passes"
                       : AppReplay ? "application"
                                   : "kernel"}};
}

/// The first of \p Vars that is set and not empty, with its name.
static std::pair<std::string, std::string> firstSet(std::initializer_list<const char *> Vars) {
  for (const char *V : Vars)
    if (const char *R = std::getenv(V))
      if (*R)
        return {R, V};
  return {"", ""};
}

// RANK first: torchrun sets it per worker, while the SLURM_PROCID that a
// worker inherits from an srun-started torchrun is the node's, not its own.
// RANK is a common name, so it counts only beside WORLD_SIZE or LOCAL_RANK
// (torchrun sets all three).
static std::pair<std::string, std::string> rankAndVariable() {
  const char *World = std::getenv("WORLD_SIZE"), *Local = std::getenv("LOCAL_RANK");
  if ((World && *World) || (Local && *Local))
    if (auto R = firstSet({"RANK"}); !R.first.empty())
      return R;
  return firstSet({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"});
}

std::string rankFromEnvironment() { return rankAndVariable().first; }

nlohmann::json distributedFromEnvironment() {
  auto [Rank, RankVar] = rankAndVariable();
  auto [Local, LocalVar] =
      firstSet({"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"});
  auto [World, WorldVar] =
      firstSet({"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"});
  auto Text = [](const std::string &V) {
    return V.empty() ? nlohmann::json(nullptr) : nlohmann::json(V);
  };
  return {
      {pk::RankFrom, Text(RankVar)}, {pk::LocalRank, Text(Local)}, {pk::WorldSize, Text(World)}};
}

nlohmann::json headerToJson(const ProfileHeader &H, const Settings &S) {
  return {{pk::Version, pk::FormatVersion},
          {pk::Pid, H.Pid},
          {pk::Rank, H.Rank.empty() ? nlohmann::json(nullptr) : nlohmann::json(H.Rank)},
          {pk::Host, H.Host},
          {pk::Command, H.Command},
          {pk::StartTime, H.StartTime},
          {pk::RunId, H.RunId},
          {pk::Counters, NumCounters},
          {pk::Settings, S.toJson()}};
}

nlohmann::json deviceToJson(int Ordinal, const std::string &Name, int Major, int Minor, int Sms) {
  return {{pk::Ordinal, Ordinal},
          {pk::Name, Name},
          {pk::ComputeCapability, std::to_string(Major) + "." + std::to_string(Minor)},
          {pk::Sms, Sms}};
}

static bool endsWith(const std::string &S, const std::string &Tail) {
  return S.size() >= Tail.size() && S.compare(S.size() - Tail.size(), Tail.size(), Tail) == 0;
}

std::string profilePath(const std::string &Output, long Pid, const std::string &Rank) {
  if (endsWith(Output, ".json")) {
    std::string Out;
    for (size_t I = 0; I < Output.size(); ++I) {
      if (Output[I] == '%' && I + 1 < Output.size()) {
        char C = Output[I + 1];
        if (C == 'p') {
          Out += std::to_string(Pid);
          ++I;
          continue;
        }
        if (C == 'r') {
          Out += Rank.empty() ? "0" : Rank;
          ++I;
          continue;
        }
        if (C == '%') {
          Out += '%';
          ++I;
          continue;
        }
      }
      Out += Output[I];
    }
    return Out;
  }
  std::string Dir = Output.empty() ? "." : Output;
  if (Dir.back() != '/')
    Dir += '/';
  return Dir + "hroof-" + std::to_string(Pid) + (Rank.empty() ? "" : "-rank" + Rank) + ".json";
}

std::string launchShapeKey(const std::string &Mangled, const unsigned Grid[3],
                           const unsigned Block[3], unsigned SharedMem) {
  auto Dims = [](const unsigned D[3]) {
    return std::to_string(D[0]) + "," + std::to_string(D[1]) + "," + std::to_string(D[2]);
  };
  return Mangled + " g=" + Dims(Grid) + " b=" + Dims(Block) + " s=" + std::to_string(SharedMem);
}

std::string demangle(const std::string &Mangled) {
  if (Mangled.compare(0, 2, "_Z") != 0)
    return Mangled;
  int Status = 0;
  char *D = abi::__cxa_demangle(Mangled.c_str(), nullptr, nullptr, &Status);
  if (!D || Status != 0) {
    std::free(D);
    return Mangled;
  }
  std::string R = D;
  std::free(D);
  return R;
}

std::string KernelFilter::set(const std::string &Pattern, const char *Setting) {
  Re.reset();
  if (Pattern.empty())
    return "";
  try {
    Re.emplace(Pattern, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error &E) {
    return std::string(Setting) + "='" + Pattern + "' is not a valid regular expression (" +
           E.what() + "); profiling everything";
  }
  return "";
}

bool KernelFilter::matches(const std::string &Mangled, const std::string &Demangled) const {
  if (!Re)
    return true;
  return std::regex_search(Mangled, *Re) || std::regex_search(Demangled, *Re);
}

//===--- Counts -------------------------------------------------------------===//

/// The thread-level counts only: the static totals have no warp-level ones.
static bool sameCounts(const CountVector &D, const TotalVector &S) {
  for (int I = 0; I < NumThreadCounters; ++I)
    if (u128(D[I]) != S[I])
      return false;
  return true;
}

//===--- Records and aggregates -------------------------------------------===//

static nlohmann::json collectiveToJson(const CollectiveCall &C) {
  char Hex[19];
  snprintf(Hex, sizeof Hex, "0x%016llx", static_cast<unsigned long long>(C.Comm));
  nlohmann::json J = {{pk::Call, C.Call}, {pk::Bytes, C.Bytes}, {pk::Calls, C.Calls}};
  if (C.HasComm)
    J[pk::Comm] = Hex;
  if (!C.Op.empty())
    J[pk::Op] = C.Op;
  return J;
}

nlohmann::json launchToJson(const LaunchRecord &R, uint64_t Index) {
  nlohmann::json J = {{pk::Index, Index},
                      {pk::Kernel, R.Name},
                      {pk::Mangled, R.Mangled},
                      {pk::Api, R.Api},
                      {pk::Correlation, R.Correlation},
                      {pk::Thread, R.Thread},
                      {pk::Device, R.Device},
                      {pk::Stream, R.Stream},
                      {pk::Grid, R.Grid},
                      {pk::Block, R.Block},
                      {pk::SharedMem, R.SharedMem},
                      {pk::Instrumented, R.Instrumented},
                      {pk::Graph, R.Graph},
                      {pk::Range, R.Range}};
  if (R.Collective)
    J[pk::Collective] = collectiveToJson(*R.Collective);
  if (R.Timed && R.DurationFromCounters) {
    J[pk::DurationNs] = R.DurationNs;
    J[pk::DurationSource] = "counters";
  } else if (R.Timed) {
    J[pk::StartNs] = R.StartNs;
    J[pk::DurationNs] = R.DurationNs;
  } else {
    J[pk::DurationNs] = nullptr;
  }
  if (R.Instrumented) {
    nlohmann::json A = nlohmann::json::object();
    for (const auto &[Name, V] : R.Args)
      A[Name] = V;
    J[pk::Args] = A;
    if (R.Dynamic) {
      J[pk::Dynamic] = countsToJson(*R.Dynamic);
      if (R.DynamicFromModel)
        J[pk::DynamicSource] = "model";
      if (!R.DynamicWarpProblem.empty())
        J[pk::DynamicWarpProblem] = R.DynamicWarpProblem;
    } else {
      J[pk::Dynamic] = nullptr;
      J[pk::DynamicProblem] = R.DynamicProblem;
    }
    if (R.Static) {
      J[pk::Static] = countsToJson(*R.Static, NumThreadCounters);
      J[pk::StaticExact] = R.StaticExact;
      if (R.StaticBounds)
        J[pk::StaticBounds] = totalBoundsToJson(*R.StaticBounds);
      if (R.Dynamic)
        J[pk::StaticMatchesDynamic] = sameCounts(*R.Dynamic, *R.Static);
    } else {
      J[pk::Static] = nullptr;
      J[pk::StaticProblem] = R.StaticProblem;
    }
    if (R.StaticWarp)
      J[pk::StaticWarp] = warpTrafficToJson(*R.StaticWarp);
    else if (!R.StaticWarpProblem.empty())
      J[pk::StaticWarp] = {{pk::Problem, R.StaticWarpProblem}};
  }
  if (R.Hw) {
    J[pk::Counters] = *R.Hw;
    if (!R.HwIncomplete.empty())
      J[pk::CountersIncomplete] = R.HwIncomplete;
    if (R.CountersFrom)
      J[pk::CountersFrom] = R.CountersFrom;
    if (!R.CountersEstimated.empty())
      J[pk::CountersEstimated] = R.CountersEstimated;
  } else if (R.HwTried) {
    J[pk::Counters] = nullptr;
    J[pk::CountersProblem] = R.HwProblem;
  }
  if (!R.WorkKey.empty()) { // the digest: the shape is in the record already
    size_t P = R.WorkKey.rfind(" p=");
    J[pk::WorkKey] = P == std::string::npos ? R.WorkKey : R.WorkKey.substr(P + 3);
  }
  if (!R.Error.empty())
    J[pk::Error] = R.Error;
  return J;
}

void KernelAggregate::add(const LaunchRecord &R) {
  if (Mangled.empty()) {
    Mangled = R.Mangled;
    Name = R.Name;
  }
  Instrumented |= R.Instrumented;
  ++Launches;
  if (R.Graph)
    ++GraphLaunches;
  if (!R.Error.empty())
    ++Errors;
  if (R.Timed) {
    ++Timed;
    TotalNs += R.DurationNs;
    MinNs = std::min(MinNs, R.DurationNs);
    MaxNs = std::max(MaxNs, R.DurationNs);
  }
  if (R.Dynamic) {
    ++Counted;
    FromModel += R.DynamicFromModel;
    for (int I = 0; I < NumCounters; ++I)
      Dynamic[I] += (*R.Dynamic)[I];
  }
  // Counters missing some of their one-pass groups (HROOF_REPLAY=application,
  // counters_incomplete) would add partial sums: counted as no counters.
  bool HwComplete = R.Hw && R.HwIncomplete.empty();
  if (HwComplete) {
    ++HwLaunches;
    HwEstimated += !R.CountersEstimated.empty();
    addCounters(HwTotal, *R.Hw);
  }
  DeviceShare &Dv = ByDevice[R.Device];
  ++Dv.Launches;
  if (R.Timed) {
    ++Dv.Timed;
    Dv.TotalNs += R.DurationNs;
  }
  if (R.Dynamic) {
    ++Dv.Counted;
    for (int I = 0; I < NumCounters; ++I)
      Dv.Dynamic[I] += (*R.Dynamic)[I];
  }
  if (HwComplete) {
    ++Dv.HwLaunches;
    addCounters(Dv.HwTotal, *R.Hw);
  }
  if (R.Static) {
    ++StaticEvaluated;
    for (int I = 0; I < NumCounters; ++I)
      Static[I] += (*R.Static)[I];
    StaticExact &= R.StaticExact;
    if (StaticEvaluated == 1)
      StaticBounds.HasHi.fill(true);
    const TotalBounds *B = R.StaticBounds ? &*R.StaticBounds : nullptr;
    for (int I = 0; I < NumCounters; ++I) {
      StaticBounds.Lo[I] += B ? B->Lo[I] : (*R.Static)[I];
      StaticBounds.Hi[I] += B ? B->Hi[I] : (*R.Static)[I];
      StaticBounds.HasHi[I] = StaticBounds.HasHi[I] && (!B || B->HasHi[I]);
    }
    if (B && StaticBounds.NoHiBecause.empty())
      StaticBounds.NoHiBecause = B->NoHiBecause;
    if (R.Dynamic)
      ++(sameCounts(*R.Dynamic, *R.Static) ? StaticMatches : StaticDiffers);
  } else if (R.Instrumented && !R.StaticProblem.empty() && StaticProblems.size() < 4 &&
             std::find(StaticProblems.begin(), StaticProblems.end(), R.StaticProblem) ==
                 StaticProblems.end()) {
    StaticProblems.push_back(R.StaticProblem);
  }
  if (R.StaticWarp) {
    ++WarpEvaluated;
    WarpExact &= R.StaticWarp->exact();
    for (const auto &[Key, B] : R.StaticWarp->Counts) {
      Warp[Key].Lo += B.Lo;
      Warp[Key].Hi += B.Hi;
    }
  }
}

nlohmann::json KernelAggregate::toJson() const {
  nlohmann::json J = {{pk::Kernel, Name},
                      {pk::Mangled, Mangled},
                      {pk::Instrumented, Instrumented},
                      {pk::Launches, Launches},
                      {pk::RecordedLaunches, Recorded},
                      {pk::GraphLaunches, GraphLaunches},
                      {pk::Errors, Errors}};
  nlohmann::json D = {{pk::TimedLaunches, Timed}, {pk::Total, TotalNs}};
  if (Timed) {
    D[pk::Min] = MinNs;
    D[pk::Max] = MaxNs;
    D[pk::Mean] = double(TotalNs) / double(Timed);
  }
  J[pk::DurationNs] = D;
  if (HwLaunches) {
    J[pk::Counters] = {{pk::Launches, HwLaunches}, {pk::Total, HwTotal}};
    if (HwEstimated)
      J[pk::Counters][pk::EstimatedLaunches] = HwEstimated;
  }
  if (ByDevice.size() == 1)
    J[pk::Device] = ByDevice.begin()->first;
  else if (ByDevice.size() > 1)
    J[pk::ByDevice] = byDeviceJson();
  if (Instrumented) {
    J[pk::Dynamic] = {{pk::Launches, Counted}, {pk::Total, countsToJson(Dynamic)}};
    if (FromModel)
      J[pk::Dynamic][pk::FromModel] = FromModel;
    J[pk::Static] = {{pk::Launches, StaticEvaluated},
                     {pk::Exact, StaticExact},
                     {pk::Total, countsToJson(Static, NumThreadCounters)},
                     {pk::MatchesDynamic, StaticMatches},
                     {pk::DiffersFromDynamic, StaticDiffers},
                     {pk::Problems, StaticProblems}};
    if (!StaticExact && StaticEvaluated)
      J[pk::Static][pk::Bounds] = totalBoundsToJson(StaticBounds);
  }
  if (WarpEvaluated) {
    // Sums over the launches with warp-level numbers: lower and upper
    // bounds (equal where exact), nested like every count object.
    nlohmann::json Lo = nlohmann::json::object(), Hi = nlohmann::json::object();
    for (const auto &[Key, B] : Warp) {
      size_t P1 = Key.find('.'), P2 = Key.rfind('.');
      auto Num = [](u128 V) {
        return V >> 64 ? nlohmann::json(double(V)) : nlohmann::json(uint64_t(V));
      };
      Lo[Key.substr(0, P1)][Key.substr(P1 + 1, P2 - P1 - 1)][Key.substr(P2 + 1)] = Num(B.Lo);
      Hi[Key.substr(0, P1)][Key.substr(P1 + 1, P2 - P1 - 1)][Key.substr(P2 + 1)] = Num(B.Hi);
    }
    J[pk::StaticWarp] = {
        {pk::Launches, WarpEvaluated}, {pk::Exact, WarpExact}, {pk::Lo, Lo}, {pk::Hi, Hi}};
  }
  return J;
}

nlohmann::json KernelAggregate::byDeviceJson() const {
  nlohmann::json Out = nlohmann::json::array();
  for (const auto &[Device, Dv] : ByDevice) {
    nlohmann::json E = {{pk::Device, Device},
                        {pk::Launches, Dv.Launches},
                        {pk::DurationNs, {{pk::TimedLaunches, Dv.Timed}, {pk::Total, Dv.TotalNs}}}};
    if (Dv.HwLaunches)
      E[pk::Counters] = {{pk::Launches, Dv.HwLaunches}, {pk::Total, Dv.HwTotal}};
    if (Instrumented)
      E[pk::Dynamic] = {{pk::Launches, Dv.Counted}, {pk::Total, countsToJson(Dv.Dynamic)}};
    Out.push_back(std::move(E));
  }
  return Out;
}

//===--- Profile file -------------------------------------------------------===//
//
// Layout: HEADER RECORDS TRAILER, where HEADER is the top-level object's
// fixed fields ending in `"launches": [`, RECORDS one compact JSON object per
// line, and TRAILER `],` plus the remaining fields and the closing brace.
// Adding records overwrites the old trailer in place (pwrite at
// TrailerOffset) and truncates to the new end, so the file is complete JSON
// after every write.

Profile::~Profile() {
  if (Fd >= 0)
    ::close(Fd);
}

/// `"KEY": ` for the sections written as text.
static std::string quotedKey(const char *Key) { return std::string("\"") + Key + "\": "; }

static bool writeAll(int Fd, const std::string &S, uint64_t Offset) {
  const char *P = S.data();
  size_t Left = S.size();
  while (Left) {
    ssize_t N = ::pwrite(Fd, P, Left, off_t(Offset));
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    P += N;
    Left -= size_t(N);
    Offset += uint64_t(N);
  }
  return true;
}

std::string Profile::open(const std::string &Path, const nlohmann::json &Header) {
  std::lock_guard<std::mutex> L(M);
  int F = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (F < 0)
    return "cannot write the profile '" + Path + "': " + std::strerror(errno);
  Fd = F;
  std::string H = Header.dump(1);
  // Drop the closing brace and open the launch array.
  H.erase(H.rfind('}')); // the object's own closing brace, nothing nested
  while (!H.empty() && (H.back() == '\n' || H.back() == ' '))
    H.pop_back();
  H += (Header.empty() ? "" : ",\n ") + quotedKey(pk::Launches) + "[";
  if (!writeAll(Fd, H, 0)) {
    std::string E = "cannot write the profile '" + Path + "': " + std::strerror(errno);
    ::close(Fd);
    Fd = -1;
    return E;
  }
  TrailerOffset = H.size();
  writeLocked("", true);
  return "";
}

nlohmann::json Profile::trailerLocked(bool Complete) const {
  nlohmann::json T = nlohmann::json::object();
  nlohmann::json K = nlohmann::json::array();
  for (const auto &[Name, A] : Kernels)
    K.push_back(A.toJson());
  T[pk::Kernels] = K;
  T[pk::Devices] = Devices;
  T[pk::GraphLaunches] = GraphLaunches;
  T[pk::LaunchRecords] = {
      {pk::Written, Written}, {pk::Dropped, DroppedRecords}, {pk::LimitPerKernel, LaunchLimit}};
  T[pk::Notes] = Notes;
  T[pk::Complete] = Complete;
  return T;
}

nlohmann::json Profile::rangesLocked() const {
  nlohmann::json Out = nlohmann::json::array();
  for (const auto &[Path, RA] : Ranges) {
    nlohmann::json K = nlohmann::json::array(), T = nlohmann::json::array();
    for (const auto &[Name, A] : RA.Kernels)
      K.push_back(A.toJson());
    for (const auto &[Kind, A] : RA.Transfers)
      T.push_back(A.toJson(Kind));
    Out.push_back({{pk::Range, Path}, {pk::Kernels, K}, {pk::Transfers, T}});
  }
  return Out;
}

nlohmann::json Profile::transfersLocked() const {
  nlohmann::json Kinds = nlohmann::json::array();
  for (const auto &[Kind, A] : TransferKinds)
    Kinds.push_back(A.toJson(Kind));
  return {{pk::ByKind, Kinds}, {pk::Records, TransferRecords}};
}

std::string Profile::growingSectionsLocked(bool Force) {
  auto Now = std::chrono::steady_clock::now();
  if (GrowingDirty &&
      (Force || GrowingText.empty() || Now - GrowingAt >= std::chrono::milliseconds(FlushMs))) {
    GrowingText = "";
    if (AnyRange)
      GrowingText += ",\n " + quotedKey(pk::Ranges) + rangesLocked().dump() + ",\n " +
                     quotedKey(pk::RangesDropped) + std::to_string(RangesDropped);
    GrowingText += ",\n " + quotedKey(pk::Transfers) + transfersLocked().dump();
    if (Timing.any())
      GrowingText += ",\n " + quotedKey(pk::Timing) + Timing.toJson().dump();
    GrowingAt = Now;
    GrowingDirty = false;
  }
  return GrowingText;
}

Profile::RangeAggregate *Profile::rangeLocked(const std::string &Path, bool NewEntry) {
  AnyRange |= !Path.empty();
  auto It = Ranges.find(Path);
  if (NewEntry && RangeEntries >= RangeEntryLimit) {
    ++RangesDropped;
    return nullptr;
  }
  if (NewEntry)
    ++RangeEntries;
  return It != Ranges.end() ? &It->second : &Ranges[Path];
}

nlohmann::json Profile::trailerJson() const {
  std::lock_guard<std::mutex> L(M);
  nlohmann::json T = trailerLocked(Finished);
  if (AnyRange) {
    T[pk::Ranges] = rangesLocked();
    T[pk::RangesDropped] = RangesDropped;
  }
  T[pk::Transfers] = transfersLocked();
  if (Timing.any())
    T[pk::Timing] = Timing.toJson();
  return T;
}

void Profile::addTiming(const TimingLaunch &L) {
  std::lock_guard<std::mutex> Lock(M);
  if (Finished)
    return;
  Timing.add(L);
  GrowingDirty = true;
}

void Profile::setTimingFilter(const std::string &Regex) {
  std::lock_guard<std::mutex> Lock(M);
  Timing.setFilter(Regex);
}

void Profile::writeLocked(const std::string &Records, bool Force) {
  Dirty = true;
  if (Fd < 0 || !WriteError.empty())
    return;
  auto Now = std::chrono::steady_clock::now();
  bool Throttled = !Force && Now - LastFlush < std::chrono::milliseconds(FlushMs);
  if (Throttled && Records.empty())
    return;
  if (!Throttled || TrailerText.empty()) {
    std::string T = trailerLocked(Finished).dump(1);
    // `{` -> `],` : the trailer closes the launch array; the growing sections
    // (ranges, transfers) go last, before the closing brace.
    T.erase(T.rfind('}'));
    while (!T.empty() && (T.back() == '\n' || T.back() == ' '))
      T.pop_back();
    TrailerText = "\n ],\n" + T.substr(1) + growingSectionsLocked(Force || Finished) + "\n}\n";
    Throttled = false;
  }
  // Throttled: the records go out at once, after them the trailer of the
  // last flush (aggregates at most FlushMs old): dumping the aggregates at
  // every record cost more than the record itself.
  const std::string &T = TrailerText;
  if (!writeAll(Fd, Records + T, TrailerOffset) ||
      ::ftruncate(Fd, off_t(TrailerOffset + Records.size() + T.size())) != 0) {
    WriteError = std::string("writing the profile failed: ") + std::strerror(errno) +
                 "; it stops being updated";
    return;
  }
  TrailerOffset += Records.size();
  if (!Throttled) {
    LastFlush = Now;
    Dirty = false;
  }
}

void Profile::addLaunch(const LaunchRecord &R) {
  std::lock_guard<std::mutex> L(M);
  if (Finished)
    return;
  KernelAggregate &A = Kernels[R.Mangled];
  A.add(R);
  auto RIt = Ranges.find(R.Range);
  bool NewEntry = RIt == Ranges.end() || !RIt->second.Kernels.count(R.Mangled);
  if (RangeAggregate *RA = rangeLocked(R.Range, NewEntry))
    RA->Kernels[R.Mangled].add(R);
  GrowingDirty = true;
  uint64_t Index = NextIndex++;
  std::string Records;
  if (int64_t(A.Recorded) < LaunchLimit) {
    ++A.Recorded;
    Records = (Written ? ",\n  " : "\n  ") + launchToJson(R, Index).dump();
    ++Written;
  } else {
    ++DroppedRecords;
  }
  writeLocked(Records, false);
}

void Profile::addTransfer(const TransferRecord &R) {
  std::lock_guard<std::mutex> L(M);
  if (Finished)
    return;
  TransferKinds[R.Kind].add(R);
  auto RIt = Ranges.find(R.Range);
  bool NewEntry = RIt == Ranges.end() || !RIt->second.Transfers.count(R.Kind);
  if (RangeAggregate *RA = rangeLocked(R.Range, NewEntry))
    RA->Transfers[R.Kind].add(R);
  if (int64_t(TransferRecordsByKind[R.Kind]++) < LaunchLimit)
    TransferRecords.push_back(transferToJson(R));
  GrowingDirty = true;
  writeLocked("", false);
}

void Profile::addGraphLaunch() {
  std::lock_guard<std::mutex> L(M);
  ++GraphLaunches;
  writeLocked("", false);
}

void Profile::addDevice(const nlohmann::json &D) {
  std::lock_guard<std::mutex> L(M);
  for (const nlohmann::json &E : Devices)
    if (E == D)
      return;
  Devices.push_back(D);
  writeLocked("", true);
}

void Profile::note(const std::string &Line) {
  std::lock_guard<std::mutex> L(M);
  if (std::find(Notes.begin(), Notes.end(), Line) != Notes.end() || Notes.size() >= 100)
    return;
  Notes.push_back(Line);
  writeLocked("", true);
}

void Profile::finish() {
  std::lock_guard<std::mutex> L(M);
  if (Finished)
    return;
  Finished = true;
  writeLocked("", true);
  if (Fd >= 0) {
    ::close(Fd);
    Fd = -1;
  }
}

std::string Profile::takeWriteError() {
  std::lock_guard<std::mutex> L(M);
  if (WriteError.empty() || WriteErrorTaken)
    return "";
  WriteErrorTaken = true;
  return WriteError;
}

std::map<std::string, KernelAggregate> Profile::kernels() const {
  std::lock_guard<std::mutex> L(M);
  return Kernels;
}

uint64_t Profile::recordedLaunches() const {
  std::lock_guard<std::mutex> L(M);
  return Written;
}

} // namespace rt
} // namespace hroof
