//===- ActivityFlusher.h - deliver completed activity records on time -----===//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A launch record is written when both its callback (counts) and its CUPTI
// activity record (duration) have arrived. CUPTI's own periodic flush
// (cuptiActivityFlushPeriod) returns only FULL buffers, so in a program with
// few or short launches the activity records, and with them every launch
// record, waited until the process's exit flush; a program killed before it
// (SIGKILL, a timeout) left a profile without launches. This thread asks
// CUPTI for the completed records every HROOF_FLUSH_MS (cuptiActivityFlushAll
// without FORCED: incomplete records stay), so a killed program keeps every
// launch that completed up to the last flush.
//===----------------------------------------------------------------------===//
#ifndef HROOF_RUNTIME_ACTIVITYFLUSHER_H
#define HROOF_RUNTIME_ACTIVITYFLUSHER_H

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace hroof {
namespace rt {

class ActivityFlusher {
public:
  /// Calls \p Flush every \p PeriodMs on a thread of its own until stop().
  void start(int64_t PeriodMs, std::function<void()> Flush) {
    if (PeriodMs <= 0 || Thread)
      return;
    Owner = getpid();
    Thread = new std::thread([this, PeriodMs, Flush = std::move(Flush)] {
      std::unique_lock<std::mutex> L(M);
      while (!CV.wait_for(L, std::chrono::milliseconds(PeriodMs), [&] { return Stopping; })) {
        L.unlock();
        Flush();
        L.lock();
      }
    });
  }

  /// Stops and joins the thread. In a forked child the thread does not exist
  /// (fork copies only the calling thread): its handle is left alone.
  void stop() {
    if (!Thread || getpid() != Owner)
      return;
    {
      std::lock_guard<std::mutex> L(M);
      Stopping = true;
    }
    CV.notify_all();
    Thread->join();
    delete Thread;
    Thread = nullptr;
  }

private:
  std::thread *Thread = nullptr; ///< a pointer: never destroyed in a fork child
  std::mutex M;
  std::condition_variable CV;
  bool Stopping = false;
  pid_t Owner = 0;
};

} // namespace rt
} // namespace hroof

#endif
