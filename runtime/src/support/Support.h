//===- Support.h - helpers every room of the runtime uses ------------------===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The few helpers every room of libhroof_rt.so uses: one stderr line per
// message ("hroof: ..."), the driver's name of an error, the calling
// thread's id, a monotonic clock and the flag that marks the runtime's
// own driver calls. Bottom of the runtime's layering: it
// includes nothing of the runtime (docs/runtime.md, "Layout").
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_SUPPORT_SUPPORT_H
#define HROOF_RUNTIME_SUPPORT_SUPPORT_H

#include <cuda.h>

#include <cstdint>

namespace hroof {
namespace rt {

/// One stderr line "hroof: ...", printf-style; "hroof: [SECONDS] ..." with
/// CLOCK_MONOTONIC's seconds once setLogTimes(true) (HROOF_VERBOSE >= 2:
/// lines set beside the program's own monotonic clock, e.g. Python's
/// time.monotonic()).
void logLine(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
void setLogTimes(bool On);
/// The CUDA driver's name of \p R.
const char *cuErr(CUresult R);
/// The calling thread's kernel thread id.
uint64_t threadId();
/// CLOCK_MONOTONIC in nanoseconds.
uint64_t nowNs();
/// Set while the runtime makes its own driver calls on this thread (their
/// launches and copies are not the application's).
extern thread_local bool InOwnDriverCalls;

} // namespace rt
} // namespace hroof

#endif // HROOF_RUNTIME_SUPPORT_SUPPORT_H
