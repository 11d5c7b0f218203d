//===- StaticModel.cpp - read and evaluate the pass's static model --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hroof/StaticModel.h"
#include "hroof/StaticModelKeys.h"
#include "hroof/WarpModel.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace hroof {

std::string counterName(int I) {
  char Buf[64];
  counterKeyString(I, Buf, sizeof Buf);
  return Buf;
}

template <typename V> static nlohmann::json nestedCounts(const V &T, int N) {
  nlohmann::json J = nlohmann::json::object();
  for (int I = 0; I < N; ++I) {
    CounterKey K = counterKey(I);
    nlohmann::json *Node = &J;
    int Depth = K.Parts[2] ? 3 : 2;
    for (int P = 0; P < Depth - 1; ++P)
      Node = &(*Node)[K.Parts[P]];
    u128 Value = u128(T[I]);
    (*Node)[K.Parts[Depth - 1]] =
        Value <= u128(UINT64_MAX) ? nlohmann::json(uint64_t(Value)) : nlohmann::json(double(Value));
  }
  return J;
}

nlohmann::json countsToJson(const CountVector &C, int N) { return nestedCounts(C, N); }
nlohmann::json countsToJson(const TotalVector &T, int N) { return nestedCounts(T, N); }

int counterIndex(const std::string &Key) {
  for (int I = 0; I < NumCounters; ++I)
    if (counterName(I) == Key)
      return I;
  return -1;
}

static std::string need(const nlohmann::json &J, const char *Field, const std::string &Where) {
  if (!J.contains(Field) || !J[Field].is_string())
    throw std::runtime_error(Where + ": missing string field '" + Field + "'");
  return J[Field].get<std::string>();
}

WarpAccess parseWarpAccess(const nlohmann::json &J) {
  auto Fail = [&](const std::string &Why) {
    throw std::runtime_error("access " + J.value(model_keys::Where, std::string("?")) + ": " + Why);
  };
  if (!J.is_object())
    throw std::runtime_error("access is not an object");
  WarpAccess A;
  A.Where = J.value(model_keys::Where, "");
  A.Guarded = J.value(model_keys::Guarded, "");
  A.AsyncCopy = J.value(model_keys::AsyncCopy, false);
  A.Unbounded = J.value(model_keys::Unbounded, "");
  std::string Space = J.value(model_keys::Space, ""), Dir = J.value(model_keys::Dir, "");
  auto S = std::find(std::begin(MemSpaceNames), std::end(MemSpaceNames), Space);
  auto D = std::find(std::begin(MemDirNames), std::end(MemDirNames), Dir);
  if (S == std::end(MemSpaceNames) || D == std::end(MemDirNames))
    Fail("bad 'space' or 'dir'");
  A.Space = MemSpace(S - std::begin(MemSpaceNames));
  A.Dir = MemDir(D - std::begin(MemDirNames));
  if (!J.contains(model_keys::Width) || !J[model_keys::Width].is_number_integer() || J[model_keys::Width].get<int64_t>() <= 0)
    Fail("'width' must be a positive integer");
  A.Width = J[model_keys::Width].get<uint64_t>();
  if (A.Width > 256)
    Fail("'width' above 256 bytes");
  for (const auto &P : J.value(model_keys::Multiplicity, nlohmann::json::array())) {
    std::vector<ExprPtr> Factors;
    for (const auto &F : P)
      Factors.push_back(Expr::parse(F));
    A.Alternatives.push_back(std::move(Factors));
  }
  if (J.contains(model_keys::Unmodelled)) {
    A.Unmodelled = J[model_keys::Unmodelled].is_string() ? J[model_keys::Unmodelled].get<std::string>() : "?";
    return A;
  }
  const auto &B = J.value(model_keys::Base, nlohmann::json::object());
  if (B.contains(model_keys::BaseParam) && B[model_keys::BaseParam].is_number_integer() && B[model_keys::BaseParam].get<int64_t>() >= 0)
    A.BaseParam = B[model_keys::BaseParam].get<int>();
  else if (B.contains(model_keys::BaseObject) && B[model_keys::BaseObject].is_string()) {
    A.BaseObject = B[model_keys::BaseObject].get<std::string>();
    A.BaseAlign = B.value(model_keys::BaseAlign, uint64_t(1));
  } else
    Fail("'base' names neither a parameter nor an object");
  if (!J.contains(model_keys::Offset))
    Fail("no 'offset'");
  std::vector<int64_t> Enumerated; // iteration indices the offset may read
  const auto &Loops = J.value(model_keys::Loops, nlohmann::json::array());
  for (const auto &Lp : Loops) {
    if (!Lp.contains(model_keys::LoopStep) || !Lp.contains(model_keys::LoopTrips))
      Fail("a loop without 'step' or 'trips'");
    WarpLoop L{Expr::parse(Lp[model_keys::LoopStep]), Expr::parse(Lp[model_keys::LoopTrips])};
    if (Lp.contains(model_keys::LoopIterVar)) {
      const auto &V = Lp[model_keys::LoopIterVar];
      if (!V.is_number_integer() || V.get<int64_t>() < 0 || V.get<int64_t>() >= MaxIterVarId)
        Fail("a loop's 'ivar' must be an iteration index");
      if (Loops.size() != 1)
        Fail("an enumerated loop ('ivar') must be the access's only loop");
      L.IterVar = V.get<int>();
      Enumerated.push_back(L.IterVar);
    }
    if (Lp.contains(model_keys::LoopFirst)) {
      if (!A.Loops.empty())
        Fail("only the innermost loop may have a 'first' iteration");
      L.First = Expr::parse(Lp[model_keys::LoopFirst]);
    }
    A.Loops.push_back(std::move(L));
  }
  A.Offset = Expr::parse(J[model_keys::Offset], Enumerated);
  A.Assumes = J.value(model_keys::Assumes, "");
  return A;
}

