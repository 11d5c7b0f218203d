//===- HwMetrics.cpp - hardware-counter metric lists and profile keys -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "metrics/HwMetrics.h"

#include "hroof/CounterMetrics.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace hroof {
namespace rt {

namespace {

std::string sassFlop(const char *Op) { return metrics::sassInstMetric(Op); }

std::string tensorMetric(const char *Suffix) { return metrics::tensorMetric(Suffix); }

/// The tensor pipes whose instructions produce every metrics::tensorRules() type:
/// hmma (f16, bf16, tf32; also HFMA2.MMA, CUDA-core half math with no type),
/// gmma (wgmma: f16, bf16, tf32, int8, fp8), dmma (f64), imma (int8).
const char *const TensorPipes[] = {"hmma", "gmma", "dmma", "imma"};

std::string lower(const std::string &T) {
  std::string R;
  for (char C : T)
    R += char(C >= 'A' && C <= 'Z' ? C - 'A' + 'a' : C);
  return R;
}

std::string pipeMetric(const char *Pipe) {
  return std::string("sm__inst_executed_pipe_tensor_op_") + Pipe + ".sum";
}

/// "bytes.global.load" -> "bytes/global/load" (a JSON pointer's path).
std::string dottedToPointer(std::string Key) {
  for (char &C : Key)
    if (C == '.')
      C = '/';
  return Key;
}

nlohmann::json num(double V) {
  if (V >= 0 && V < 9.0e15 && V == std::floor(V))
    return uint64_t(V);
  return V;
}

} // namespace

const std::vector<std::string> &rooflineMetrics() {
  static const auto &M = *new std::vector<std::string>([] { // never destroyed: used at exit
    std::vector<std::string> V = {"gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second"};
    for (const metrics::FlopRule &P : metrics::flopRules())
      for (const char *Op : {P.Add, P.Mul, P.Fma})
        V.push_back(sassFlop(Op));
    for (const metrics::TensorRule &T : metrics::tensorRules())
      V.push_back(tensorMetric(T.Suffix));
    for (const char *Pipe : TensorPipes)
      V.push_back(pipeMetric(Pipe));
    for (const char *Space : {"global", "shared", "local"})
      for (const char *Op : {"ld", "st"})
        V.push_back(std::string("sm__sass_data_bytes_mem_") + Space + "_op_" + Op + ".sum");
    V.push_back("sm__sass_data_bytes_mem_global_op_atom.sum");
    V.push_back("sm__sass_data_bytes_mem_global_op_red.sum");
    V.push_back("l1tex__t_bytes.sum");
    V.push_back("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    V.push_back("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    V.push_back("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    V.push_back("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
    V.push_back("lts__t_bytes.sum");
    V.push_back("dram__bytes_read.sum");
    V.push_back("dram__bytes_write.sum");
    // Reference roofs: per-cycle peaks and the clocks they run at.
    for (const metrics::FlopRule &P : metrics::flopRules())
      V.push_back(sassFlop(P.Fma) + ".peak_sustained");
    for (const metrics::TensorRule &T : metrics::tensorRules())
      V.push_back(tensorMetric(T.Suffix) + ".peak_sustained");
    V.push_back("l1tex__t_bytes.sum.peak_sustained");
    V.push_back("l1tex__cycles_elapsed.avg.per_second");
    V.push_back("lts__t_bytes.sum.peak_sustained");
    V.push_back("lts__cycles_elapsed.avg.per_second");
    V.push_back("dram__bytes.sum.peak_sustained");
    V.push_back("dram__cycles_elapsed.avg.per_second");
    return V;
  }());
  return M;
}

const std::vector<std::string> &tensorTypeMetrics() {
  static const auto &M = *new std::vector<std::string>([] { // never destroyed: used at exit
    std::vector<std::string> V;
    for (const metrics::TensorRule &T : metrics::tensorRules())
      V.push_back(tensorMetric(T.Suffix));
    return V;
  }());
  return M;
}

const std::vector<std::string> &tensorPipeMetrics() {
  static const auto &M = *new std::vector<std::string>([] { // never destroyed: used at exit
    std::vector<std::string> V;
    for (const char *Pipe : TensorPipes)
      V.push_back(pipeMetric(Pipe));
    return V;
  }());
  return M;
}

TensorTypes learnTensorTypes(const std::map<std::string, double> &V) {
  TensorTypes L;
  // A type metric not measured counts as used: it stays in the list.
  for (const std::string &M : tensorTypeMetrics())
    if (auto It = V.find(M); It == V.end() || !(It->second == 0))
      L.Types.insert(M);
  for (const std::string &M : tensorPipeMetrics())
    if (auto It = V.find(M); It != V.end() && It->second != 0)
      L.Pipes.insert(M);
  return L;
}

std::vector<std::string> metricsForTypes(const std::vector<std::string> &Metrics,
                                         const TensorTypes &L) {
  const std::vector<std::string> &T = tensorTypeMetrics();
  std::vector<std::string> R;
  for (const std::string &M : Metrics)
    if (std::find(T.begin(), T.end(), M) == T.end() || L.Types.count(M))
      R.push_back(M);
  return R;
}

std::string checkTensorTypes(const TensorTypes &L, const std::map<std::string, double> &V) {
  for (const char *Pipe : TensorPipes) {
    std::string M = pipeMetric(Pipe);
    auto It = V.find(M);
    if (It == V.end())
      return M + " was not collected";
    if (It->second != 0 && !L.Pipes.count(M))
      return std::string("the tensor pipe ") + Pipe +
             " issued instructions in this launch but not in the launch its "
             "tensor types were learned from";
  }
  return "";
}

const std::string &hfma2PipeMetric() {
  static const auto &M = *new std::string("sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum");
  return M;
}

std::vector<std::string> typesIdleByPipes(const std::map<std::string, double> &Values) {
  // Type suffix -> the pipes that can issue it. fp8 keeps imma: sm_89's
  // mma.sync of fp8 was not measured.
  static const std::map<std::string, std::vector<const char *>> Issuers = {
      {"fp16", {"hmma", "gmma"}},          {"bf16_dst_fp32", {"hmma", "gmma"}},
      {"tf32_dst_fp32", {"hmma", "gmma"}}, {"fp64", {"dmma"}},
      {"int8", {"imma", "gmma"}},          {"fp8_sparsity_off", {"hmma", "gmma", "imma"}}};
  // A pipe not measured counts as busy: the types it may issue are not
  // known to be idle (the others still are).
  std::set<std::string> Busy;
  for (const char *Pipe : TensorPipes) {
    auto It = Values.find(pipeMetric(Pipe));
    if (It == Values.end() || !(It->second >= 0)) {
      Busy.insert(Pipe);
      continue;
    }
    double Issued = It->second;
    // HFMA2.MMA runs on the hmma pipe with no tensor type (ptxas moves
    // constants with it, also in a kernel with no tensor code; measured:
    // docs/validation/deep-learning.md, "Types learned by application replay
    // alone: idle tensor pipes").
    auto Hfma2 = Values.find(hfma2PipeMetric());
    if (std::string(Pipe) == "hmma" && Hfma2 != Values.end() && Hfma2->second >= 0)
      Issued -= Hfma2->second;
    if (Issued > 0)
      Busy.insert(Pipe);
  }
  std::vector<std::string> Idle;
  for (const metrics::TensorRule &T : metrics::tensorRules()) {
    auto It = Issuers.find(T.Suffix);
    if (It == Issuers.end())
      continue; // a type without a known pipe is never inferred
    if (std::none_of(It->second.begin(), It->second.end(),
                     [&](const char *P) { return Busy.count(P) != 0; }))
      Idle.push_back(tensorMetric(T.Suffix));
  }
  return Idle;
}

CountersSetting parseCountersSetting(const std::string &Text) {
  CountersSetting S;
  std::string L;
  for (char C : Text)
    if (C != ' ' && C != '\t')
      L += C;
  std::string Lower = lower(L);
  if (Lower.empty() || Lower == "none" || Lower == "off" || Lower == "0")
    return S;
  std::set<std::string> Seen;
  bool Full = false;
  auto Add = [&](const std::string &M) {
    if (Seen.insert(M).second)
      S.Metrics.push_back(M);
  };
  size_t Pos = 0;
  while (Pos <= L.size()) {
    size_t Comma = L.find(',', Pos);
    std::string Tok = L.substr(Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos);
    Pos = Comma == std::string::npos ? L.size() + 1 : Comma + 1;
    if (Tok.empty())
      continue;
    std::string TokLower = lower(Tok);
    if (TokLower == "roofline" || TokLower == "roofline-full") {
      for (const std::string &M : rooflineMetrics())
        Add(M);
      if (TokLower == "roofline-full")
        Full = true;
      continue;
    }
    bool Ok = true;
    for (char C : Tok)
      Ok &= (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') ||
            C == '_' || C == '.';
    if (!Ok) {
      S.Problem =
          "HROOF_COUNTERS: '" + Tok + "' is not a metric name (roofline, none, or METRIC,...)";
      continue;
    }
    Add(Tok);
  }
  S.Enabled = !S.Metrics.empty();
  S.LearnTensorTypes = !Full;
  for (const std::string &M : tensorPipeMetrics())
    S.LearnTensorTypes &= Seen.count(M) != 0;
  return S;
}

nlohmann::json countersToJson(const std::map<std::string, double> &Measured,
                              const std::vector<std::string> &InferredZero) {
  std::map<std::string, double> V = Measured;
  for (const std::string &M : InferredZero)
    V.emplace(M, 0.0);
  nlohmann::json J = nlohmann::json::object();
  auto Has = [&](const std::string &M) { return V.count(M) != 0; };
  auto Get = [&](const std::string &M) { return V.at(M); };
  // FLOPs, tensor FLOPs and bytes: the shared table (hroof/CounterMetrics.h),
  // nested under the profile's keys.
  std::map<std::string, double> Counts =
      metrics::countsFromMetrics([&](const std::string &M) -> std::optional<double> {
        auto It = V.find(M);
        return It == V.end() ? std::nullopt : std::optional<double>(It->second);
      });
  for (const auto &[Key, X] : Counts)
    J[nlohmann::json::json_pointer("/" + dottedToPointer(Key))] = num(X);
  nlohmann::json Inferred = nlohmann::json::array();
  for (const metrics::TensorRule &T : metrics::tensorRules()) {
    std::string M = tensorMetric(T.Suffix);
    if (!Measured.count(M) &&
        std::find(InferredZero.begin(), InferredZero.end(), M) != InferredZero.end())
      Inferred.push_back(T.Key);
  }
  if (!Inferred.empty())
    J["tensor_flops_inferred"] = Inferred;
  const std::string Wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_";
  if (Has(Wf + "ld.sum") && Has(Wf + "st.sum"))
    J["shared_wavefronts"] = {{"load", num(Get(Wf + "ld.sum"))},
                              {"store", num(Get(Wf + "st.sum"))}};
  if (Has("gpu__time_duration.sum"))
    J["time_ns"] = num(Get("gpu__time_duration.sum"));
  double SmHz =
      Has("sm__cycles_elapsed.avg.per_second") ? Get("sm__cycles_elapsed.avg.per_second") : 0;
  if (SmHz > 0)
    J["sm_hz"] = SmHz;
  // Peaks per second: per-cycle peak x the unit's measured clock.
  nlohmann::json Peak = nlohmann::json::object();
  if (SmHz > 0) {
    nlohmann::json PF = nlohmann::json::object();
    // The fma's FLOPs per instruction at the fma's peak issue rate.
    for (const metrics::FlopRule &P : metrics::flopRules()) {
      std::string M = sassFlop(P.Fma) + ".peak_sustained";
      if (Has(M))
        PF[P.Key] = Get(M) * P.FmaWeight * SmHz;
    }
    if (!PF.empty())
      Peak["flops_per_s"] = PF;
    nlohmann::json PT = nlohmann::json::object();
    for (const metrics::TensorRule &T : metrics::tensorRules())
      if (Has(tensorMetric(T.Suffix) + ".peak_sustained"))
        PT[T.Key] = Get(tensorMetric(T.Suffix) + ".peak_sustained") * SmHz;
    if (!PT.empty())
      Peak["tensor_flops_per_s"] = PT;
  }
  for (const auto &[Key, M, Clock] :
       {std::tuple{"l1_bytes_per_s", "l1tex__t_bytes.sum.peak_sustained",
                   "l1tex__cycles_elapsed.avg.per_second"},
        std::tuple{"l2_bytes_per_s", "lts__t_bytes.sum.peak_sustained",
                   "lts__cycles_elapsed.avg.per_second"},
        std::tuple{"dram_bytes_per_s", "dram__bytes.sum.peak_sustained",
                   "dram__cycles_elapsed.avg.per_second"}})
    if (Has(M) && Has(Clock))
      Peak[Key] = Get(M) * Get(Clock);
  if (!Peak.empty())
    J["peak"] = Peak;
  nlohmann::json Raw = nlohmann::json::object();
  for (const auto &[M, X] : Measured)
    Raw[M] = X;
  J["raw"] = Raw;
  return J;
}

void addCounters(nlohmann::json &Sum, const nlohmann::json &Add) {
  std::function<void(nlohmann::json &, const nlohmann::json &)> Rec = [&](nlohmann::json &S,
                                                                          const nlohmann::json &A) {
    for (auto It = A.begin(); It != A.end(); ++It) {
      if (It->is_number()) {
        double Old =
            S.contains(It.key()) && S[It.key()].is_number() ? S[It.key()].get<double>() : 0.0;
        S[It.key()] = num(Old + It->get<double>());
      } else if (It->is_object()) {
        if (!S.contains(It.key()) || !S[It.key()].is_object())
          S[It.key()] = nlohmann::json::object();
        Rec(S[It.key()], *It);
      }
    }
  };
  if (!Sum.is_object())
    Sum = nlohmann::json::object();
  for (const char *K :
       {"flops", "tensor_flops", "bytes", "shared_wavefronts", "l1_bytes", "l2_bytes", "dram_bytes",
        "dram_read_bytes", "dram_write_bytes", "time_ns"}) {
    if (!Add.contains(K))
      continue;
    nlohmann::json One = {{K, Add[K]}};
    Rec(Sum, One);
  }
}

std::shared_ptr<const LearnedTypes> makeLearned(TensorTypes Types, uint64_t Code) {
  auto LT = std::make_shared<LearnedTypes>();
  LT->Types = std::move(Types);
  LT->Code = Code;
  for (size_t I = 0; I < tensorTypeMetrics().size(); ++I)
    if (LT->Types.Types.count(tensorTypeMetrics()[I]))
      LT->Mask |= 1u << I;
  return LT;
}

} // namespace rt
} // namespace hroof
