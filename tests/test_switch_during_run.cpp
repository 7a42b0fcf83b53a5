// Requests that replace the running scene or what it runs on, made while the
// scene's work still runs on another thread (issue 22): a device switch during
// the image lab's run on a CPU device. It used to wait for that work in the frame
// that took the request (1-2 s on PoCL);
// now Session::applyRequests puts the request off, frames going on, and acts on it
// once the work has finished. PoCL is made to list two CPU devices (pthread and
// basic) so that there is a device to switch to.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "app/app_state.h"
#include "gradient_picture.h"
#include "session_fixture.h"

namespace ks {
namespace {

const bool kBothPoclDevices = [] {
  setenv("POCL_DEVICES", "pthread basic", 1);  // before the ICD loader first runs
  return true;
}();

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

class SwitchDuringRunTest : public test::SessionFixture {
 protected:
  SwitchDuringRunTest() : SessionFixture(320, 240, 256) {}
  // The issue's ~100 ms with room for a loaded 2-core machine: the test runs alone,
  // but the work it waits for (a run, two devices' builds) takes both cores, and
  // other jobs may share the machine (a frame measured 163 ms there). The old code
  // switched in the frame that took the request, waiting 0.5-2 s: that is what
  // fails without the gate, whatever this bound.
  static constexpr double kFrameBoundMs = 300.0;
  static constexpr double kRunMs = 1500.0;  // an image-lab run this long at least
  static constexpr int kMaxWidth = 6400;

