// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Writes test/report/Inputs/runtime-writer.json with the runtime's own profile writer
// (runtime/src/profile/Profile.cpp + metrics/HwMetrics.cpp), so the report is tested on the exact
// format the runtime writes. Built as hroof-gen-runtime-profile (ctest profile-schema checks what
// it writes against share/hroof/profile-schema.json); regenerate the fixture with
//   build/bin/hroof-gen-runtime-profile test/report/Inputs/runtime-writer.json
// The counts are made up (a fixture): saxpy with 2^20 divisions per launch whose
// FFMA expansion the counters see, and an uninstrumented kernel without counters;
// NVTX range paths ("step 0/forward": 3 saxpy launches, "step 1/forward": 2, "step
// 1/backward": the other kernel) and a host-to-device copy in "step 0".
#include "metrics/HwMetrics.h"
#include "profile/Profile.h"
#include <cstdio>
using namespace hroof;
using namespace hroof::rt;
int main(int argc, char **argv) {
  Profile P(100, 0);
  ProfileHeader Hd;
  Hd.Pid = 1;
  Hd.Host = "h";
  Hd.Command = "x";
  nlohmann::json H = headerToJson(Hd, Settings());
  if (auto E = P.open(argv[1], H); !E.empty()) {
    fprintf(stderr, "%s\n", E.c_str());
    return 1;
  }
  P.addDevice(deviceToJson(0, "NVIDIA H100 80GB HBM3", 9, 0, 132));
  for (int I = 0; I < 5; ++I) {
    LaunchRecord R;
    R.Mangled = "_Z5saxpyifPKfPf";
    R.Name = "saxpy(int, float, float const*, float*)";
    R.Api = "cuLaunchKernel";
    R.Timed = true;
    R.DurationNs = 70000;
    R.Instrumented = true;
    R.Range = I < 3 ? "step 0/forward" : "step 1/forward";
    CountVector C{};
    C[flopsIndex(Precision::F32)] = 2 << 24;
    C[bytesIndex(MemSpace::Global, MemDir::Load)] = 8 << 24;
    C[bytesIndex(MemSpace::Global, MemDir::Store)] = 4 << 24;
    C[specialIndex(Precision::F32, SpecialOp::Div)] = 1 << 20;
    R.Dynamic = C;
    TotalVector T{};
    for (int K = 0; K < NumCounters; ++K)
      T[K] = C[K];
    R.Static = T;
    std::map<std::string, double> V;
    for (const auto &M : rooflineMetrics())
      V[M] = 0;
    V["gpu__time_duration.sum"] = 71000;
    V["sm__cycles_elapsed.avg.per_second"] = 1.7e9;
    V["sm__sass_thread_inst_executed_op_ffma_pred_on.sum"] = (1 << 24) + 4 * (1 << 20);
    V["sm__sass_data_bytes_mem_global_op_ld.sum"] = 8 << 24;
    V["sm__sass_data_bytes_mem_global_op_st.sum"] = 4 << 24;
    V["l1tex__t_bytes.sum"] = 12 << 24;
    V["lts__t_bytes.sum"] = 12.3 * (1 << 24);
    V["dram__bytes_read.sum"] = 8 << 24;
    V["dram__bytes_write.sum"] = 4 << 24;
    V["sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"] = 16896;
    R.HwTried = true;
    R.Hw = countersToJson(V);
    P.addLaunch(R);
  }
  LaunchRecord U;
  U.Mangled = U.Name = "cublas_gemm_kernel";
  U.Timed = true;
  U.DurationNs = 300000;
  U.Range = "step 1/backward";
  P.addLaunch(U);
  TransferRecord X;
  X.Kind = "HtoD";
  X.Bytes = 1 << 24;
  X.StartNs = 1000;
  X.DurationNs = 700000;
  X.Device = 0;
  X.Stream = 7;
  X.Range = "step 0";
  P.addTransfer(X);
  P.finish();
}
