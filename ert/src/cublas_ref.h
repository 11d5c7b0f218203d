// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// cuBLASLt GEMM references for hroof-ert (reference only; never a ceiling).
#pragma once
#include <string>
#include <vector>

namespace ert {

struct GemmRun {
  std::string prec; // f64 f32 tf32 f16 bf16 fp8
  int m = 0, n = 0, k = 0;
  int algo = 0; // index in the heuristic's list
  double ms = 0, gflops = 0;
};

// Times cublasLtMatmul (TN layout, which fp8 requires) for `prec` on each shape and on the
// heuristic's first `algos` algorithms, `reps` timed launches each (median).
// Returns every run; throws std::runtime_error with a one-line message on failure.
std::vector<GemmRun> cublas_gemm(const std::string &prec,
                                 const std::vector<std::vector<int>> &shapes, int algos, int reps);

} // namespace ert
