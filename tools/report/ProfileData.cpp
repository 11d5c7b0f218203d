//===- ProfileData.cpp - one profile, read once into typed fields ---------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "ProfileData.h"
#include "ProfileReader.h"
#include "ReportData.h"
#include "TornProfile.h"

#include "../Toolchain.h"

#include "hroof/ProfileKeys.h"

#include <algorithm>
#include <cmath>

namespace hroof {
namespace report {

namespace pk = hroof::profile_keys;
using nlohmann::json;

//===--- Flat counts --------------------------------------------------------===//

void flatten(const json &J, const std::string &Prefix, Flat &Out) {
  if (!J.is_object())
    return;
  for (auto It = J.begin(); It != J.end(); ++It) {
    std::string Key = Prefix.empty() ? It.key() : Prefix + "." + It.key();
    if (It->is_number())
      Out[Key] += It->get<double>();
    else if (It->is_object() && It.key() != pk::Raw && It.key() != pk::Peak)
      flatten(*It, Key, Out);
  }
}

double get(const Flat &F, const std::string &Key) {
  auto It = F.find(Key);
  return It == F.end() ? 0.0 : It->second;
}

double sumPrefix(const Flat &F, const std::string &Prefix) {
  double S = 0;
  for (auto It = F.lower_bound(Prefix);
       It != F.end() && It->first.compare(0, Prefix.size(), Prefix) == 0; ++It)
    S += It->second;
  return S;
}

void addInto(Flat &Sum, const Flat &Add) {
  for (const auto &[K, V] : Add)
    Sum[K] += V;
}

//===--- Reading --------------------------------------------------------===//

ProfileKernel ProfileKernel::onDevice(const KernelShare &S) const {
  ProfileKernel K = *this;
  K.Device = S.Device;
  K.ByDevice.reset();
  K.Launches = S.Launches;
  K.TimedLaunches = S.TimedLaunches;
  K.DurationNs = S.DurationNs;
  K.Dynamic = S.Dynamic;
  K.Counters = S.Counters;
  K.FromModel = S.FromModel;
  return K;
}

std::set<std::string> Profile::deviceNames() const {
  std::set<std::string> Out;
  for (const ProfileDevice &D : Devices)
    if (D.Name)
      Out.insert(*D.Name);
  return Out;
}

std::string Profile::deviceName(int64_t Ordinal) const {
  for (const ProfileDevice &D : Devices)
    if (D.Ordinal && *D.Ordinal == Ordinal && D.Name)
      return *D.Name;
  return "";
}

namespace {

const json *member(const json &Obj, const char *Key) {
  if (!Obj.is_object())
    return nullptr;
  auto It = Obj.find(Key);
  return It == Obj.end() ? nullptr : &*It;
}

/// The string \p Key of \p Obj, or \p Default when absent or not a string.
std::string textOr(const json &Obj, const char *Key, const std::string &Default = "") {
  const json *V = member(Obj, Key);
  return V && V->is_string() ? V->get<std::string>() : Default;
}

std::optional<int64_t> integer(const json &Obj, const char *Key) {
  const json *V = member(Obj, Key);
  if (V && V->is_number_integer())
    return V->get<int64_t>();
  return std::nullopt;
}

/// Reads one profile; the members follow the order of its sections.
class Reader {
public:
  Reader(const std::string &Path, Profile &P) : Path(Path), F(Path), P(P) {}

  void read(const json &J);

private:
  void header(const json &J);
  void launches(const json &Ls);
  ProfileKernel kernel(const json &A, const std::string &Where);
  void source(SourceCounts &S, const json &Obj, const std::string &Where);
  void staticSums(ProfileKernel &K, const json &S, const std::string &Where);
  void staticWarp(ProfileKernel &K, const json &S, const std::string &Where);
  std::optional<int64_t> device(const json &Obj, const std::string &Where);
  void byDevice(ProfileKernel &K, const json &A, const std::string &Where);
  std::vector<ProfileKernel> kernels(const json &Ks, const std::string &Where);
  TransferSum transferSum(const json &T, const std::string &Where, const char *DefaultKind);
  void ranges(const json &Rs);
  void transfers(const json &T);
  void timing(const json &T);