StaticModule parseStaticModel(const nlohmann::json &J) {
  if (!J.is_object() || !J.contains(model_keys::Version))
    throw std::runtime_error("not an hroof static model (no 'hroof_static_model' field)");
  if (J[model_keys::Version] != 1)
    throw std::runtime_error("unsupported static model version " + J[model_keys::Version].dump());
  StaticModule M;
  M.Source = J.value(model_keys::Source, "");
  M.Arch = J.value(model_keys::Arch, "");
  if (!J.contains(model_keys::Kernels) || !J[model_keys::Kernels].is_array())
    throw std::runtime_error("static model: missing 'kernels' array");
  for (const auto &KJ : J[model_keys::Kernels]) {
    KernelModel K;
    K.Mangled = need(KJ, model_keys::Mangled, "kernel");
    K.Name = KJ.value(model_keys::Name, K.Mangled);
    std::string Where = "kernel " + K.Name;
    K.Exact = KJ.value(model_keys::Exact, false);
    // Only an exact model can stand for the counts.
    K.CountedByModel = K.Exact && KJ.value(model_keys::CountedByModel, false);
    K.WarpCountedByModel = K.CountedByModel && KJ.value(model_keys::WarpCountedByModel, false);
    for (const auto &U : KJ.value(model_keys::Unknown, nlohmann::json::array()))
      K.Unknown.push_back(U.get<std::string>());
    for (const auto &U : KJ.value(model_keys::NoUpperBound, nlohmann::json::array()))
      K.NoUpperBound.push_back(U.get<std::string>());
    for (const auto &F : KJ.value(model_keys::Functions, nlohmann::json::array()))
      K.Functions.push_back(F.get<std::string>());
    for (const auto &PJ : KJ.value(model_keys::Params, nlohmann::json::array())) {
      ModelParam P;
      P.Name = need(PJ, model_keys::Name, Where + " param");
      P.Type = need(PJ, model_keys::Type, Where + " param");
      P.IsInteger = P.Type.size() > 1 && P.Type[0] == 'i' &&
                    std::all_of(P.Type.begin() + 1, P.Type.end(), ::isdigit);
      if (P.IsInteger)
        P.Bits = unsigned(std::min(std::stoul(P.Type.substr(1)), 64ul));
      K.Params.push_back(P);
    }
    for (const auto &TJ : KJ.value(model_keys::Terms, nlohmann::json::array())) {
      ModelTerm T;
      T.Where = TJ.value(model_keys::Where, "");
      T.Guarded = TJ.value(model_keys::Guarded, false);
      T.Unbounded = TJ.value(model_keys::Unbounded, false);
      if (!TJ.contains(model_keys::Counts) || !TJ[model_keys::Counts].is_object())
        throw std::runtime_error(Where + ": term without 'counts'");
      for (auto It = TJ[model_keys::Counts].begin(); It != TJ[model_keys::Counts].end(); ++It) {
        int I = counterIndex(It.key());
        if (I < 0)
          throw std::runtime_error(Where + ": unknown counter '" + It.key() + "'");
        if (!It.value().is_number_unsigned() && !It.value().is_number_integer())
          throw std::runtime_error(Where + ": counter '" + It.key() + "' is not an integer");
        T.Counts[I] = It.value().get<uint64_t>();
      }
      try {
        for (const auto &FJ : TJ.value(model_keys::Factors, nlohmann::json::array()))
          T.Factors.push_back(Expr::parse(FJ));
      } catch (const ExprError &E) {
        throw std::runtime_error(Where + ": " + E.what());
      }
      K.Terms.push_back(std::move(T));
    }
    try {
      for (const auto &AJ : KJ.value(model_keys::Accesses, nlohmann::json::array()))
        K.Accesses.push_back(parseWarpAccess(AJ));
    } catch (const std::exception &E) {
      throw std::runtime_error(Where + ": " + E.what());
    }
    for (const auto &U : KJ.value(model_keys::WarpUnknown, nlohmann::json::array()))
      K.WarpUnknown.push_back(U.get<std::string>());
    K.Fields = modelFields(K);
    M.Kernels.push_back(std::move(K));
  }
  return M;
}

