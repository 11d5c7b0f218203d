//===- RangeProfilerHost.cpp - the CUPTI range profiler: host side --------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// RangeProfilerHost, hostPassCount and the error helper hwErr()
// (RangeProfiler.h): CUPTI's host API only, no device and no driver call, so
// tools without a GPU (hroof-app-groups-cupti) use the runtime's own code.
//===----------------------------------------------------------------------===//
#include "cupti/RangeProfiler.h"

namespace hroof {
namespace rt {

std::string cuptiErr(CUptiResult R) {
  const char *S = nullptr;
  if (cuptiGetResultString(R, &S) != CUPTI_SUCCESS || !S)
    return "CUPTI error " + std::to_string(int(R));
  return S;
}

std::string hwErr(const char *What, CUptiResult R) {
  std::string M = std::string(What) + ": " + cuptiErr(R);
  if (R == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
      R == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
    M = std::string("GPU performance counters are not permitted for this user (") + cuptiErr(R) +
        " in " + What +
        "; the driver restricts them to administrators: "
        "NVreg_RestrictProfilingToAdminUsers=0, or run as root; "
        "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
  else if (R == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ||
           R == CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED)
    M += " (another profiler, e.g. Nsight Compute, holds the counters)";
  return M;
}

//===--- Host side ----------------------------------------------------------===//

std::string RangeProfilerHost::initialize(const std::string &Chip, std::vector<uint8_t> &Avail) {
  CUptiResult R;
  CUpti_Profiler_Host_Initialize_Params HI{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  HI.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  HI.pChipName = Chip.c_str();
  HI.pCounterAvailabilityImage = Avail.data();
  if ((R = cuptiProfilerHostInitialize(&HI)) != CUPTI_SUCCESS)
    return hwErr(("cuptiProfilerHostInitialize (chip " + Chip + ")").c_str(), R);
  Obj = HI.pHostObject;
  return "";
}

bool RangeProfilerHost::hasMetric(const std::string &Name) {
  CUpti_Profiler_Host_GetMetricProperties_Params MP{
      CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
  MP.pHostObject = Obj;
  MP.pMetricName = Name.c_str();
  return cuptiProfilerHostGetMetricProperties(&MP) == CUPTI_SUCCESS;
}

std::string RangeProfilerHost::configure(std::vector<const char *> &Names,
                                         std::vector<uint8_t> &Config, size_t &Passes) {
  CUptiResult R;
  CUpti_Profiler_Host_ConfigAddMetrics_Params AM{
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  AM.pHostObject = Obj;
  AM.ppMetricNames = Names.data();
  AM.numMetrics = Names.size();
  if ((R = cuptiProfilerHostConfigAddMetrics(&AM)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerHostConfigAddMetrics", R);
  CUpti_Profiler_Host_GetConfigImageSize_Params CS{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  CS.pHostObject = Obj;
  if ((R = cuptiProfilerHostGetConfigImageSize(&CS)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerHostGetConfigImageSize", R);
  Config.resize(CS.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params CI{
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  CI.pHostObject = Obj;
  CI.configImageSize = Config.size();
  CI.pConfigImage = Config.data();
  if ((R = cuptiProfilerHostGetConfigImage(&CI)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerHostGetConfigImage", R);
  CUpti_Profiler_Host_GetNumOfPasses_Params NP{
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  NP.configImageSize = Config.size();
  NP.pConfigImage = Config.data();
  Passes = cuptiProfilerHostGetNumOfPasses(&NP) == CUPTI_SUCCESS ? NP.numOfPasses : 0;
  return "";
}

std::string RangeProfilerHost::evaluate(std::vector<uint8_t> &Data, size_t Index,
                                        std::vector<const char *> &Names,
                                        std::vector<double> &Values) {
  CUptiResult R;
  CUpti_Profiler_Host_EvaluateToGpuValues_Params EV{
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  EV.pHostObject = Obj;
  EV.pCounterDataImage = Data.data();
  EV.counterDataImageSize = Data.size();
  EV.rangeIndex = Index;
  EV.ppMetricNames = Names.data();
  EV.numMetrics = Names.size();
  EV.pMetricValues = Values.data();
  if ((R = cuptiProfilerHostEvaluateToGpuValues(&EV)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerHostEvaluateToGpuValues", R);
  return "";
}

std::string hostPassCount(const std::string &Chip, std::vector<uint8_t> &Avail,
                          const std::vector<std::string> &Metrics, size_t &Passes) {
  RangeProfilerHost H;
  std::vector<const char *> Names;
  for (const std::string &N : Metrics)
    Names.push_back(N.c_str());
  std::vector<uint8_t> Image;
  Passes = 0;
  std::string E = H.initialize(Chip, Avail);
  if (E.empty())
    E = H.configure(Names, Image, Passes);
  if (H.initialized())
    H.deinitialize();
  return E;
}

void RangeProfilerHost::deinitialize() {
  CUpti_Profiler_Host_Deinitialize_Params D{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  D.pHostObject = Obj;
  cuptiProfilerHostDeinitialize(&D);
  Obj = nullptr;
}

} // namespace rt
} // namespace hroof