  const std::string &Path;
  ProfileFields F;
  Profile &P;
};

void Reader::read(const json &J) {
  header(J);
  if (const json *Ls = member(J, pk::Launches); Ls && Ls->is_array())
    launches(*Ls);
  P.Kernels = kernels(J[pk::Kernels], "/" + std::string(pk::Kernels));
  if (const json *Rs = member(J, pk::Ranges); Rs && Rs->is_array())
    ranges(*Rs);
  if (const json *T = member(J, pk::Transfers); T && T->is_object())
    transfers(*T);
  if (const json *T = member(J, pk::Timing); T && T->is_object())
    timing(*T);
}

/// The version, the process, its settings, devices and notes.
void Reader::header(const json &J) {
  // The rank first: `--rank R` leaves out the inputs of other ranks, even
  // those that are not profiles.
  if (const json *R = member(J, pk::Rank); R && !R->is_null())
    P.Rank = R->is_string() ? R->get<std::string>() : R->dump();
  if (!J.is_object() || !J.contains(pk::Version)) {
    std::string What = "not an hroof profile (no \"" + std::string(pk::Version) + "\" field)";
    // A machine file (docs/ert.md) given where a profile belongs.
    if (J.is_object() && J.contains("schema") && J["schema"].is_string())
      What += "; it is a '" + J["schema"].get<std::string>() +
              "' file (give machine files with --machine)";
    throw UserError("'" + Path + "': " + What);
  }
  const json &V = J[pk::Version];
  if (!V.is_number_integer() || V.get<int>() != pk::FormatVersion)
    throw UserError("'" + Path + "': unsupported profile version " + V.dump() +
                    " (this hroof reads version " + std::to_string(pk::FormatVersion) + ")");
  if (const json *Pid = member(J, pk::Pid))
    P.Pid = Pid->dump();
  P.Host = textOr(J, pk::Host);
  const json *Kernels = member(J, pk::Kernels);
  if (!Kernels || !Kernels->is_array())
    throw UserError("'" + Path + "': malformed profile: no \"" + std::string(pk::Kernels) +
                    "\" array");
  if (J.contains(pk::Pid) && J.contains(pk::StartTime))
    P.Id = F.text(J, "", pk::Host) + "/" + J.at(pk::Pid).dump() + "/" + J.at(pk::StartTime).dump() +
           "/" + F.text(J, "", pk::Command);
  if (const json *S = member(J, pk::Settings)) {
    P.Replay = textOr(*S, pk::Replay);
    P.Range = textOr(*S, pk::Range);
    P.LaunchLimit = integer(*S, pk::LaunchLimit).value_or(0);
  }
  if (const json *C = member(J, pk::Complete); C && C->is_boolean())
    P.Complete = C->get<bool>();
  if (const json *Ds = member(J, pk::Devices); Ds && Ds->is_array())
    for (const json &D : *Ds) {
      ProfileDevice Dv;
      Dv.Ordinal = integer(D, pk::Ordinal);
      if (const json *N = member(D, pk::Name); N && N->is_string())
        Dv.Name = N->get<std::string>();
      P.Devices.push_back(std::move(Dv));
    }
  if (const json *Ns = member(J, pk::Notes); Ns && Ns->is_array())
    for (const json &N : *Ns)
      if (N.is_string())
        P.Notes.push_back(N.get<std::string>());
}

CounterPeak counterPeak(const json &Pk) {
  CounterPeak C;
  auto Numbers = [&](const char *Key, std::map<std::string, double> &Out) {
    if (const json *O = member(Pk, Key); O && O->is_object())
      for (auto It = O->begin(); It != O->end(); ++It)
        if (It->is_number())
          Out[It.key()] = It->get<double>();
  };
  Numbers(pk::FlopsPerS, C.FlopsPerS);
  Numbers(pk::TensorFlopsPerS, C.TensorFlopsPerS);
  for (const auto &[Key, Level] :
       {std::pair{pk::L1BytesPerS, "l1"}, {pk::L2BytesPerS, "l2"}, {pk::DramBytesPerS, "hbm"}})
    if (const json *V = member(Pk, Key); V && V->is_number())
      C.BytesPerS[Level] = V->get<double>();
  return C;
}

void Reader::launches(const json &Ls) {
  for (size_t I = 0; I < Ls.size(); ++I) {
    const json &L = Ls[I];
    if (!L.is_object())
      continue;
    std::string Where = "/" + std::string(pk::Launches) + "/" + std::to_string(I);
    ProfileLaunch R;
    R.Instrumented = F.flag(L, Where, pk::Instrumented);
    R.Kernel = textOr(L, pk::Kernel);
    R.Device = integer(L, pk::Device).value_or(-1);
    if (const json *S = member(L, pk::StartNs); S && S->is_number())
      R.StartNs = S->get<double>();
    if (const json *D = member(L, pk::DurationNs); D && D->is_number())
      R.DurationNs = D->get<double>();
    if (const json *C = member(L, pk::Collective); C && C->is_object()) {
      R.Collective.emplace();
      R.Collective->Call = textOr(*C, pk::Call);
      R.Collective->Comm = textOr(*C, pk::Comm);
      if (const json *B = member(*C, pk::Bytes); B && B->is_number())
        R.Collective->Bytes = B->get<double>();
    }
    const json *Ctr = member(L, pk::Counters);
    R.CounterWarps = R.Instrumented && Ctr && !Ctr->is_null() &&
                     !L.contains(pk::CountersIncomplete) && L.contains(pk::Grid) &&
                     L.contains(pk::Block) && L.contains(pk::Kernel) && L[pk::Kernel].is_string();
    R.Mangled = R.CounterWarps ? F.text(L, Where, pk::Mangled) : textOr(L, pk::Mangled);
    if (R.CounterWarps) {
      double Blocks = 1, Threads = 1;
      for (const json &G : L[pk::Grid])
        Blocks *= G.is_number() ? G.get<double>() : 1;
      for (const json &B : L[pk::Block])
        Threads *= B.is_number() ? B.get<double>() : 1;
      R.Warps = Blocks * std::ceil(Threads / 32);
    }
    R.ReplayGroups = L.contains(pk::ReplayGroups) ||
                     (Ctr && Ctr->is_object() && Ctr->contains(pk::ReplayGroups));
    if (Ctr && Ctr->is_object())
      if (const json *Pk = member(*Ctr, pk::Peak); Pk && Pk->is_object())
        R.Peak = counterPeak(*Pk);
    P.Launches.push_back(std::move(R));
  }
}

void Reader::source(SourceCounts &S, const json &Obj, const std::string &Where) {
  if (!Obj.is_object())
    return;
  uint64_t N = F.count(Obj, Where, pk::Launches);
  if (!N)
    return;
  S.Launches = N;
  if (Obj.contains(pk::Total))
    flatten(Obj[pk::Total], "", S.Counts);
  if (Obj.contains(pk::EstimatedLaunches))
    S.Estimated = F.count(Obj, Where, pk::EstimatedLaunches);
}

/// Dotted keys of the nulls in \p J (counters without an upper bound).
void nullKeys(const json &J, const std::string &Prefix, std::set<std::string> &Out) {
  for (auto It = J.begin(); J.is_object() && It != J.end(); ++It) {
    std::string Key = Prefix.empty() ? It.key() : Prefix + "." + It.key();
    if (It->is_null())
      Out.insert(Key);
    else if (It->is_object())
      nullKeys(*It, Key, Out);
  }
}

void Reader::staticSums(ProfileKernel &K, const json &S, const std::string &Where) {
  source(K.Static, S, Where);
  K.StaticExact = F.flag(S, Where, pk::Exact, true);
  if (const json *B = member(S, pk::Bounds); B && B->is_object()) {
    K.StaticHasBounds = true;
    flatten(B->value(pk::Lo, json::object()), "", K.StaticLo);
    flatten(B->value(pk::Hi, json::object()), "", K.StaticHi);
    nullKeys(B->value(pk::Hi, json::object()), "", K.StaticNoHi);
  }
  K.StaticMatches = F.count(S, Where, pk::MatchesDynamic);
  K.StaticDiffers = F.count(S, Where, pk::DiffersFromDynamic);
  // "unknown": why the model is not exact (profiles of older runtimes).
  for (const char *Field : {pk::Problems, "unknown"})
    if (const json *L = member(S, Field); L && L->is_array())
      for (const json &Pr : *L)
        if (Pr.is_string()) {
          auto &List = std::string(Field) == pk::Problems ? K.StaticProblems : K.StaticUnknown;
          if (std::find(List.begin(), List.end(), Pr.get<std::string>()) == List.end())
            List.push_back(Pr.get<std::string>());
        }
}

void Reader::staticWarp(ProfileKernel &K, const json &S, const std::string &Where) {
  uint64_t N = F.count(S, Where, pk::Launches);
  if (!N)
    return;
  K.StaticWarp.Launches = N;
  K.StaticWarpExact = F.flag(S, Where, pk::Exact, true);
  if (S.contains(pk::Lo))
    flatten(S[pk::Lo], "", K.StaticWarp.Counts);
  if (S.contains(pk::Hi))
    flatten(S[pk::Hi], "", K.StaticWarpHi);
}

/// A kernel aggregate's (or by_device entry's) "device": absent, or an
/// integer ordinal (-1 unknown); anything else is a malformed profile.
std::optional<int64_t> Reader::device(const json &Obj, const std::string &Where) {
  const json *D = member(Obj, pk::Device);
  if (!D)
    return std::nullopt;
  if (!D->is_number_integer())
    F.fail(Where + "/" + pk::Device, "is not an integer device ordinal");
  return D->get<int64_t>();
}

void Reader::byDevice(ProfileKernel &K, const json &A, const std::string &Where) {
  const json *BD = member(A, pk::ByDevice);
  if (!BD) {
    K.Device = device(A, Where);
    return;
  }
  std::string At = Where + "/" + pk::ByDevice;
  if (!BD->is_array())
    F.fail(At, "is not an array");
  K.ByDevice.emplace();
  for (size_t I = 0; I < BD->size(); ++I) {
    const json &E = (*BD)[I];
    std::string W = At + "/" + std::to_string(I);
    KernelShare S;
    S.Device = device(E, W);
    if (!E.is_object()) { // a device of the process, with no launches
      S.Object = false;
      K.ByDevice->push_back(std::move(S));
      continue;
    }
    S.Launches = F.count(E, W, pk::Launches);
    if (const json *D = member(E, pk::DurationNs); D && D->is_object()) {
      S.TimedLaunches = F.count(*D, W + "/" + pk::DurationNs, pk::TimedLaunches);
      S.DurationNs = F.number(*D, W + "/" + pk::DurationNs, pk::Total);
    }
    if (const json *D = member(E, pk::Dynamic)) {
      source(S.Dynamic, *D, W + "/" + pk::Dynamic);
      if (D->is_object() && D->contains(pk::FromModel))
        S.FromModel = F.count(*D, W + "/" + pk::Dynamic, pk::FromModel);
    }
    if (const json *C = member(E, pk::Counters))
      source(S.Counters, *C, W + "/" + pk::Counters);
    K.ByDevice->push_back(std::move(S));
  }
}

ProfileKernel Reader::kernel(const json &A, const std::string &Where) {
  if (!A.is_object() || !A.contains(pk::Kernel) || !A[pk::Kernel].is_string())
    throw UserError("'" + Path + "': malformed profile: a kernels[] entry has no \"" +
                    std::string(pk::Kernel) + "\" name");
  ProfileKernel K;
  K.Name = A[pk::Kernel].get<std::string>();
  K.Mangled = F.text(A, Where, pk::Mangled);
  K.Launches = F.count(A, Where, pk::Launches);
  if (A.contains(pk::RecordedLaunches))
    K.RecordedLaunches = F.count(A, Where, pk::RecordedLaunches);
  K.Instrumented = F.flag(A, Where, pk::Instrumented);
  if (const json *D = member(A, pk::DurationNs); D && D->is_object()) {
    K.TimedLaunches = F.count(*D, Where + "/" + pk::DurationNs, pk::TimedLaunches);
    K.DurationNs = F.number(*D, Where + "/" + pk::DurationNs, pk::Total);
  }
  if (const json *D = member(A, pk::Dynamic)) {
    source(K.Dynamic, *D, Where + "/" + pk::Dynamic);
    if (D->is_object() && D->contains(pk::FromModel))
      K.FromModel = F.count(*D, Where + "/" + pk::Dynamic, pk::FromModel);
  }
  if (const json *C = member(A, pk::Counters))
    source(K.Counters, *C, Where + "/" + pk::Counters);
  if (const json *S = member(A, pk::Static); S && S->is_object())
    staticSums(K, *S, Where + "/" + pk::Static);
  if (const json *S = member(A, pk::StaticWarp); S && S->is_object())
    staticWarp(K, *S, Where + "/" + pk::StaticWarp);
  byDevice(K, A, Where);
  return K;
}

std::vector<ProfileKernel> Reader::kernels(const json &Ks, const std::string &Where) {
  std::vector<ProfileKernel> Out;
  if (!Ks.is_array())
    return Out;
  for (size_t I = 0; I < Ks.size(); ++I)
    Out.push_back(kernel(Ks[I], Where + "/" + std::to_string(I)));
  return Out;
}

TransferSum Reader::transferSum(const json &T, const std::string &Where, const char *DefaultKind) {
  TransferSum S;
  S.Kind = F.text(T, Where, pk::Kind, DefaultKind);
  S.Count = F.count(T, Where, pk::Count);
  S.Bytes = F.number(T, Where, pk::Bytes);
  S.DurationNs = F.number(T, Where, pk::DurationNs);
  return S;
}

void Reader::ranges(const json &Rs) {
  P.HasRanges = true;
  for (size_t I = 0; I < Rs.size(); ++I) {
    const json &E = Rs[I];
    if (!E.is_object())
      continue;
    std::string Where = "/" + std::string(pk::Ranges) + "/" + std::to_string(I);
    ProfileRange R;
    R.Path = F.text(E, Where, pk::Range);
    if (const json *Ks = member(E, pk::Kernels))
      R.Kernels = kernels(*Ks, Where + "/" + pk::Kernels);
    if (const json *Ts = member(E, pk::Transfers); Ts && Ts->is_array())
      for (size_t T = 0; T < Ts->size(); ++T)
        R.Transfers.push_back(
            transferSum((*Ts)[T], Where + "/" + pk::Transfers + "/" + std::to_string(T), ""));
    P.Ranges.push_back(std::move(R));
  }
}

void Reader::transfers(const json &T) {
  P.HasTransfers = true;
  std::string Where = "/" + std::string(pk::Transfers);
  if (const json *Ks = member(T, pk::ByKind); Ks && Ks->is_array())
    for (size_t I = 0; I < Ks->size(); ++I)
      P.TransferKinds.push_back(
          transferSum((*Ks)[I], Where + "/" + pk::ByKind + "/" + std::to_string(I), "?"));
  if (const json *Rs = member(T, pk::Records); Rs && Rs->is_array())
    for (size_t I = 0; I < Rs->size(); ++I) {
      const json &R = (*Rs)[I];
      if (!R.is_object())
        continue;
      std::string W = Where + "/" + pk::Records + "/" + std::to_string(I);
      TransferRecordData X;
      X.Kind = F.text(R, W, pk::Kind);
      X.Bytes = F.number(R, W, pk::Bytes);
      X.DurationNs = F.number(R, W, pk::DurationNs);
      X.Device = integer(R, pk::Device).value_or(-1);
      P.TransferRecords.push_back(std::move(X));
    }
}

void Reader::timing(const json &T) {
  P.HasTiming = true;
  P.TimingFilter = textOr(T, pk::RangeFilter);
  const json *Es = member(T, pk::Entries);
  if (!Es || !Es->is_array())
    return;
  for (const json &E : *Es) {
    const json *Range = member(E, pk::Range), *Kernel = member(E, pk::Kernel);
    if (!Range || !Range->is_string() || !Kernel || !Kernel->is_string())
      continue;
    TimingEntry X;
    X.Range = Range->get<std::string>();
    X.Kernel = Kernel->get<std::string>();
    X.Device = E.value(pk::Device, int64_t(-1));
    X.Launches = E.value(pk::Launches, uint64_t(0));
    X.Replayed = E.value(pk::Replayed, uint64_t(0));
    X.FirstStartNs = E.value(pk::FirstStartNs, uint64_t(0));
    X.TotalNs = E.value(pk::TotalNs, 0.0);
    P.Timing.push_back(std::move(X));
  }
}

} // namespace

void readProfileData(const std::string &Path, const json &J, Profile &Out) {
  Out.Path = Path;
  try {
    Reader(Path, Out).read(J);
  } catch (const json::exception &E) {
    throw UserError("'" + Path + "': malformed profile: " + E.what());
  }
}

Profile readProfileData(const std::string &Path, const json &J) {
  Profile P;
  readProfileData(Path, J, P);
  return P;
}

Profile readProfileText(const std::string &Path, const std::string &Text) {
  ProfileInput In = readProfileInput(Path, Text);
  Profile P = readProfileData(Path, In.J);
  P.Torn = In.Torn;
  P.Recovered = In.Recovered;
  return P;
}

std::vector<InputFile> readInputFiles(const std::vector<std::string> &Paths) {
  std::vector<InputFile> Out;
  for (const std::string &Path : Paths) {
    Out.emplace_back();
    InputFile &In = Out.back();
    In.Path = Path;
    std::string Text;
    try {
      Text = readFile(Path);
    } catch (const UserError &E) {
      In.FileError = E.what();
      continue;
    }
    size_t NonSpace = Text.find_first_not_of(" \t\r\n");
    if (NonSpace == std::string::npos) {
      In.Fatal = "'" + Path + "' is empty";
      continue;
    }
    if (looksLikeNcuCsv(Text)) {
      In.Ncu = true;
      In.NcuText = std::move(Text);
      continue;
    }
    if (Text[NonSpace] != '{' && Text[NonSpace] != '[') {
      In.Fatal = "'" + Path +
                 "' is neither an hroof profile (JSON) nor an Nsight Compute raw CSV export "
                 "(ncu --csv --page raw)";
      continue;
    }
    ProfileInput PI;
    try {
      PI = readProfileInput(Path, Text);
      if (PI.Torn && !PI.Recovered)
        (void)parseProfileJson(Path, Text); // nothing recovered: the reader's error
    } catch (const UserError &E) {
      In.Unreadable = E.what();
      if (!PI.Torn)
        continue;
    }
    Profile P;
    try {
      readProfileData(Path, PI.J, P);
    } catch (const UserError &E) {
      In.Fatal = E.what();
      In.Rank = P.Rank;
      continue;
    }
    P.Torn = PI.Torn;
    P.Recovered = PI.Recovered;
    In.Rank = P.Rank;
    In.P = std::move(P);
  }
  return Out;
}

} // namespace report
} // namespace hroof