void forEachAccessExpr(const WarpAccess &A, const std::function<void(const ExprPtr &)> &F) {
  F(A.Offset);
  for (const WarpLoop &L : A.Loops) {
    F(L.Step);
    F(L.Trips);
  }
  for (const auto &P : A.Alternatives)
    for (const ExprPtr &E : P)
      F(E);
}

namespace {

/// What \p Collect gathers from \p K's term factors (and, with
/// \p Accesses, its warp-level accesses' expressions), sorted, each once.
template <class T>
std::vector<T> collectSorted(const KernelModel &K, bool Accesses,
                             void (Expr::*Collect)(std::vector<T> &) const) {
  std::vector<T> Out;
  auto Add = [&](const ExprPtr &E) {
    if (E)
      ((*E).*Collect)(Out);
  };
  for (const ModelTerm &T0 : K.Terms)
    for (const ExprPtr &F : T0.Factors)
      Add(F);
  if (Accesses)
    for (const WarpAccess &A : K.Accesses)
      forEachAccessExpr(A, Add);
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

} // namespace

std::vector<FieldRef> modelFields(const KernelModel &K) {
  return collectSorted(K, true, &Expr::collectFields);
}

int findParam(const KernelModel &K, const std::string &Name) {
  for (size_t I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].Name == Name)
      return int(I);
  if (Name.size() > 3 && Name.compare(0, 3, "arg") == 0 &&
      std::all_of(Name.begin() + 3, Name.end(), ::isdigit)) {
    size_t I = std::stoul(Name.substr(3));
    if (I < K.Params.size())
      return int(I);
  }
  return -1;
}

std::vector<FieldRef> neededFields(const KernelModel &K) {
  return collectSorted(K, false, &Expr::collectFields);
}

std::vector<FieldRef> findFields(const KernelModel &K, const std::string &Name) {
  auto Plus = Name.rfind('+');
  if (Plus == std::string::npos || Plus + 1 == Name.size() || Name.size() - Plus > 10 ||
      !std::all_of(Name.begin() + Plus + 1, Name.end(), ::isdigit))
    return {};
  int Arg = findParam(K, Name.substr(0, Plus));
  int64_t Off = std::stoll(Name.substr(Plus + 1));
  std::vector<FieldRef> Out;
  for (const FieldRef &F : K.Fields)
    if (F.Arg == Arg && F.Off == Off)
      Out.push_back(F);
  return Out;
}

std::vector<int> neededArgs(const KernelModel &K) {
  return collectSorted(K, false, &Expr::collectArgs);
}

namespace {
/// The totals of the terms \p Take selects.
template <typename Pred>
TotalVector sumTerms(const KernelModel &K, const LaunchShape &L, const EvalEnv &Args,
                     const ThreadSumOptions &Opts, Pred Take) {
  EvalEnv Env = Args;
  Env.ArgNames.clear();
  for (const ModelParam &P : K.Params)
    Env.ArgNames.push_back(P.Name);
  // Terms with the same multiplicity are summed once.
  std::map<std::string, std::pair<const std::vector<ExprPtr> *, CountVector>> Groups;
  for (const ModelTerm &T : K.Terms) {
    if (!Take(T))
      continue;
    nlohmann::json Key = nlohmann::json::array();
    for (const ExprPtr &F : T.Factors)
      Key.push_back(F->toJson());
    auto &G = Groups[Key.dump()];
    if (!G.first)
      G = {&T.Factors, CountVector{}};
    for (int I = 0; I < NumCounters; ++I)
      G.second[I] += T.Counts[I];
  }
  TotalVector Total{};
  for (auto &[Key, G] : Groups) {
    bool Any = std::any_of(G.second.begin(), G.second.end(), [](uint64_t C) { return C != 0; });
    if (!Any)
      continue;
    u128 Mult = sumOverThreads(*G.first, L, Env, Opts);
    for (int I = 0; I < NumCounters; ++I)
      Total[I] += Mult * u128(G.second[I]);
  }
  return Total;
}
} // namespace

