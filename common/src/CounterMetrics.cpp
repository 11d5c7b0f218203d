//===- CounterMetrics.cpp - hardware-counter metrics -> profile count keys -===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "hroof/CounterMetrics.h"

namespace hroof {
namespace metrics {

std::string sassInstMetric(const std::string &Op) {
  return "sm__sass_thread_inst_executed_op_" + Op + "_pred_on.sum";
}

std::string tensorMetric(const std::string &Suffix) {
  return "sm__ops_path_tensor_src_" + Suffix + ".sum";
}

// The tables are built on first use and never destroyed: the runtime
// evaluates counters from its own atexit handler (records still waiting for
// application-replay groups at exit), and a function-local static built after
// that handler was registered is destroyed before it runs (last registered,
// first run). On the H100 that was a SIGSEGV at the exit of every PyTorch
// run under --replay application (docs/validation/deep-learning.md).
const std::vector<FlopRule> &flopRules() {
  static const auto &R = *new std::vector<FlopRule>{{"f64", "dadd", "dmul", "dfma", 1, 2},
                                                    {"f32", "fadd", "fmul", "ffma", 1, 2},
                                                    {"f16", "hadd", "hmul", "hfma", 2, 4}};
  return R;
}

const std::vector<TensorRule> &tensorRules() {
  static const auto &R = *new std::vector<TensorRule>{
      {"fp16", "f16"}, {"bf16_dst_fp32", "bf16"}, {"tf32_dst_fp32", "tf32"},
      {"fp64", "f64"}, {"int8", "int8"},          {"fp8_sparsity_off", "fp8"}};
  return R;
}

const std::vector<SumRule> &byteRules() {
  static const auto &R = *new std::vector<SumRule>([] {
    std::vector<SumRule> V;
    auto Sass = [](const std::string &Space, const char *Op) {
      return "sm__sass_data_bytes_mem_" + Space + "_op_" + Op + ".sum";
    };
    for (std::string Space : {"global", "shared", "local"}) {
      V.push_back({"bytes." + Space + ".load", {{Sass(Space, "ld")}}});
      V.push_back({"bytes." + Space + ".store", {{Sass(Space, "st")}}});
    }
    // Atomics: docs/counting-model.md counts the bytes of atom and red in
    // their space; SASS has RED only for global memory (shared reductions
    // are ATOMS).
    V.push_back({"bytes.global.atomic", {{Sass("global", "atom"), Sass("global", "red")}}});
    V.push_back({"bytes.shared.atomic", {{Sass("shared", "atom")}}});
    // The warp-level model's quantities (docs/counting-model.md).
    for (const char *Op : {"ld", "st"}) {
      std::string Dir = std::string(Op) == "ld" ? "load" : "store";
      V.push_back({"sectors.global." + Dir,
                   {{std::string("l1tex__t_sectors_pipe_lsu_mem_global_op_") + Op + ".sum"}}});
      V.push_back(
          {"wavefronts.shared." + Dir,
           {{std::string("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_") + Op + ".sum"}}});
    }
    V.push_back({"l1_bytes", {{"l1tex__t_bytes.sum"}}});
    V.push_back({"l2_bytes", {{"lts__t_bytes.sum"}}});
    V.push_back(
        {"dram_bytes", {{"dram__bytes_read.sum", "dram__bytes_write.sum"}, {"dram__bytes.sum"}}});
    // Read and written apart, against the launch's footprint (read and
    // written distinct bytes) of the warp-level model.
    V.push_back({"dram_read_bytes", {{"dram__bytes_read.sum"}}});
    V.push_back({"dram_write_bytes", {{"dram__bytes_write.sum"}}});
    return V;
  }());
  return R;
}

std::map<std::string, double> countsFromMetrics(const MetricLookup &Lookup) {
  std::map<std::string, double> C;
  for (const FlopRule &P : flopRules()) {
    auto A = Lookup(sassInstMetric(P.Add)), M = Lookup(sassInstMetric(P.Mul)),
         F = Lookup(sassInstMetric(P.Fma));
    if (A && M && F)
      C[std::string("flops.") + P.Key] = P.AddMulWeight * (*A + *M) + P.FmaWeight * *F;
  }
  for (const TensorRule &T : tensorRules())
    if (auto V = Lookup(tensorMetric(T.Suffix)))
      C[std::string("tensor_flops.") + T.Key] = *V;
  for (const SumRule &R : byteRules())
    for (const std::vector<std::string> &Metrics : R.Alternatives) {
      std::optional<double> Sum = 0.0;
      for (const std::string &M : Metrics) {
        auto V = Lookup(M);
        if (!V) {
          Sum.reset();
          break;
        }
        *Sum += *V;
      }
      if (Sum) {
        C[R.Key] = *Sum;
        break;
      }
    }
  return C;
}

} // namespace metrics
} // namespace hroof
