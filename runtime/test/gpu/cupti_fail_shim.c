/* cupti_fail_shim.c - LD_PRELOAD library for the runtime's GPU smoke test:
 * makes chosen CUPTI profiler calls fail with a chosen result, so that the
 * runtime's handling of, e.g., counters not permitted can be run on a
 * machine whose driver permits them (NVreg_RestrictProfilingToAdminUsers=0,
 * as on the workplace's H100, where the real error cannot be caused).
 *   HROOF_SHIM_FAIL=availability|enable   the call that fails:
 *     availability: cuptiProfilerGetCounterAvailability (where a restricted
 *                   driver answers first), enable: cuptiRangeProfilerEnable
 *   HROOF_SHIM_RESULT=N   the CUptiResult returned (default 35,
 *                         CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
 * Any other call goes to the real libcupti (dlsym RTLD_NEXT).
 * Built by runtime/CMakeLists.txt (hroof-cupti-fail-shim); test only. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef int Result;

static Result shimFails(const char *which) {
  const char *F = getenv("HROOF_SHIM_FAIL");
  if (!F || strcmp(F, which))
    return 0;
  const char *R = getenv("HROOF_SHIM_RESULT");
  return R ? atoi(R) : 35;
}

Result cuptiProfilerGetCounterAvailability(void *Params) {
  Result R = shimFails("availability");
  if (R)
    return R;
  Result (*Real)(void *) = (Result(*)(void *))dlsym(RTLD_NEXT, __func__);
  return Real ? Real(Params) : 999;
}

Result cuptiRangeProfilerEnable(void *Params) {
  Result R = shimFails("enable");
  if (R)
    return R;
  Result (*Real)(void *) = (Result(*)(void *))dlsym(RTLD_NEXT, __func__);
  return Real ? Real(Params) : 999;
}
