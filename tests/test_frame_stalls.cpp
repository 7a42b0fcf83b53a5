// Work the frame loop must never wait for (issue 22: "the UI never freezes"), checked
// through the session as main() drives it: each check counts or blocks what a frame
// would have waited for, rather than timing frames on a loaded machine.
#include <gtest/gtest.h>

#include <CL/cl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/app_state.h"
#include "app/session.h"
#include "compute/compute_context.h"
#include "compute/nbody_variants.h"
#include "compute/program_cache.h"
#include "session_fixture.h"

namespace ks {
namespace {

class FrameStallTest : public test::SessionFixture {
 protected:
  FrameStallTest() : SessionFixture(320, 240, 256) { ceilingsKnown_ = false; }
};

// A work-group size (or variant, tile, unroll) never built before compiled nbody.cl in
// the frame that applied it: 25 s on PoCL under load (a backtrace put the frame in
// ProgramCache::get from NBodySimulation::setConfig). The program now builds on a
// worker thread while the old configuration runs on.
TEST_F(FrameStallTest, ANewNBodyConfigurationsProgramBuildsOffTheFrame) {
  frame();
  const NBodyConfig running = state_.nbody.readings().runningConfig;
  NBodyConfig chosen = running;
  for (int wg : {32, 64, 128, 256, 96}) {
    NBodyConfig c = running;
    c.workGroup = wg;
    if (wg != running.workGroup && nbodyConfigProblem(c, session_->compute().device()).empty()) {
      chosen = c;
      break;
    }
  }
  ASSERT_FALSE(chosen == running) << "no other work-group size runs here";
  // Another program (the tiled variants' tile follows the work-group), not built yet.
  ASSERT_FALSE(session_->compute().kernelFileReady(kNBodyKernelFile, nbodyBuildOptions(chosen)))
      << nbodyBuildOptions(chosen);
  const ProgramCache& programs = session_->compute().programs();
  const size_t compiledBefore = programs.compiledInCall();
  state_.nbody.choices.config = chosen;
  frameUntilChosenConfigRuns();
  EXPECT_EQ(state_.nbody.readings().runningConfig, chosen) << state_.nbody.readings().message;
  EXPECT_EQ(programs.compiledInCall(), compiledBefore) << "a frame compiled a program, or waited for one building";
  EXPECT_EQ(state_.preparing, "") << "the status bar still says the kernel builds";
}

// Holds the scene's queue closed: a marker waiting on a user event, opened by
// open() or, if a frame waits behind it, by a watchdog after kWatchdog (so a broken
// build fails instead of hanging).
class QueueGate {
 public:
  static constexpr auto kWatchdog = std::chrono::seconds(90);
  QueueGate(cl_context context, cl_command_queue queue) {
    cl_int status = CL_SUCCESS;
    gate_ = clCreateUserEvent(context, &status);
    EXPECT_EQ(status, CL_SUCCESS);
    EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, &gate_, nullptr), CL_SUCCESS);
    EXPECT_EQ(clFlush(queue), CL_SUCCESS);
    watchdog_ = std::thread([this] {
      std::unique_lock lock(mutex_);
      if (!wake_.wait_for(lock, kWatchdog, [this] { return opened_; })) {
        openedByWatchdog_ = true;
        openLocked();
      }
    });
  }
  ~QueueGate() {
    open();
    watchdog_.join();
    clReleaseEvent(gate_);
  }
  void open() {
    {
      std::lock_guard lock(mutex_);
      openLocked();
    }
    wake_.notify_all();
  }
  bool openedByWatchdog() const { return openedByWatchdog_; }

 private:
  void openLocked() {
    if (opened_) return;
    opened_ = true;
    clSetUserEventStatus(gate_, CL_COMPLETE);
  }
  cl_event gate_ = nullptr;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool opened_ = false;
  std::atomic<bool> openedByWatchdog_{false};
  std::thread watchdog_;
};

