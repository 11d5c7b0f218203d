//===- RangeProfiler.cpp - the CUPTI range profiler: target side ----------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// RangeProfilerTarget (RangeProfiler.h): each method is one CUPTI step with
// its parameter struct filled in; a failed call returns hwErr()'s message, a
// successful one "". The host side (no device, no driver) is in
// RangeProfilerHost.cpp.
//===----------------------------------------------------------------------===//
#include "cupti/RangeProfiler.h"

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

std::string RangeProfilerTarget::rangeName(std::vector<uint8_t> &Data, size_t Index,
                                           std::string &Name) {
  CUptiResult R;
  CUpti_RangeProfiler_CounterData_GetRangeInfo_Params RI{
      CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
  RI.pCounterDataImage = Data.data();
  RI.counterDataImageSize = Data.size();
  RI.rangeIndex = Index;
  RI.rangeDelimiter = "/";
  if ((R = cuptiRangeProfilerCounterDataGetRangeInfo(&RI)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerCounterDataGetRangeInfo", R);
  Name = RI.rangeName ? RI.rangeName : "";
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

std::string RangeProfilerTarget::counterDataSize(std::vector<const char *> &Names, size_t &Size,
                                                 size_t MaxRanges) {
  CUptiResult R;
  CUpti_RangeProfiler_GetCounterDataSize_Params DSz{
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  DSz.pRangeProfilerObject = Obj;
  DSz.pMetricNames = Names.data();
  DSz.numMetrics = Names.size();
  DSz.maxNumOfRanges = MaxRanges;
  DSz.maxNumRangeTreeNodes = MaxRanges;
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
                                           std::vector<uint8_t> &Data,
                                           CUpti_ProfilerReplayMode Mode, size_t MaxRanges,
                                           CUpti_ProfilerRange Range) {
  CUptiResult R;
  CUpti_RangeProfiler_SetConfig_Params SC{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  SC.pRangeProfilerObject = Obj;
  SC.configSize = Config.size();
  SC.pConfig = Config.data();
  SC.counterDataImageSize = Data.size();
  SC.pCounterDataImage = Data.data();
  SC.range = Range;
  SC.replayMode = Mode;
  SC.maxRangesPerPass = MaxRanges;
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

std::string RangeProfilerTarget::pushRange(const char *Name) {
  CUptiResult R;
  CUpti_RangeProfiler_PushRange_Params PR{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
  PR.pRangeProfilerObject = Obj;
  PR.pRangeName = Name;
  if ((R = cuptiRangeProfilerPushRange(&PR)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerPushRange", R);
  return "";
}

std::string RangeProfilerTarget::popRange() {
  CUptiResult R;
  CUpti_RangeProfiler_PopRange_Params PR{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
  PR.pRangeProfilerObject = Obj;
  if ((R = cuptiRangeProfilerPopRange(&PR)) != CUPTI_SUCCESS)
    return hwErr("cuptiRangeProfilerPopRange", R);
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