TotalVector evaluateKernel(const KernelModel &K, const LaunchShape &L, const EvalEnv &Args,
                           const ThreadSumOptions &Opts) {
  return sumTerms(K, L, Args, Opts, [](const ModelTerm &) { return true; });
}

nlohmann::json totalBoundsToJson(const TotalBounds &B) {
  nlohmann::json Hi = countsToJson(B.Hi, NumThreadCounters);
  for (int I = 0; I < NumThreadCounters; ++I)
    if (!B.HasHi[I]) { // "flops.f32" -> /flops/f32
      std::string Ptr = "/" + counterName(I);
      std::replace(Ptr.begin(), Ptr.end(), '.', '/');
      Hi[nlohmann::json::json_pointer(Ptr)] = nullptr;
    }
  nlohmann::json J = {{"lo", countsToJson(B.Lo, NumThreadCounters)}, {"hi", Hi}};
  if (!B.allBounded())
    J["no_upper_bound"] = B.NoHiBecause;
  return J;
}

bool TotalBounds::allBounded() const {
  return std::all_of(HasHi.begin(), HasHi.end(), [](bool B) { return B; });
}

namespace {
u128 flopsOf(const TotalVector &T) {
  u128 S = 0;
  for (int I = FlopsBase; I < SpecialBase; ++I)
    S += T[I];
  return S;
}
u128 globalBytesOf(const TotalVector &T) {
  u128 S = 0;
  for (int D = 0; D < NumMemDirs; ++D)
    S += T[bytesIndex(MemSpace::Global, MemDir(D))];
  return S;
}
nlohmann::json number(u128 V) {
  return V <= u128(UINT64_MAX) ? nlohmann::json(uint64_t(V)) : nlohmann::json(double(V));
}
} // namespace

nlohmann::json launchTotalsToJson(const TotalVector &Total, const TotalBounds *Bounds) {
  if (!Bounds) {
    u128 F = flopsOf(Total), B = globalBytesOf(Total);
    return {{"total", countsToJson(Total, NumThreadCounters)},
            {"flops_total", number(F)},
            {"ai", {{"global", B ? nlohmann::json(double(F) / double(B)) : nlohmann::json()}}}};
  }
  bool FlopsHi = true, BytesHi = true;
  for (int I = FlopsBase; I < SpecialBase; ++I)
    FlopsHi &= Bounds->HasHi[I];
  for (int D = 0; D < NumMemDirs; ++D)
    BytesHi &= Bounds->HasHi[bytesIndex(MemSpace::Global, MemDir(D))];
  u128 FLo = flopsOf(Bounds->Lo), FHi = flopsOf(Bounds->Hi);
  u128 BLo = globalBytesOf(Bounds->Lo), BHi = globalBytesOf(Bounds->Hi);
  nlohmann::json Flops = {{"lo", number(FLo)}, {"hi", FlopsHi ? number(FHi) : nlohmann::json()}};
  // AI = F / B over the box of bounds: least at (FLo, BHi), most at (FHi,
  // BLo); no global bytes at all (BHi = 0) has no AI, as an exact count.
  nlohmann::json Ai;
  if (!BytesHi || BHi > 0)
    Ai = {{"lo", BytesHi ? nlohmann::json(double(FLo) / double(BHi)) : nlohmann::json(0.0)},
          {"hi", FlopsHi && BLo ? nlohmann::json(double(FHi) / double(BLo)) : nlohmann::json()}};
  return {{"total", totalBoundsToJson(*Bounds)["hi"]},
          {"flops_total", Flops},
          {"ai", {{"global", Ai}}}};
}

TotalBounds evaluateKernelBounds(const KernelModel &K, const LaunchShape &L, const EvalEnv &Args,
                                 const ThreadSumOptions &Opts) {
  TotalBounds B;
  B.Lo = sumTerms(K, L, Args, Opts, [](const ModelTerm &T) { return !T.Guarded && !T.Unbounded; });
  B.Hi = evaluateKernel(K, L, Args, Opts);
  B.HasHi.fill(K.NoUpperBound.empty());
  if (!K.NoUpperBound.empty())
    B.NoHiBecause = K.NoUpperBound.front();
  for (const ModelTerm &T : K.Terms)
    for (int I = 0; I < NumCounters; ++I)
      if (T.Unbounded && T.Counts[I] && B.HasHi[I]) {
        B.HasHi[I] = false;
        if (B.NoHiBecause.empty())
          B.NoHiBecause = "a loop at " + T.Where + " has no trip count hroof can express";
      }
  return B;
}

} // namespace hroof