  void SetUp() override {
    SessionFixture::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    for (size_t i = 0; i < state_.devices.size(); ++i)
      if (state_.devices[i].kind == DeviceKind::Cpu) cpus_.push_back(i);
    if (cpus_.size() < 2) GTEST_SKIP() << "fewer than two CPU OpenCL devices listed";
    if (state_.activeDevice != cpus_[0]) {
      state_.commands.push(SwitchDevice{cpus_[0]});
      frameUntilIdle();  // the new device's kernels are built off the frame first
      ASSERT_EQ(state_.activeDevice, cpus_[0]) << state_.deviceMessage;
    }
  }
  void TearDown() override {
    SessionFixture::TearDown();
    for (const std::string& f : files_) std::remove(f.c_str());
  }
  std::string writePicture(int w, int h) {
    const std::string path = ::testing::TempDir() + "ks-switch-" + std::to_string(w) + "x" + std::to_string(h) + "-" +
                             std::to_string(files_.size()) + ".ppm";
    test::writeGradientPpm(path, w, h);
    files_.push_back(path);
    return path;
  }
  double lastRunMs() const {
    return state_.image.readings().rotateMs + state_.image.readings().transposeMs + state_.image.readings().histogramMs;
  }
  // A picture whose run takes about kRunMs on the running device, open.
  void openPictureForALongRun() {
    int w = 800;
    for (int attempt = 0; attempt < 4; ++attempt) {
      const std::string path = writePicture(w, w * 2 / 3);
      state_.commands.push(OpenImages{{path}});
      frameUntilIdle();
      ASSERT_EQ(state_.image.readings().path, path) << state_.image.readings().message;
      if (lastRunMs() >= kRunMs / 2 || w >= kMaxWidth) return;
      w = std::clamp(static_cast<int>(w * std::sqrt(kRunMs / std::max(lastRunMs(), 1e-3))), w + 1, kMaxWidth);
    }
  }
  // Frames (paced like a 200 Hz display) until `until`; the longest of those after
  // which `switched` was still false (the frames the request waited through).
  template <typename Until, typename Switched>
  double longestFrameMs(Until until, Switched switched, int* frames) {
    double longest = 0.0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    *frames = 0;
    firstFrameMs_ = -1.0;
    while (!until() && std::chrono::steady_clock::now() < deadline) {
      const auto t = std::chrono::steady_clock::now();
      frame();
      if (firstFrameMs_ < 0.0) firstFrameMs_ = msSince(t);
      if (!switched()) longest = std::max(longest, msSince(t)), ++*frames;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_TRUE(until()) << "not done within 90 s";
    return longest;
  }
  bool logSays(const std::string& text) const {
    return std::any_of(state_.log.begin(), state_.log.end(),
                       [&](const auto& line) { return std::string(line).find(text) != std::string::npos; });
  }
  std::vector<size_t> cpus_;
  std::vector<std::string> files_;
  double firstFrameMs_ = -1.0;  // the frame that took the request
};

// The image lab's run in flight on one CPU device, the other device asked for: the
// frames go on (none waits for the run) until the run has finished, then the switch
// happens and the lab opens its picture again on the new device.
TEST_F(SwitchDuringRunTest, DeviceSwitchWaitsForTheImageRunWithoutHoldingFrames) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  openPictureForALongRun();
  if (HasFatalFailure()) return;
  const double runMs = lastRunMs();
  const std::string path = state_.image.readings().path;
  state_.image.choices.angle += 17.0f;
  frame();
  ASSERT_TRUE(state_.image.readings().runInFlight);
  state_.commands.push(SwitchDevice{cpus_[1]});
  const auto asked = std::chrono::steady_clock::now();
  int frames = 0;
  const double longest = longestFrameMs([&] { return state_.activeDevice == cpus_[1] && msSince(asked) > runMs; },
                                        [&] { return state_.activeDevice == cpus_[1]; }, &frames);
  ASSERT_EQ(state_.activeDevice, cpus_[1]) << state_.deviceMessage;
  EXPECT_GT(runMs, 2 * kFrameBoundMs) << state_.image.readings().width << "x" << state_.image.readings().height;
  EXPECT_GE(frames, 2) << "the frame that took the request switched: it waited for the run";
  EXPECT_LT(longest, kFrameBoundMs) << "the longest of " << frames << " frames before the switch; a run: " << runMs
                                    << " ms";
  EXPECT_TRUE(logSays("once the work under way has finished"));
  std::printf("device switch during a %.0f ms image run: the frame that took the request %.1f ms, the longest of %d "
              "frames before the switch %.1f ms\n",
              runMs, firstFrameMs_, frames, longest);
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().path, path)
      << "the lab opens its picture again: " << state_.image.readings().message;
}

// A copy of kernels/ whose `files` end in a comment of their own, so that their
// programs compile for the first time (PoCL keeps a kernel cache of its own, which
// would otherwise make a build from an earlier run quick).
std::filesystem::path freshKernels(const std::filesystem::path& from, std::initializer_list<const char*> files) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("ks-fresh-kernels-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::copy(from, dir);
  const std::string unique = "\n// " + std::to_string(std::chrono::system_clock::now().time_since_epoch().count()) + "\n";
  for (const char* file : files) std::ofstream(dir / file, std::ios::app) << unique;
  return dir;
}

// A rotation and a histogram variant never built before, chosen in the image lab:
// their programs compile on worker threads (230-480 ms on PoCL, in the frame
// before); frames go on meanwhile, the panel saying which kernel builds, and the
// new variants run once they are built.
class ImageKernelBuildTest : public SwitchDuringRunTest {
 protected:
  void configure() override {
    kernels_ = freshKernels(*options_.kernelsDir, {"rotate.cl", "transpose.cl", "histogram.cl"});
    options_.kernelsDir = kernels_;
  }
  void SetUp() override { test::SessionFixture::SetUp(); }
  void TearDown() override {
    SwitchDuringRunTest::TearDown();
    std::filesystem::remove_all(kernels_);
  }
  std::filesystem::path kernels_;
};

TEST_F(ImageKernelBuildTest, ANewVariantBuildsOffTheFrame) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  const std::string path = writePicture(400, 300);
  state_.commands.push(OpenImages{{path}});
  frameUntilIdle();
  ASSERT_EQ(state_.image.readings().path, path) << state_.image.readings().message;
  ImageLabState& lab = state_.image;
  ASSERT_EQ(lab.readings().runningRotate.find("nearest "), std::string::npos) << lab.readings().runningRotate;
  ASSERT_EQ(lab.readings().runningHistogram.find("subhist_uchar"), std::string::npos)
      << lab.readings().runningHistogram;
  // Three kernels at once: the frame that chose them used to compile five programs.
  lab.choices.transpose = true;
  lab.choices.transposeVariant = "naive";
  lab.choices.rotateVariant = "nearest";
  lab.choices.rotateGroup[0] = lab.choices.rotateGroup[1] = 8;
  lab.choices.rotateBlock[0] = lab.choices.rotateBlock[1] = 1;
  lab.choices.histogramVariant = "subhist_uchar";
  bool saidBuilding = false, resultShown = true;
  const std::string device = state_.devices[*state_.activeDevice].displayName();
  double longest = 0.0;
  int frames = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((lab.readings().runningRotate.rfind("nearest ", 0) != 0 || lab.readings().runInFlight) &&
         std::chrono::steady_clock::now() < deadline) {
    const auto t = std::chrono::steady_clock::now();
    frame();
    longest = std::max(longest, msSince(t));
    ++frames;
    saidBuilding =
        saidBuilding || (lab.readings().building.find("building kernel rotate nearest") != std::string::npos &&
                         lab.readings().building.find(" for " + device) != std::string::npos);
    resultShown = resultShown && lab.readings().hasResult;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(lab.readings().runningRotate.rfind("nearest ", 0), 0u) << lab.readings().runningRotate << "\n"
                                                                   << lab.readings().message;
  EXPECT_NE(lab.readings().runningHistogram.find("subhist_uchar"), std::string::npos)
      << lab.readings().runningHistogram;
  EXPECT_EQ(lab.readings().runningTranspose.rfind("naive", 0), 0u) << lab.readings().runningTranspose;
  std::printf("new rotation, transpose and histogram variants: the longest of %d frames until they ran %.1f ms\n", frames, longest);
  EXPECT_TRUE(saidBuilding) << "the panel said the kernel was building, and for which device";
  EXPECT_TRUE(resultShown) << "the last result stayed shown while the kernels built";
  EXPECT_GE(frames, 2) << "built in the frame that chose it";
  EXPECT_LT(longest, kFrameBoundMs) << "the longest of " << frames << " frames";
  EXPECT_TRUE(lab.readings().building.empty()) << lab.readings().building;
}

// A device switch: the new device's context is made at once, its kernels (the
// N-body step and the energy meter, compiled for the first time) are built on worker
// threads while the old device's scene steps on, the Devices panel saying so; the
// bodies move over once they are built. The frame that switched used to build them
// (2 s in a window on PoCL).
class DeviceSwitchBuildTest : public SwitchDuringRunTest {
 protected:
  void configure() override {
    kernels_ = freshKernels(*options_.kernelsDir, {"nbody.cl", "nbody_invariants.cl"});
    options_.kernelsDir = kernels_;
  }
  void TearDown() override {
    SwitchDuringRunTest::TearDown();
    std::filesystem::remove_all(kernels_);
  }
  std::filesystem::path kernels_;
};

TEST_F(DeviceSwitchBuildTest, TheNewDevicesKernelsBuildOffTheFrame) {
  ASSERT_EQ(state_.scene, SceneKind::NBody);
  frameUntilIdle();
  const unsigned long long stepsBefore = state_.nbody.readings().steps;
  state_.commands.push(SwitchDevice{cpus_[1]});
  const std::string name = state_.devices[cpus_[1]].displayName();
  bool saidSwitching = false;
  unsigned long long stepsWhileBuilding = 0;
  int frames = 0;
  const double longest = longestFrameMs(
      [&] {
        saidSwitching = saidSwitching || (state_.preparing.find("switching to " + name) != std::string::npos &&
                                          state_.preparing.find("building kernel n-body") != std::string::npos);
        if (state_.activeDevice != cpus_[1]) stepsWhileBuilding = state_.nbody.readings().steps;
        return state_.activeDevice == cpus_[1];
      },
      [] { return false; }, &frames);
  ASSERT_EQ(state_.activeDevice, cpus_[1]) << state_.deviceMessage;
  std::printf("device switch: the longest of %d frames until the new device ran, the switch's included: %.1f ms\n",
              frames, longest);
  EXPECT_TRUE(saidSwitching) << "the status said which kernels build for which device";
  EXPECT_GE(frames, 2) << "switched in the frame that took the request: it built the kernels there";
  EXPECT_GT(stepsWhileBuilding, stepsBefore) << "the old device's scene stepped on while the kernels built";
  EXPECT_LT(longest, kFrameBoundMs) << "the longest of " << frames << " frames";
  EXPECT_NE(state_.deviceMessage.find("switched to " + name), std::string::npos) << state_.deviceMessage;
  EXPECT_TRUE(state_.preparing.empty()) << state_.preparing;
  for (int i = 0; i < 5; ++i) frame();
  EXPECT_GT(state_.nbody.readings().steps, stepsWhileBuilding) << "the new device steps";
}

// Opening the image lab on a device whose display program (kernels/display.cl, the
// pictures' conversion and levels, the histogram's plot) was never built: it compiles
// on worker threads while the N-body scene steps on, the status bar saying so, and
// the lab opens once it is built. The frame that opened the lab used to compile it
// (about 2 s on PoCL with no cache).
class SceneOpenBuildTest : public SwitchDuringRunTest {
 protected:
  void configure() override {
    kernels_ = freshKernels(*options_.kernelsDir, {"display.cl"});
    options_.kernelsDir = kernels_;
  }
  void SetUp() override { test::SessionFixture::SetUp(); }
  void TearDown() override {
    SwitchDuringRunTest::TearDown();
    std::filesystem::remove_all(kernels_);
  }
  std::filesystem::path kernels_;
};

TEST_F(SceneOpenBuildTest, TheImageLabsDisplayKernelsBuildOffTheFrame) {
  ASSERT_EQ(state_.scene, SceneKind::NBody);
  frameUntilIdle();
  const unsigned long long stepsBefore = state_.nbody.readings().steps;
  const std::string device = state_.devices[*state_.activeDevice].displayName();
  state_.commands.push(OpenScene{SceneKind::Image});
  bool saidBuilding = false;
  unsigned long long stepsWhileBuilding = 0;
  int frames = 0;
  const double longest = longestFrameMs(
      [&] {
        saidBuilding = saidBuilding || state_.preparing.find("opening the image lab: building kernel display for " +
                                                             device) != std::string::npos;
        if (state_.scene != SceneKind::Image) stepsWhileBuilding = state_.nbody.readings().steps;
        return state_.scene == SceneKind::Image;
      },
      [] { return false; }, &frames);
  ASSERT_EQ(state_.scene, SceneKind::Image) << state_.image.readings().message;
  std::printf("opening the image lab: the longest of %d frames until it opened, its opening included: %.1f ms\n",
              frames, longest);
  EXPECT_TRUE(saidBuilding) << "the status bar said which kernel builds for which device";
  EXPECT_GE(frames, 2) << "opened in the frame that asked for it: it built the display kernels there";
  EXPECT_GT(stepsWhileBuilding, stepsBefore) << "the N-body scene stepped on while the kernels built";
  EXPECT_LT(longest, kFrameBoundMs) << "the longest of " << frames << " frames";
  EXPECT_TRUE(state_.preparing.empty()) << state_.preparing;
  frameUntilIdle();
  EXPECT_TRUE(state_.image.readings().hasOriginal) << state_.image.readings().message;
}

}  // namespace
}  // namespace ks
