// The viewer's N-body step split over several devices (issue 24), on PoCL's CPU
// driver listed three times (POCL_DEVICES, set for this test in
// tests/CMakeLists.txt): the Session and scene as the frame loop drives them.
// Split from the start (--devices all) or switched 1 -> 3 -> 1 devices part way,
// the bodies end where one device alone puts them, bit for bit; the figures reach
// the state, the Profiler's rows and a recorded run; a request that cannot be
// met says why and changes nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <string>
#include <utility>
#include <vector>

#include "app/run_recorder.h"
#include "compute/work_model.h"
#include "session_fixture.h"
#include "test_support.h"

namespace ks {
namespace {

constexpr size_t kBodies = 1100;  // not a multiple of any work-group: padded, uneven slices

AppOptions splitOptions() {
  AppOptions options = test::smallSessionOptions(kBodies);
  options.platform = "portable";  // PoCL, where POCL_DEVICES makes three devices
  return options;
}

class NBodySplitViewer : public test::SessionFixture {
 protected:
  NBodySplitViewer() : SessionFixture(320, 240, kBodies) {}
  void configure() override {
    options_ = splitOptions();
    if (splitFromStart_) options_.nbody.devices = DeviceListRequest{};  // --devices all
  }
  void SetUp() override {
    SessionFixture::SetUp();
    if (HasFailure() || IsSkipped()) return;
    size_t onPlatform = 0;
    for (const DeviceDescriptor& d : state_.devices)
      onPlatform += d.platformIndex == state_.devices[*state_.activeDevice].platformIndex && d.available;
    if (onPlatform < 3)
      KS_NEED("opencl", "PoCL lists " + std::to_string(onPlatform) +
                            " devices for POCL_DEVICES='pthread pthread pthread' (3 needed)");
  }
  // The same preset stepped `frames` frames on the display device alone, in a
  // session of its own.
  NBodySystem oneDeviceAfter(int frames) {
    AppState state;
    DeviceCatalog catalog = requireDevices();
    test::putKnownCeilings(state, catalog);  // as the fixture's session: every frame steps
    Session single(std::move(catalog), splitOptions(), Settings{}, *surface_, state);
    for (int i = 0; i < frames; ++i) {
      single.applyRequests(state);
      single.update(state, 1.0 / 60.0);
      single.draw(state, width_, height_);
    }
    EXPECT_FALSE(state.nbody.readings().split.active());
    EXPECT_EQ(state.nbody.readings().steps, static_cast<unsigned long long>(frames));
    return *single.snapshot();
  }
  std::vector<size_t> allOnPlatform() const {
    std::vector<size_t> out;
    for (size_t i = 0; i < state_.devices.size(); ++i)
      if (state_.devices[i].platformIndex == state_.devices[*state_.activeDevice].platformIndex)
        out.push_back(i);
    return out;
  }
  // Frames until the split asked for runs (its kernels build off the frame), at
  // most a generous minute on a loaded machine; returns whether it runs.
  bool framesUntilSplit() {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!state_.nbody.readings().split.active() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      frame();
    }
    return state_.nbody.readings().split.active();
  }
  bool splitFromStart_ = false;
};

class NBodySplitFromStart : public NBodySplitViewer {
 protected:
  NBodySplitFromStart() { splitFromStart_ = true; }
};

void expectSameBodies(const NBodySystem& got, const NBodySystem& want) {
  ASSERT_EQ(got.size(), want.size());
  size_t differ = 0;
  for (size_t i = 0; i < got.size(); ++i)
    differ += got.positions[i] != want.positions[i] || got.velocities[i] != want.velocities[i];
  EXPECT_EQ(differ, 0u) << "bodies whose position or velocity differs from one device's";
}

TEST_F(NBodySplitFromStart, StepsTheBodiesAsOneDeviceDoesBitForBit) {
  constexpr int kFrames = 6;
  for (int i = 0; i < kFrames; ++i) frame();
  const NBodySplitReadings& split = state_.nbody.readings().split;
  ASSERT_EQ(split.running.size(), 3u) << split.message;
  EXPECT_EQ(state_.nbody.readings().steps, static_cast<unsigned long long>(kFrames));
  const NBodySystem bodies = *session_->snapshot();
  for (const auto& p : bodies.positions)
    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
  expectSameBodies(bodies, oneDeviceAfter(kFrames));
}

TEST_F(NBodySplitViewer, SwitchingOneThreeOneDevicesKeepsTheState) {
  frame();
  frame();
  state_.nbody.choices.split.requested = allOnPlatform();
  // The frame that asks does not wait for the devices' kernels: they build off
  // the frame while the display device steps on alone.
  frame();
  const NBodySplitReadings& split = state_.nbody.readings().split;
  EXPECT_FALSE(split.active()) << split.message;
  EXPECT_EQ(split.preparing, allOnPlatform());
  EXPECT_NE(split.message.find("preparing 3 devices"), std::string::npos) << split.message;
  EXPECT_EQ(state_.nbody.readings().steps, 3u);
  ASSERT_TRUE(framesUntilSplit()) << split.message;
  EXPECT_EQ(split.running.size(), 3u) << split.message;
  EXPECT_TRUE(split.preparing.empty());
  frame();
  frame();
  state_.nbody.choices.split.requested = std::vector<size_t>{*state_.activeDevice};
  frame();
  frame();
  EXPECT_FALSE(split.active()) << split.message;
  const unsigned long long steps = state_.nbody.readings().steps;
  EXPECT_GE(steps, 8u);
  expectSameBodies(*session_->snapshot(), oneDeviceAfter(static_cast<int>(steps)));
}

// The split steps a frame behind, as one device does: a frame launches its steps
// and shows those the last frame launched, so the frame that starts the split has
// no timings yet and the next has the last frame's. Two steps a frame, a pause
// (the last launched step shows once done), and the switch back to one device
// with a step in flight: the bodies are one device's after as many steps.
TEST_F(NBodySplitViewer, StepsAFrameBehindThroughSwitchesOneThreeOne) {
  frame();
  state_.nbody.choices.stepsPerFrame = 2;
  frame();
  state_.nbody.choices.split.requested = allOnPlatform();
  const NBodySplitReadings& split = state_.nbody.readings().split;
  ASSERT_TRUE(framesUntilSplit()) << split.message;
  EXPECT_EQ(split.timedFrames, 0u) << "the steps launched by the split's first frame run on after it";
  const unsigned long long launched = state_.nbody.readings().steps;
  frame();
  EXPECT_EQ(split.timedFrames, 1u);
  EXPECT_EQ(state_.nbody.readings().steps, launched + 2);
  ASSERT_EQ(split.deviceKernelMs.size(), 3u);
  ASSERT_EQ(split.deviceOtherMs.size(), 3u);
  for (double ms : split.deviceOtherMs) EXPECT_TRUE(std::isfinite(ms) && ms >= 0.0) << ms;
  frame();
  // Paused, the step in flight completes once it is done, with no new step.
  state_.nbody.choices.paused = true;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  const unsigned long long timed = split.timedFrames;
  while (split.timedFrames == timed && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    frame();
  }
  EXPECT_EQ(split.timedFrames, timed + 1) << "the paused frame shows the last step";
  state_.nbody.choices.paused = false;
  frame();
  frame();
  state_.nbody.choices.split.requested = std::vector<size_t>{*state_.activeDevice};
  frame();  // joins with the last frame's step in flight
  EXPECT_FALSE(split.active()) << split.message;
  frame();
  const unsigned long long steps = state_.nbody.readings().steps;
  EXPECT_GE(steps, 14u);
  expectSameBodies(*session_->snapshot(), oneDeviceAfter(static_cast<int>(steps)));
}

// The app on a private copy of kernels/, so that a test can break a file after
// the display device built it.
class NBodySplitOwnKernels : public NBodySplitViewer {
 protected:
  void configure() override {
    NBodySplitViewer::configure();
    std::filesystem::copy(KERNELSCOPE_SOURCE_KERNELS_DIR, kernels_, std::filesystem::copy_options::recursive);
    options_.kernelsDir = kernels_;
  }
  test::TempDir dir_;
  std::filesystem::path kernels_ = dir_ / "kernels";
};

TEST_F(NBodySplitOwnKernels, AStartWhoseBuildFailsSaysWhyAndTheBodiesGoOnAlone) {
  frame();
  // The split's devices read nbody.cl when they build: now it does not compile.
  test::writeFile(kernels_ / "nbody.cl", test::readFile(kernels_ / "nbody.cl") + "\nthis is not OpenCL C\n");
  state_.nbody.choices.split.requested = allOnPlatform();
  frame();
  const NBodySplitReadings& split = state_.nbody.readings().split;
  EXPECT_EQ(split.preparing.size(), 3u) << split.message;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!split.preparing.empty() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    frame();
  }
  EXPECT_TRUE(split.preparing.empty());
  EXPECT_FALSE(split.active());
  EXPECT_NE(split.message.find("cannot split the N-body step"), std::string::npos) << split.message;
  EXPECT_NE(split.message.find("still on"), std::string::npos) << split.message;
  EXPECT_FALSE(state_.buildFailures.empty());
  const unsigned long long steps = state_.nbody.readings().steps;
  EXPECT_GE(steps, 2u);
  frame();
  EXPECT_EQ(state_.nbody.readings().steps, steps + 1) << "it steps on alone";
}

