//===- cupti_passes.cpp - replay passes of metric lists, no GPU needed ------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reads metric lists (one per line, names separated by spaces) on stdin and
// prints CUPTI's pass count for each, from the host API with only the chip
// name (default GH100): how docs/runtime.md "Replay passes" was derived.
//   clang++-22 -std=c++17 test/gpu/runtime/hw/cupti_passes.cpp \
//     -I/usr/local/cuda/include -L/usr/local/cuda/lib -lcupti \
//     -Wl,-rpath,/usr/local/cuda/lib -o /tmp/cupti_passes
//   echo "gpu__time_duration.sum l1tex__t_bytes.sum" | /tmp/cupti_passes GH100
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cupti_profiler_host.h>
#include <cupti_target.h>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>
int main(int argc, char **argv) {
  CUpti_Profiler_Host_Initialize_Params HI{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  HI.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  HI.pChipName = argc > 1 ? argv[1] : "GH100";
  HI.pCounterAvailabilityImage = nullptr;
  CUptiResult R = cuptiProfilerHostInitialize(&HI);
  if (R) {
    printf("init failed %d\n", R);
    return 1;
  }
  std::string Line;
  while (std::getline(std::cin, Line)) {
    std::vector<std::string> Names;
    std::stringstream SS(Line);
    std::string N;
    while (SS >> N)
      Names.push_back(N);
    std::vector<const char *> P;
    for (auto &S : Names)
      P.push_back(S.c_str());
    CUpti_Profiler_Host_ConfigAddMetrics_Params AM{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    AM.pHostObject = HI.pHostObject;
    AM.ppMetricNames = P.data();
    AM.numMetrics = P.size();
    if ((R = cuptiProfilerHostConfigAddMetrics(&AM))) {
      printf("add failed %d: %s\n", R, Line.c_str());
      continue;
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params CS{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    CS.pHostObject = HI.pHostObject;
    cuptiProfilerHostGetConfigImageSize(&CS);
    std::vector<uint8_t> C(CS.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params CI{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    CI.pHostObject = HI.pHostObject;
    CI.configImageSize = C.size();
    CI.pConfigImage = C.data();
    cuptiProfilerHostGetConfigImage(&CI);
    CUpti_Profiler_Host_GetNumOfPasses_Params NP{
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    NP.configImageSize = C.size();
    NP.pConfigImage = C.data();
    cuptiProfilerHostGetNumOfPasses(&NP);
    printf("%zu passes: %s\n", NP.numOfPasses, Line.c_str());
    {
      CUpti_Profiler_Host_Deinitialize_Params D{
          CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
      D.pHostObject = HI.pHostObject;
      cuptiProfilerHostDeinitialize(&D);
      cuptiProfilerHostInitialize(&HI);
    }
  }
}