// The device's ceilings ran one piece per frame on the scene's queue and waited for
// it there (Queue::finish): each piece also waited for the N-body step enqueued
// before it, and a kernel's first launch compiles on PoCL (frames of 0.4-12.7 s at
// the start, backtraces in CeilingsRunner::step). Now a piece runs on a worker with
// its own queue once the scene's queue has finished, and the scene holds its steps
// meanwhile, so that neither skews the other.
TEST_F(FrameStallTest, TheCeilingsAreMeasuredOffTheFrameAndWithTheSceneHeld) {
  ASSERT_TRUE(state_.ceilings.measuring) << "no cached ceilings in a test session: they are measured";
  // 1. Once the ceilings' kernels have built, with the scene's queue closed (the
  // N-body scene paused: nothing of its own waits there), frames go on.
  state_.nbody.choices.paused = true;
  const auto built = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (state_.ceilings.progress == "compiling the kernels" && std::chrono::steady_clock::now() < built) {
    frame();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_NE(state_.ceilings.progress, "compiling the kernels") << "not built within 120 s";
  {
    QueueGate gate(session_->compute().context(), session_->compute().queue().get());
    int frames = 0;
    for (; frames < 30 && !gate.openedByWatchdog(); ++frames) {
      frame();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_FALSE(gate.openedByWatchdog()) << "a frame waited for the scene's queue, after " << frames << " frames";
    EXPECT_TRUE(state_.ceilings.measuring);
  }
  // 2. The scene steps again; it never steps in a frame that ends with a piece
  // running or waiting to start, and the measurement ends with every figure.
  state_.nbody.choices.paused = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(240);
  int heldFrames = 0, steppedInHeldFrames = 0;
  const unsigned long long stepsBefore = state_.nbody.readings().steps;
  while (state_.ceilings.measuring && std::chrono::steady_clock::now() < deadline) {
    const unsigned long long steps = state_.nbody.readings().steps;
    frame();
    if (state_.ceilings.holdsDevice) {
      ++heldFrames;
      if (state_.nbody.readings().steps != steps) ++steppedInHeldFrames;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_FALSE(state_.ceilings.measuring) << "not measured within 240 s: " << state_.ceilings.progress;
  EXPECT_GT(heldFrames, 0);
  EXPECT_EQ(steppedInHeldFrames, 0) << "the scene stepped beside a piece in " << steppedInHeldFrames << " of "
                                    << heldFrames << " frames";
  EXPECT_GT(state_.nbody.readings().steps, stepsBefore) << "the scene never stepped between pieces";
  EXPECT_FALSE(state_.ceilings.holdsDevice);
  for (const CeilingFigure& f : state_.ceilings.measured.figures)
    if (f.error.rfind("not available", 0) != 0) {
      EXPECT_EQ(f.error, "");
      EXPECT_GT(f.value, 0.0) << f.method;
    }
}

// A window frame waited (SharedBufferPair::beginUpdate) for the N-body steps the frame
// before launched, however long they took: on PoCL with thousands of bodies under load,
// frames of 0.4-17 s (issue 22). Now it waits AppOptions::nbodyStepWaitMs at most, then
// draws the positions it has and launches no more. The scene's queue held closed
// stands for steps that take long.
class WindowStepPacingTest : public test::SessionFixture {
 protected:
  WindowStepPacingTest() : SessionFixture(320, 240, 256) {}
  void configure() override { options_.nbodyStepWaitMs = AppOptions{}.nbodyStepWaitMs; }
};

TEST_F(WindowStepPacingTest, AFrameDrawsWhatItHasWhileTheLastStepsStillRun) {
  frameUntilIdle();
  ASSERT_FALSE(state_.nbody.choices.paused);
  const unsigned long long stepsBefore = state_.nbody.readings().steps;
  unsigned long long launched = 0;
  {
    QueueGate gate(session_->compute().context(), session_->compute().queue().get());
    frame();  // launches its steps behind the gate
    launched = state_.nbody.readings().steps;
    EXPECT_GT(launched, stepsBefore);
    int frames = 0;
    for (; frames < 10 && !gate.openedByWatchdog(); ++frames) frame();
    EXPECT_FALSE(gate.openedByWatchdog()) << "a frame waited for the steps behind the gate, after " << frames
                                          << " frames";
    EXPECT_EQ(state_.nbody.readings().steps, launched) << "a frame launched steps before the last ones ran";
  }
  // The gate open, the steps run and the frames launch again.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (state_.nbody.readings().steps == launched && std::chrono::steady_clock::now() < deadline) frame();
  EXPECT_GT(state_.nbody.readings().steps, launched) << "no steps after the gate opened";
  EXPECT_GT(state_.nbody.readings().stepsPerSecond, 0.0);
}

}  // namespace
}  // namespace ks