TEST_F(NBodySplitFromStart, EnergyAndMomentaAreMeasuredWhileSplit) {
  const NBodyConservationReadings& c = state_.nbody.readings().conservation;
  state_.nbody.choices.conservation.everySteps = 2;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  frame();
  ASSERT_EQ(state_.nbody.readings().split.running.size(), 3u) << state_.nbody.readings().split.message;
  while (c.energyDrift.size() < 3 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    frame();
  }
  EXPECT_TRUE(c.unavailable.empty()) << c.unavailable;
  ASSERT_TRUE(c.hasDrift) << "no measurement after the baseline while split";
  EXPECT_GE(c.energyDrift.size(), 3u);
  EXPECT_GT(c.lastStep, c.baselineStep);
  EXPECT_GT(c.kernelMs, 0.0);
  for (float d : c.energyDrift) {
    ASSERT_TRUE(std::isfinite(d));
    EXPECT_LT(std::abs(d), 1e-3) << "a few steps of the preset drift far less";
  }
  EXPECT_TRUE(std::isfinite(c.drift.momentum) && std::isfinite(c.drift.angularMomentum));
}

TEST_F(NBodySplitFromStart, FiguresReachTheStateAndARecordedRun) {
  RunRecorder recorder;
  RecordingState& rec = state_.runs.recording;
  rec.frames = 4;
  rec.warmup = 1;
  state_.commands.push(StartRecording{});
  for (int i = 0; i < 8 && state_.runs.runs.empty(); ++i) {
    frame();
    recorder.onFrame(state_, 20.0, session_->compute());
  }
  const NBodySplitReadings& split = state_.nbody.readings().split;
  ASSERT_EQ(split.running.size(), 3u) << split.message;
  ASSERT_EQ(split.deviceKernelMs.size(), 3u);
  ASSERT_EQ(split.sliceBodies.size(), 3u);
  size_t bodies = 0;
  for (size_t d = 0; d < 3; ++d) {
    EXPECT_GT(split.deviceKernelMs[d], 0.0) << "device " << d;
    bodies += split.sliceBodies[d];
  }
  EXPECT_GE(bodies, kBodies);
  EXPECT_GT(split.stepMs, 0.0);
  EXPECT_GT(split.loadBalance, 0.0);
  EXPECT_LE(split.loadBalance, 1.0);
  EXPECT_GT(state_.nbody.readings().kernelMs, 0.0) << "the Profiler's n-body step series";
  // The timed kernel is one device's slice: a third of the step's work, so that the
  // roofline's fraction is of one device's ceiling (a whole step's work over one
  // device's time read 152 % of the H200's FP32 ceiling on two GPUs).
  ASSERT_FALSE(state_.activeKernels.empty());
  const KernelWork whole = nbodyStepWork(state_.nbody.readings().runningBodies, state_.nbody.readings().runningConfig);
  EXPECT_NEAR(state_.activeKernels.front().work.fp32Instructions, whole.fp32Instructions / 3.0,
              whole.fp32Instructions * 1e-12);
  EXPECT_NEAR(state_.activeKernels.front().work.rsqrtOps, whole.rsqrtOps / 3.0, whole.rsqrtOps * 1e-12);

  ASSERT_EQ(state_.runs.runs.size(), 1u) << rec.status;
  const RunSplit& run = state_.runs.runs.back().m.split;
  EXPECT_EQ(run.devices, 3);
  ASSERT_EQ(run.deviceKernelMs.size(), 3u);
  for (double ms : run.deviceKernelMs) EXPECT_GT(ms, 0.0);
  EXPECT_GE(run.exchangeMs, 0.0);
  EXPECT_GT(run.loadBalance, 0.0);
  EXPECT_LE(run.loadBalance, 1.0);
  EXPECT_GT(run.parallelEfficiency, 0.0);
  EXPECT_NE(state_.runs.runs.back().name.find("on 3 devices"), std::string::npos) << state_.runs.runs.back().name;
}

TEST_F(NBodySplitFromStart, ARequestThatCannotBeMetSaysWhyAndKeepsTheSplit) {
  frame();
  frame();
  const std::vector<size_t> running = state_.nbody.readings().split.running;
  ASSERT_EQ(running.size(), 3u) << state_.nbody.readings().split.message;
  const NBodySystem before = *session_->snapshot();
  state_.nbody.choices.paused = true;  // nothing moves: the state must be the same after the refusal
  state_.nbody.choices.split.requested = std::vector<size_t>{running[0], state_.devices.size() + 5};
  frame();
  EXPECT_EQ(state_.nbody.readings().split.running, running);
  const std::string& message = state_.nbody.readings().split.message;
  EXPECT_NE(message.find("cannot split the N-body step"), std::string::npos) << message;
  EXPECT_NE(message.find("there is no device"), std::string::npos) << message;
  EXPECT_NE(message.find("still split over"), std::string::npos) << message;
  EXPECT_FALSE(state_.log.empty());
  expectSameBodies(*session_->snapshot(), before);
  state_.nbody.choices.paused = false;
  frame();
  EXPECT_EQ(state_.nbody.readings().steps, 3u) << "it steps on after the refusal";
}

}  // namespace
}  // namespace ks
