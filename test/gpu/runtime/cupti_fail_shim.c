// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
 * Any other call goes to the real libcupti: the one already loaded (the
 * runtime library is dlopen'ed by the driver, so its libcupti is not in the
 * global scope that dlsym(RTLD_NEXT) searches).
 * Built by runtime/CMakeLists.txt (hroof-cupti-fail-shim); test only. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
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

static int findCupti(struct dl_phdr_info *Info, size_t Size, void *Out) {
  (void)Size;
  if (Info->dlpi_name && strstr(Info->dlpi_name, "/libcupti.so")) {
    *(void **)Out = dlopen(Info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
    return 1;
  }
  return 0;
}

typedef Result (*Entry)(void *);

static Entry real(const char *Name) {
  void *Lib = NULL;
  dl_iterate_phdr(findCupti, &Lib);
  Entry E = Lib ? (Entry)dlsym(Lib, Name) : NULL;
  return E ? E : (Entry)dlsym(RTLD_NEXT, Name);
}

Result cuptiProfilerGetCounterAvailability(void *Params) {
  Result R = shimFails("availability");
  if (R)
    return R;
  Entry Real = real(__func__);
  return Real ? Real(Params) : 999; /* CUPTI_ERROR_UNKNOWN */
}

Result cuptiRangeProfilerEnable(void *Params) {
  Result R = shimFails("enable");
  if (R)
    return R;
  Entry Real = real(__func__);
  return Real ? Real(Params) : 999;
}
