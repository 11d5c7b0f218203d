//===- Support.cpp - helpers every room of the runtime uses --------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//===----------------------------------------------------------------------===//
#include "support/Support.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <ctime>

namespace hroof {
namespace rt {

static std::atomic<bool> LogTimes{false};

void logLine(const char *Fmt, ...) {
  char Buf[1024];
  va_list Ap;
  va_start(Ap, Fmt);
  vsnprintf(Buf, sizeof Buf, Fmt, Ap);
  va_end(Ap);
  if (LogTimes.load(std::memory_order_relaxed))
    std::fprintf(stderr, "hroof: [%.3f] %s\n", double(nowNs()) / 1e9, Buf);
  else
    std::fprintf(stderr, "hroof: %s\n", Buf);
}

void setLogTimes(bool On) { LogTimes = On; }

const char *cuErr(CUresult R) {
  const char *S = nullptr;
  if (cuGetErrorName(R, &S) != CUDA_SUCCESS || !S)
    return "unknown CUDA error";
  return S;
}

uint64_t threadId() { return uint64_t(::syscall(SYS_gettid)); }

thread_local bool InOwnDriverCalls = false;

uint64_t nowNs() {
  timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return uint64_t(Ts.tv_sec) * 1000000000ull + uint64_t(Ts.tv_nsec);
}

} // namespace rt
} // namespace hroof
