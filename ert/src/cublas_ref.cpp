// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "cublas_ref.h"

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "ert_kernels.h"

namespace ert {

#define LT(x)                                                                                      \
  do {                                                                                             \
    cublasStatus_t s_ = (x);                                                                       \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                                               \
      throw std::runtime_error(std::string("cuBLASLt: ") + #x + ": " + cublasGetStatusName(s_));   \
  } while (0)
#define CU(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess)                                                                         \
      throw std::runtime_error(std::string(#x) + ": " + cudaGetErrorString(e_));                   \
  } while (0)

namespace {
struct Types {
  cudaDataType_t ab, cd;
  cublasComputeType_t compute;
  cudaDataType_t scale;
  int fill_kind; // fill_random kind of A/B
  size_t ab_size, cd_size;
};
Types types_for(const std::string &p) {
  if (p == "f64")
    return {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F, 0, 8, 8};
  if (p == "f32")
    return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 1, 4, 4};
  if (p == "tf32")
    return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F, 1, 4, 4};
  if (p == "f16")
    return {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2, 2};
  if (p == "bf16")
    return {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 3, 2, 2};
  if (p == "fp8")
    return {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 4, 1, 2};
  throw std::runtime_error("cuBLAS reference: unknown precision " + p);
}
} // namespace

std::vector<GemmRun> cublas_gemm(const std::string &prec,
                                 const std::vector<std::vector<int>> &shapes, int algos, int reps) {
  Types t = types_for(prec);
  cublasLtHandle_t lt;
  LT(cublasLtCreate(&lt));
  const size_t ws_bytes = 64u << 20;
  void *ws = device_alloc(ws_bytes);
  std::vector<GemmRun> runs;
  cudaEvent_t e0, e1;
  CU(cudaEventCreate(&e0));
  CU(cudaEventCreate(&e1));
  for (auto &s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    void *A = device_alloc((size_t)m * k * t.ab_size);
    void *B = device_alloc((size_t)k * n * t.ab_size);
    void *C = device_alloc((size_t)m * n * t.cd_size);
    fill_random(A, (size_t)m * k, t.fill_kind, 1);
    fill_random(B, (size_t)k * n, t.fill_kind, 2);
    device_sync();
    cublasLtMatmulDesc_t op;
    LT(cublasLtMatmulDescCreate(&op, t.compute, t.scale));
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)));
    LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)));
    cublasLtMatrixLayout_t la, lb, lc;
    LT(cublasLtMatrixLayoutCreate(&la, t.ab, k, m, k));
    LT(cublasLtMatrixLayoutCreate(&lb, t.ab, k, n, k));
    LT(cublasLtMatrixLayoutCreate(&lc, t.cd, m, n, m));
    cublasLtMatmulPreference_t pref;
    LT(cublasLtMatmulPreferenceCreate(&pref));
    uint64_t wsb = ws_bytes;
    LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsb,
                                            sizeof(wsb)));
    std::vector<cublasLtMatmulHeuristicResult_t> res(std::max(algos, 1));
    int got = 0;
    LT(cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, (int)res.size(), res.data(),
                                      &got));
    if (got == 0)
      throw std::runtime_error("cuBLASLt: no algorithm for " + prec);
    double alpha_d = 1.0, beta_d = 0.0;
    float alpha_f = 1.0f, beta_f = 0.0f;
    const void *alpha = t.scale == CUDA_R_64F ? (const void *)&alpha_d : (const void *)&alpha_f;
    const void *beta = t.scale == CUDA_R_64F ? (const void *)&beta_d : (const void *)&beta_f;
    for (int a = 0; a < got; ++a) {
      auto launch = [&] {
        LT(cublasLtMatmul(lt, op, alpha, A, la, B, lb, beta, C, lc, C, lc, &res[a].algo, ws,
                          ws_bytes, 0));
      };
      launch(); // warm-up
      CU(cudaDeviceSynchronize());
      std::vector<double> v;
      for (int r = 0; r < reps; ++r) {
        CU(cudaEventRecord(e0));
        launch();
        CU(cudaEventRecord(e1));
        CU(cudaEventSynchronize(e1));
        float ms;
        CU(cudaEventElapsedTime(&ms, e0, e1));
        v.push_back(ms);
      }
      std::sort(v.begin(), v.end());
      GemmRun g;
      g.prec = prec;
      g.m = m;
      g.n = n;
      g.k = k;
      g.algo = a;
      g.ms = v[v.size() / 2];
      g.gflops = 2.0 * m * n * (double)k / (g.ms * 1e6);
      runs.push_back(g);
    }
    CU(cudaGetLastError());
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatmulDescDestroy(op);
    device_free(A);
    device_free(B);
    device_free(C);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  device_free(ws);
  cublasLtDestroy(lt);
  return runs;
}

} // namespace ert
