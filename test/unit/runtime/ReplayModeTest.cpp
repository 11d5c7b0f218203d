// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The replay mode of the hardware counters (runtime/src/replay/CounterReplay.h):
// HROOF_REPLAY chooses it once at start (replayModeOf), and the only switch,
// kernel replay to application replay (ReplaySwitch), happens at most once,
// only from kernel replay, and never back.
#include "replay/CounterReplay.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace hroof;
using namespace hroof::rt;

namespace {

/// A mode that only says which it is.
class StubMode final : public CounterReplay {
public:
  explicit StubMode(ReplayMode M) : M(M) {}
  ReplayMode mode() const override { return M; }
  bool usesWorkKey() const override { return false; }
  bool admit(const FuncInfo &, CUcontext, const std::string &, uint32_t, bool,
             LaunchAdmission &) override {
    return false;
  }
  bool enter(CounterLaunch &) override { return false; }
  void exit(CounterLaunch &, CUresult) override {}
  bool freshObject(HwContext &, const HwConfig &, bool) override { return false; }
  void rangeValues(CounterLaunch &, HwContext &, const HwConfig &, std::map<std::string, double>,
                   const std::string &) override {}

private:
  ReplayMode M;
};

/// The mode HROOF_REPLAY=\p Text (null: unset) asks for, through the
/// runtime's own reading of the environment.
ReplayMode modeOfEnvironment(const char *Text) {
  if (Text)
    setenv("HROOF_REPLAY", Text, 1);
  else
    unsetenv("HROOF_REPLAY");
  Settings S = Settings::fromEnvironment();
  unsetenv("HROOF_REPLAY");
  return replayModeOf(S);
}

} // namespace

TEST(ReplayMode, ChosenFromTheSettings) {
  EXPECT_EQ(modeOfEnvironment(nullptr), ReplayMode::Kernel); // the default
  EXPECT_EQ(modeOfEnvironment("kernel"), ReplayMode::Kernel);
  EXPECT_EQ(modeOfEnvironment("application"), ReplayMode::Application);
  EXPECT_EQ(modeOfEnvironment("Application"), ReplayMode::Application);
  EXPECT_EQ(modeOfEnvironment("passes"), ReplayMode::Passes);
  EXPECT_EQ(modeOfEnvironment("no-such-mode"), ReplayMode::Kernel); // said, then the default
}

TEST(ReplayMode, PassReplayWinsOverApplicationReplay) {
  // HROOF_REPLAY=passes sets both flags: pass replay is application
  // replay's records with rounds of passes.
  Settings S;
  S.AppReplay = true;
  S.PassReplay = true;
  EXPECT_EQ(replayModeOf(S), ReplayMode::Passes);
  S.PassReplay = false;
  EXPECT_EQ(replayModeOf(S), ReplayMode::Application);
  S.AppReplay = false;
  EXPECT_EQ(replayModeOf(S), ReplayMode::Kernel);
}

TEST(ReplaySwitch, KernelReplayMovesToItsSuccessorOnce) {
  StubMode Kernel(ReplayMode::Kernel), App(ReplayMode::Application);
  ReplaySwitch W;
  W.set(&Kernel, &App);
  EXPECT_EQ(&W.current(), &Kernel);
  EXPECT_TRUE(W.toSuccessor());
  EXPECT_EQ(&W.current(), &App);
  EXPECT_FALSE(W.toSuccessor()); // already moved: nothing to say again
  EXPECT_EQ(&W.current(), &App);
}

TEST(ReplaySwitch, OtherModesNeverSwitch) {
  StubMode App(ReplayMode::Application), Passes(ReplayMode::Passes);
  StubMode Other(ReplayMode::Application);
  for (StubMode *Initial : {&App, &Passes}) {
    ReplaySwitch W;
    W.set(Initial, &Other);
    EXPECT_FALSE(W.toSuccessor());
    EXPECT_EQ(&W.current(), Initial);
  }
}

TEST(ReplaySwitch, KernelReplayWithoutSuccessorStays) {
  StubMode Kernel(ReplayMode::Kernel);
  ReplaySwitch W;
  W.set(&Kernel, nullptr);
  EXPECT_FALSE(W.toSuccessor());
  EXPECT_EQ(&W.current(), &Kernel);
}

TEST(ReplaySwitch, ConcurrentCausesSwitchOnce) {
  // A communication kernel and a memory-sharing API may appear on two
  // threads at once: one of them switches (and says so), the other does not.
  StubMode Kernel(ReplayMode::Kernel), App(ReplayMode::Application);
  ReplaySwitch W;
  W.set(&Kernel, &App);
  std::atomic<int> Switched{0};
  std::vector<std::thread> Threads;
  for (int I = 0; I < 8; ++I)
    Threads.emplace_back([&] { Switched += W.toSuccessor(); });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Switched.load(), 1);
  EXPECT_EQ(&W.current(), &App);
}
