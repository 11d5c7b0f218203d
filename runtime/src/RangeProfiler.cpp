//===- RangeProfiler.cpp - the CUPTI range profiler: host and target sides ===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// RangeProfilerHost and RangeProfilerTarget (RangeProfiler.h): each method
// is one CUPTI step with its parameter struct filled in; a failed call
// returns hwErr()'s message, a successful one "".
//===----------------------------------------------------------------------===//
#include "RangeProfiler.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

namespace hroof {
namespace rt {

namespace {

const char *supportLevel(CUpti_Profiler_Support_Level L) {
  switch (L) {
  case CUPTI_PROFILER_CONFIGURATION_SUPPORTED:
    return "supported";
  case CUPTI_PROFILER_CONFIGURATION_DISABLED:
    return "disabled";
  case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED:
    return "unsupported";
  default:
    return "unknown";
  }
}

} // namespace

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

void RangeProfilerHost::deinitialize() {
  CUpti_Profiler_Host_Deinitialize_Params D{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  D.pHostObject = Obj;
  cuptiProfilerHostDeinitialize(&D);
  Obj = nullptr;
}

//===--- Target side --------------------------------------------------------===//

std::string RangeProfilerTarget::initializeProfiler() {
  CUpti_Profiler_Initialize_Params P{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CUptiResult R = cuptiProfilerInitialize(&P);
  if (R != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerInitialize", R);
  return "";
}

std::string RangeProfilerTarget::checkDevice(CUdevice Dev, const char *DevName) {
  CUpti_Profiler_DeviceSupported_Params DS{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
  DS.cuDevice = Dev;
  DS.api = CUPTI_PROFILER_RANGE_PROFILING;
  CUptiResult R = cuptiProfilerDeviceSupported(&DS);
  if (R != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerDeviceSupported", R);
  if (DS.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
    return "";
  std::string Why;
  auto Add = [&](const char *What, CUpti_Profiler_Support_Level L) {
    if (L != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
      Why += std::string(Why.empty() ? "" : ", ") + What + " " + supportLevel(L);
  };
  Add("architecture", DS.architecture);
  Add("SLI", DS.sli);
  Add("vGPU", DS.vGpu);
  Add("confidential compute", DS.confidentialCompute);
  Add("CMP", DS.cmp);
  Add("WSL", DS.wsl);
  return "device " + std::to_string(Dev) + " (" + DevName +
         ") does not support the range profiler (" + Why + ")";
}

std::string RangeProfilerTarget::chipName(CUdevice Dev, std::string &Chip) {
  CUptiResult R;
  CUpti_Device_GetChipName_Params CN{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  CN.deviceIndex = size_t(Dev);
  if ((R = cuptiDeviceGetChipName(&CN)) != CUPTI_SUCCESS || !CN.pChipName)
    return hwErr("cuptiDeviceGetChipName", R);
  Chip = CN.pChipName;
  return "";
}

std::string RangeProfilerTarget::counterAvailability(CUcontext Ctx, std::vector<uint8_t> &Avail) {
  CUptiResult R;
  CUpti_Profiler_GetCounterAvailability_Params CA{
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  CA.ctx = Ctx;
  if ((R = cuptiProfilerGetCounterAvailability(&CA)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerGetCounterAvailability", R);
  Avail.resize(CA.counterAvailabilityImageSize);
  CA.pCounterAvailabilityImage = Avail.data();
  if ((R = cuptiProfilerGetCounterAvailability(&CA)) != CUPTI_SUCCESS)
    return hwErr("cuptiProfilerGetCounterAvailability", R);
  return "";
}

std::string RangeProfilerTarget::rangeCount(std::vector<uint8_t> &Data, size_t &Ranges) {
  CUptiResult R;
  CUpti_RangeProfiler_GetCounterDataInfo_Params GI{
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  GI.pCounterDataImage = Data.data();
  GI.counterDataImageSize = Data.size();
  if ((R = cuptiRangeProfilerGetCounterDataInfo(&GI)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerGetCounterDataInfo", R);
  Ranges = GI.numTotalRanges;
  return "";
}

std::string RangeProfilerTarget::enable(CUcontext Ctx) {
  CUptiResult R;
  CUpti_RangeProfiler_Enable_Params EN{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  EN.ctx = Ctx;
  if ((R = cuptiRangeProfilerEnable(&EN)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerEnable", R);
  Obj = EN.pRangeProfilerObject;
  return "";
}

void RangeProfilerTarget::disable() {
  CUpti_RangeProfiler_Disable_Params D{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  D.pRangeProfilerObject = Obj;
  cuptiRangeProfilerDisable(&D);
  Obj = nullptr;
}

std::string RangeProfilerTarget::counterDataSize(std::vector<const char *> &Names, size_t &Size) {
  CUptiResult R;
  CUpti_RangeProfiler_GetCounterDataSize_Params DSz{
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  DSz.pRangeProfilerObject = Obj;
  DSz.pMetricNames = Names.data();
  DSz.numMetrics = Names.size();
  DSz.maxNumOfRanges = 1;
  DSz.maxNumRangeTreeNodes = 1;
  if ((R = cuptiRangeProfilerGetCounterDataSize(&DSz)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerGetCounterDataSize", R);
  Size = DSz.counterDataSize;
  return "";
}

std::string RangeProfilerTarget::initCounterData(std::vector<uint8_t> &Data) {
  CUptiResult R;
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params DI{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  DI.pRangeProfilerObject = Obj;
  DI.counterDataSize = Data.size();
  DI.pCounterData = Data.data();
  if ((R = cuptiRangeProfilerCounterDataImageInitialize(&DI)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerCounterDataImageInitialize", R);
  return "";
}

std::string RangeProfilerTarget::setConfig(std::vector<uint8_t> &Config,
                                           std::vector<uint8_t> &Data) {
  CUptiResult R;
  CUpti_RangeProfiler_SetConfig_Params SC{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  SC.pRangeProfilerObject = Obj;
  SC.configSize = Config.size();
  SC.pConfig = Config.data();
  SC.counterDataImageSize = Data.size();
  SC.pCounterDataImage = Data.data();
  SC.range = CUPTI_AutoRange;
  SC.replayMode = CUPTI_KernelReplay;
  SC.maxRangesPerPass = 1;
  SC.numNestingLevels = 1;
  SC.minNestingLevel = 1;
  SC.passIndex = 0;
  SC.targetNestingLevel = 1;
  if ((R = cuptiRangeProfilerSetConfig(&SC)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerSetConfig", R);
  return "";
}

std::string RangeProfilerTarget::start() {
  CUptiResult R;
  CUpti_RangeProfiler_Start_Params ST{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  ST.pRangeProfilerObject = Obj;
  if ((R = cuptiRangeProfilerStart(&ST)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerStart", R);
  return "";
}

std::string RangeProfilerTarget::stop(bool &AllPassesSubmitted) {
  CUptiResult R;
  CUpti_RangeProfiler_Stop_Params SP{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  SP.pRangeProfilerObject = Obj;
  if ((R = cuptiRangeProfilerStop(&SP)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerStop", R);
  AllPassesSubmitted = SP.isAllPassSubmitted;
  return "";
}

std::string RangeProfilerTarget::decode() {
  CUptiResult R;
  CUpti_RangeProfiler_DecodeData_Params DD{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  DD.pRangeProfilerObject = Obj;
  if ((R = cuptiRangeProfilerDecodeData(&DD)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerDecodeData", R);
  return "";
}

} // namespace rt
} // namespace hroof
