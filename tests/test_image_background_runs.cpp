// The image lab on a CPU device: a run of a large picture (rotate, histogram, the
// picture for GL) takes far longer than a frame, so it goes to the scene's worker
// thread and frames only poll (issue 22: a 3000x2000 picture spinning held every
// frame for a whole run, about 1 FPS). PoCL is made to list both of its CPU
// devices: pthread runs commands on threads of its own, basic runs a kernel inside
// clEnqueueNDRangeKernel on the caller's thread; neither may hold a frame.
#include <gtest/gtest.h>
#include <stb_image.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "app/app_state.h"
#include "app/lab_renderer.h"
#include "compute/interop/interop.h"
#include "compute/image_reference.h"
#include "compute/image_rotate.h"
#include "compute/rotate_coverage.h"
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

// A picture file as the lab holds it: gray stays gray, anything else becomes RGBA.
HostImage readPicture(const std::string& file) {
  int w = 0, h = 0, fileChannels = 0;
  if (!stbi_info(file.c_str(), &w, &h, &fileChannels)) return {};
  const int channels = fileChannels == 1 ? 1 : 4;
  unsigned char* data = stbi_load(file.c_str(), &w, &h, &fileChannels, channels);
  if (!data) return {};
  HostImage image(ImageLayout{w, h, channels});
  std::copy_n(data, image.data.size(), image.data.begin());
  stbi_image_free(data);
  return image;
}

// The largest difference of two pictures' bytes, or a line saying why they cannot be compared.
std::string differenceOver(const HostImage& got, const HostImage& want, int tolerance) {
  if (!(got.layout == want.layout))
    return "layout " + describeImageLayout(got.layout) + ", expected " + describeImageLayout(want.layout);
  size_t worst = 0;
  int worstDifference = 0;
  for (size_t i = 0; i < got.data.size(); ++i) {
    const int d = std::abs(int(got.data[i]) - int(want.data[i]));
    if (d > worstDifference) worstDifference = d, worst = i;
  }
  if (worstDifference <= tolerance) return {};
  return "byte " + std::to_string(worst) + " differs by " + std::to_string(worstDifference);
}

class ImageBackgroundRunsTest : public test::SessionFixture {
 protected:
  ImageBackgroundRunsTest() : SessionFixture(320, 240, 256) {}
  // What a frame may spend on the lab's own work: the issue's ~100 ms, with some room
  // for a 2-core machine. The test runs alone (RUN_SERIAL): beside the suite a frame
  // doing nothing but polling was measured at up to 210 ms; alone, the longest frame
  // was 44-109 ms. The old code's frames took a whole run: 1900-2500 ms.
  static constexpr double kFrameBoundMs = 150.0;
  // Under AddressSanitizer (scripts/test-hardening.sh) the frame's own host work is
  // instrumented: copying a 6400x4266 result into GL there took one frame 214 ms. The
  // old code's frames still took a whole run (over 700 ms), so the check keeps its point.
#if defined(__SANITIZE_ADDRESS__)
  static constexpr double kFrameLimitMs = 2 * kFrameBoundMs;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  static constexpr double kFrameLimitMs = 2 * kFrameBoundMs;
#else
  static constexpr double kFrameLimitMs = kFrameBoundMs;
#endif
#else
  static constexpr double kFrameLimitMs = kFrameBoundMs;
#endif
  // A run this long, at least: well over the bound wherever the test runs.
  static constexpr double kRunMs = 1500.0;

  void TearDown() override {
    for (const std::string& f : files_) std::remove(f.c_str());
    SessionFixture::TearDown();
  }
  // A binary PPM of `w` x `h` with fine detail (rotations then differ from pixel to pixel).
  std::string writePicture(int w, int h) {
    const std::string path = ::testing::TempDir() + "ks-background-" + std::to_string(w) + "x" + std::to_string(h) +
                             "-" + std::to_string(files_.size()) + ".ppm";
    test::writeGradientPpm(path, w, h);
    files_.push_back(path);
    return path;
  }
  void open(const std::string& path) {
    state_.commands.push(OpenImages{{path}});
    frameUntilIdle();
    ASSERT_EQ(state_.image.readings().path, path) << state_.image.readings().message;
  }
  // Device milliseconds of the last run shown.
  double lastRunMs() const {
    return state_.image.readings().rotateMs + state_.image.readings().transposeMs + state_.image.readings().histogramMs;
  }
  // A picture whose run on this device takes about kRunMs, open: sized from
  // measured runs (a small picture's time is noisy, so measured again once).
  std::string openPictureForALongRun() {
    int w = 800;
    std::string path = writePicture(w, w * 2 / 3);
    open(path);
    for (int attempt = 0; attempt < 3 && lastRunMs() < kRunMs / 2 && w < kMaxWidth; ++attempt) {
      const double scale = std::sqrt(kRunMs / std::max(lastRunMs(), 1e-3));
      w = std::clamp(static_cast<int>(w * scale), w + 1, kMaxWidth);
      path = writePicture(w, w * 2 / 3);
      open(path);
    }
    return path;
  }
  static constexpr int kMaxWidth = 6400;
  // Frames (paced like a 200 Hz display) while `until` is false; the longest one.
  template <typename Until>
  double longestFrameMs(Until until, int* frames = nullptr) {
    double longest = 0.0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    int n = 0;
    while (!until() && std::chrono::steady_clock::now() < deadline) {
      const auto t = std::chrono::steady_clock::now();
      frame();
      longest = std::max(longest, msSince(t));
      ++n;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_TRUE(until()) << "not done within 60 s";
    if (frames) *frames = n;
    return longest;
  }
  // Each CPU device PoCL lists, made the running one in turn.
  template <typename Body>
  void onEachCpuDevice(Body body) {
    int tried = 0;
    for (size_t i = 0; i < state_.devices.size(); ++i) {
      if (state_.devices[i].kind != DeviceKind::Cpu) continue;
      if (state_.activeDevice != i) {
        state_.commands.push(SwitchDevice{i});
        frameUntilIdle();  // the new device's kernels are built off the frame first
        ASSERT_EQ(state_.activeDevice, i) << state_.deviceMessage;
      }
      SCOPED_TRACE(state_.devices[i].displayName());
      body();
      if (::testing::Test::HasFatalFailure()) return;
      ++tried;
    }
    if (tried == 0) GTEST_SKIP() << "no CPU OpenCL device listed";
  }
  // The spin stopped at `degrees`: once idle, the saved result is the CPU reference's
  // rotation of `path`, and the statistics count its pixels but the fill (issue 22).
  void expectStoppedSpinShowsTheReference(const std::string& path, float degrees) {
    ImageLabState& lab = state_.image;
    lab.choices.spin = false;
    lab.choices.angle = degrees;
    frameUntilIdle();
    EXPECT_FALSE(lab.readings().runInFlight);
    const std::string saved = ::testing::TempDir() + "ks-background-result.png";
    files_.push_back(saved);
    lab.choices.savePath = saved;
    state_.commands.push(SaveImageResult{});
    frameUntilIdle();
    ASSERT_EQ(lab.readings().message, "saved the result to " + saved);
    const HostImage original = readPicture(path);
    const HostImage result = readPicture(saved);
    ASSERT_GT(original.data.size(), 0u) << path;
    ASSERT_GT(result.data.size(), 0u) << saved;
    RotateParams params;
    params.degrees = degrees;
    for (int i = 0; i < 4; ++i)
      params.background[i] =
          static_cast<uint8_t>(std::lround(std::clamp(lab.choices.background[i], 0.0f, 1.0f) * 255.0f));
    const ImageRotateVariant* variant = findImageRotateVariant(
        lab.choices.rotateVariant.empty() ? lab.readings().defaultRotate.variant : lab.choices.rotateVariant);
    ASSERT_TRUE(variant);
    EXPECT_EQ(differenceOver(result, rotateReference(original, params, variant->sampling), variant->exact ? 0 : 1),
              "")
        << variant->name;
    ASSERT_FALSE(lab.readings().statistics.channels.empty());
    const uint64_t fill = rotateFillPixelCount(original.layout, params, variant->sampling);
    EXPECT_GT(fill, 0u);
    EXPECT_EQ(lab.readings().histogramLeftOut, fill);
    EXPECT_EQ(lab.readings().statistics.channels[0].count, uint64_t(result.layout.pixels()) - fill);
  }
  std::vector<std::string> files_;
};

// Switching to the N-body scene while a long run is in flight (issue 22: the switch
// waited for the run, 1-2 s on PoCL): the switch is put off until the run has
// finished, frames going on meanwhile; the lab comes back with its picture. The
// frame that switches still closes the lab (a big picture's GL objects) and opens
// the N-body scene (its program from the cache here: each device ran it before), so
// it is bound by half a run, not by a frame's budget.
TEST_F(ImageBackgroundRunsTest, SwitchingSceneDoesNotWaitForTheRunInFlight) {
  onEachCpuDevice([&] {
    ImageLabState& lab = state_.image;
    state_.commands.push(OpenScene{SceneKind::NBody});
    frameUntilIdle();
    state_.commands.push(OpenScene{SceneKind::Image});
    frameUntilIdle();
    const std::string path = openPictureForALongRun();
    const double runMs = lastRunMs();
    lab.choices.angle += 17.0f;  // a new angle on each device
    frame();
    ASSERT_TRUE(lab.readings().runInFlight);
    state_.commands.push(OpenScene{SceneKind::NBody});
    const auto switched = std::chrono::steady_clock::now();
    int frames = 0;
    // Until the switch has happened (the run in flight may take longer than the one
    // measured, on a loaded machine) and the N-body scene has run for a while.
    const double longest = longestFrameMs(
        [&] { return state_.scene == SceneKind::NBody && msSince(switched) > 1.5 * runMs; }, &frames);
    EXPECT_EQ(state_.scene, SceneKind::NBody);
    // The test means something only where a run takes far longer than a frame may.
    EXPECT_GT(runMs, 3 * kFrameBoundMs) << lab.readings().width << "x" << lab.readings().height;
    EXPECT_LT(longest, runMs / 2) << "the longest of " << frames << " frames after the switch; a run: " << runMs
                                  << " ms";
    EXPECT_GT(state_.nbody.readings().steps, 0u) << "the N-body scene runs once the lab's run has finished";
    std::printf("switch during a %.0f ms run: the longest of %d frames after it %.1f ms\n", runMs, frames, longest);
    state_.commands.push(OpenScene{SceneKind::Image});
    frameUntilIdle();
    EXPECT_EQ(lab.readings().path, path) << "the lab opens its picture again";
  });
}

// The case: a big picture spinning. Each run takes over a second on the
// device; frames go on meanwhile and show the newest finished run; once the spin
// stops, what is shown is the CPU reference's rotation at the last angle.
TEST_F(ImageBackgroundRunsTest, NoFrameWaitsForARunOfABigSpinningPicture) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilSwitched();
  onEachCpuDevice([&] {
    ImageLabState& lab = state_.image;
    const std::string path = openPictureForALongRun();
    const double runMs = lastRunMs();
    lab.choices.spin = true;
    lab.choices.spinDegreesPerSecond = 30.0f;
    const unsigned long long shownBefore = lab.readings().timedRuns;
    int frames = 0;
    const double longest = longestFrameMs([&] { return lab.readings().timedRuns >= shownBefore + 3; }, &frames);
    // The test means something only where a run takes far longer than a frame may.
    EXPECT_GT(runMs, 3 * kFrameBoundMs) << lab.readings().width << "x" << lab.readings().height;
    EXPECT_LT(longest, kFrameLimitMs) << "the longest of " << frames << " frames; a run takes " << runMs << " ms";
    EXPECT_GT(frames, 3 * 3) << "frames went on while the runs ran";
    std::printf("%dx%d spinning: longest frame %.1f ms of %d, a run %.0f ms\n", lab.readings().width,
                lab.readings().height, longest, frames, runMs);

    expectStoppedSpinShowsTheReference(path, 33.0f);
  });
}

// Opening a big picture (issue 22: the upload and the first pictures of it held one
// frame ~800 ms): the file is decoded on the loader's thread and put on the device
// from the scene's worker; meanwhile the previous picture stays shown, and no frame
// waits for either. Once open, the pictures are the new file's.
TEST_F(ImageBackgroundRunsTest, OpeningABigPictureHoldsNoFrame) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilSwitched();
  onEachCpuDevice([&] {
    ImageLabState& lab = state_.image;
    // A photo of 10.7 million pixels (the old code held a frame about 320 ms opening it).
    // Its pictures are made on the frame loop's thread (GL), about 60 MB of buffers
    // that llvmpipe clears; the largest the lab takes (6400x4268) need about 200 ms.
    const int w = 4000, h = 2667;
    const std::string before = writePicture(w, h);
    open(before);
    const std::string next = writePicture(w, h + 2);  // another size: the pictures are made again
    state_.commands.push(OpenImages{{next}});
    int frames = 0;
    bool previousStayed = true;
    const double longest = longestFrameMs(
        [&] {
          if (lab.readings().path != next)
            previousStayed = previousStayed && lab.readings().path == before && lab.readings().hasOriginal &&
                             lab.readings().height == h;
          return lab.readings().path == next && !lab.readings().runInFlight && lab.readings().loadingPath.empty();
        },
        &frames);
    EXPECT_LT(longest, kFrameLimitMs) << "the longest of " << frames << " frames while opening " << w << "x" << h + 2;
    EXPECT_TRUE(previousStayed) << "the previous picture is shown until the new one is ready";
    EXPECT_EQ(lab.readings().height, h + 2);
    EXPECT_EQ(lab.readings().message.rfind("opened " + next, 0), 0u) << lab.readings().message;
    std::printf("opening %dx%d: longest frame %.1f ms of %d\n", w, h + 2, longest, frames);
    frameUntilIdle();
    ASSERT_FALSE(lab.readings().statistics.channels.empty());
    EXPECT_EQ(lab.readings().resultHeight, h + 2);
    EXPECT_EQ(lab.readings().statistics.channels[0].count, uint64_t(w) * uint64_t(h + 2))
        << "the new picture's histogram";
  });
}

// The result's smaller levels (issue 19: writing all of them cost a spinning
// 6000x4000 picture 0.1 ms a frame on an H200): a spinning result writes the level
// it is drawn from, and no level 0 when shrunk; once it stands still, a level drawn
// that it lacks (zoomed out) is filled in with every other, without running the
// kernels again.
TEST_F(ImageBackgroundRunsTest, ASpinningResultWritesTheLevelItIsDrawnFrom) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilSwitched();
  onEachCpuDevice([&] {
    ImageLabState& lab = state_.image;
    open(writePicture(301, 199));
    ASSERT_TRUE(lab.readings().renderer && lab.readings().renderer->image(Picture::Result));
    // What LabRenderer notes when the panels draw the result a quarter of its size
    // (the session fixture's frames build no panels).
    auto shown = [&] { return const_cast<SharedImage*>(lab.readings().renderer->image(Picture::Result)); };
    const PictureLevelMask every = (PictureLevelMask{1} << shown()->levelCount()) - 1;
    EXPECT_EQ(shown()->shownLevels() & every, every) << "a new result: every level";
    lab.choices.spin = true;
    lab.choices.spinDegreesPerSecond = 90.0f;
    const unsigned long long before = lab.readings().pipelineRuns;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (lab.readings().pipelineRuns < before + 4 && std::chrono::steady_clock::now() < deadline) {
      shown()->drawnAtLevel(2);
      frame();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_GE(lab.readings().pipelineRuns, before + 4);
    lab.choices.spin = false;
    frameUntilIdle();
    EXPECT_EQ(shown()->shownLevels(), PictureLevelMask{0b100}) << "spun: the level drawn alone";
    const unsigned long long runs = lab.readings().pipelineRuns;
    shown()->drawnAtLevel(4);  // zoomed out while standing still
    for (int i = 0; i < 50 && (shown()->shownLevels() & every) != every; ++i) {
      frame();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(shown()->shownLevels() & every, every) << "standing still, a missing level drawn: every level";
    EXPECT_EQ(lab.readings().pipelineRuns, runs) << "filled in without running the kernels again";
  });
}

// A run whose result has another size (the canvas expanded) writes a new picture:
// until the run is done, the last result stays shown, whole and at its own size
// (issue 22: a blank picture was suspected with the canvas expanding while spinning).
TEST_F(ImageBackgroundRunsTest, TheLastResultStaysShownWhileOneOfAnotherSizeIsMade) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilSwitched();
  onEachCpuDevice([&] {
    ImageLabState& lab = state_.image;
    lab.choices.expandCanvas = false;  // as the last device left it
    lab.choices.angle = 0.0f;
    openPictureForALongRun();
    const int w = lab.readings().resultWidth, h = lab.readings().resultHeight;
    lab.choices.expandCanvas = true;
    lab.choices.angle = 30.0f;
    frame();
    ASSERT_TRUE(lab.readings().runInFlight) << lab.readings().message;
    int framesInFlight = 0;
    while (lab.readings().runInFlight && framesInFlight < 20000) {
      ASSERT_TRUE(lab.readings().renderer && lab.readings().renderer->image(Picture::Result));
      const SharedImage& shown = *lab.readings().renderer->image(Picture::Result);
      ASSERT_EQ(shown.width(), w) << "a picture of another size is shown before its run is done";
      ASSERT_EQ(shown.height(), h);
      ASSERT_EQ(lab.readings().resultWidth, w);
      ++framesInFlight;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      frame();
    }
    EXPECT_GT(framesInFlight, 3);
    frameUntilIdle();
    EXPECT_GT(lab.readings().resultWidth, w) << "the expanded canvas";
    const SharedImage& shown = *lab.readings().renderer->image(Picture::Result);
    EXPECT_EQ(shown.width(), lab.readings().resultWidth);
    EXPECT_EQ(shown.height(), lab.readings().resultHeight);
  });
}

// While a run is in flight: another picture opened supersedes it (the newest
// wins, nothing of the old one is shown after), a scene switch is put off until it
// has finished (frames going on, the spin starting no new run meanwhile), the
// session's end waits for it cleanly (run under the sanitizers in
// scripts/test-hardening.sh).
TEST_F(ImageBackgroundRunsTest, ARunInFlightIsSupersededOrClosedCleanly) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilSwitched();
  onEachCpuDevice([&] {
    ImageLabState& lab = state_.image;
    const std::string big = openPictureForALongRun();
    lab.choices.angle += 10.0f;
    frame();
    ASSERT_TRUE(lab.readings().runInFlight);
    const std::string small = writePicture(61, 43);
    state_.commands.push(OpenImages{{small}});
    frameUntilIdle();
    EXPECT_EQ(lab.readings().path, small) << lab.readings().message;
    EXPECT_EQ(lab.readings().resultWidth, 61);
    EXPECT_EQ(lab.readings().resultHeight, 43);
    ASSERT_FALSE(lab.readings().statistics.channels.empty());
    // (Less the fill around the turned picture, which the histogram leaves out.)
    EXPECT_EQ(lab.readings().statistics.channels[0].count + lab.readings().histogramLeftOut, 61u * 43u)
        << "the histogram is the new picture's";

    open(big);
    lab.choices.spin = true;
    frame();
    frame();
    ASSERT_TRUE(lab.readings().runInFlight);
    state_.commands.push(OpenScene{SceneKind::NBody});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (state_.scene != SceneKind::NBody && std::chrono::steady_clock::now() < deadline) frame();
    ASSERT_EQ(state_.scene, SceneKind::NBody);
    EXPECT_FALSE(lab.readings().runInFlight);
    state_.commands.push(OpenScene{SceneKind::Image});
    frameUntilSwitched();
    ASSERT_EQ(state_.scene, SceneKind::Image);
    lab.choices.spin = false;
    frameUntilIdle();
    EXPECT_EQ(lab.readings().path, big);
    EXPECT_FALSE(lab.readings().runInFlight);
  });
  // The session ends with a run in flight.
  state_.image.choices.spin = true;
  frame();
  frame();
  EXPECT_TRUE(state_.image.readings().runInFlight);
}

// The forward (seed) rotation's fill count where the runs stay on the frame loop (a
// GPU): a pass over every source pixel, 100-112 ms for a 6000x4000 picture, which the
// frame that started the run used to count (issue 22). It is counted on a thread of
// its own; the histogram leaves the fill out once the count has arrived, exactly.
// PoCL's pthread device (which runs kernels on threads of its own, as a GPU does) is
// listed as a GPU here, so that the lab runs on the frame loop.
TEST_F(ImageBackgroundRunsTest, TheForwardRotationsFillIsCountedOffTheFrame) {
  size_t other = state_.devices.size();
  for (size_t i = 0; i < state_.devices.size(); ++i)
    if (state_.devices[i].kind == DeviceKind::Cpu && state_.devices[i].name.rfind("pthread", 0) == 0) other = i;
  if (other == state_.devices.size()) GTEST_SKIP() << "PoCL's pthread device is not listed";
  if (state_.activeDevice == other) {  // a context of its own, made with the device listed as a GPU
    for (size_t i = 0; i < state_.devices.size() && state_.activeDevice == other; ++i)
      if (i != other) {
        state_.commands.push(SwitchDevice{i});
        frameUntilIdle();
      }
    ASSERT_NE(state_.activeDevice, other) << state_.deviceMessage;
  }
  state_.devices[other].kind = DeviceKind::Gpu;
  state_.commands.push(SwitchDevice{other});
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  ASSERT_EQ(state_.activeDevice, other) << state_.deviceMessage;
  ASSERT_EQ(state_.scene, SceneKind::Image);
  ImageLabState& lab = state_.image;
  lab.choices.rotateVariant = "forward";
  lab.choices.angle = 10.0f;
  const int w = 6000, h = 4000;
  open(writePicture(w, h));
  ASSERT_EQ(lab.readings().width, w);

  RotateParams params;
  params.degrees = 33.0;
  for (int i = 0; i < 4; ++i)
    params.background[i] =
        static_cast<uint8_t>(std::lround(std::clamp(lab.choices.background[i], 0.0f, 1.0f) * 255.0f));
  const ImageLayout picture{w, h, 4};
  const auto countStart = std::chrono::steady_clock::now();
  const uint64_t fill = rotateFillPixelCount(picture, params, RotateSampling::Forward);
  const double countMs = msSince(countStart);

  lab.choices.angle = 33.0f;
  const unsigned long long runsBefore = lab.readings().pipelineRuns;
  double startingFrameMs = 0.0;
  for (int frames = 0; lab.readings().pipelineRuns == runsBefore && frames < 100; ++frames) {
    const auto t = std::chrono::steady_clock::now();
    frame();
    startingFrameMs = msSince(t);
  }
  ASSERT_GT(lab.readings().pipelineRuns, runsBefore) << lab.readings().message;
  // The frame that started the run returned with the count still under way (it counted
  // it before). Its time says little on PoCL, whose launches take the same cores.
  EXPECT_TRUE(lab.readings().runInFlight) << "the frame that started the run counted the fill";
  frameUntilIdle();
  std::printf("%dx%d forward rotation on the frame loop: the frame that started it %.1f ms, the fill count %.1f ms\n",
              w, h, startingFrameMs, countMs);
  EXPECT_FALSE(lab.readings().runInFlight);
  EXPECT_EQ(lab.readings().histogramLeftOut, fill);
  ASSERT_FALSE(lab.readings().statistics.channels.empty());
  EXPECT_EQ(lab.readings().statistics.channels[0].count, uint64_t(rotatedLayout(picture, params).pixels()) - fill);
}

}  // namespace
}  // namespace ks

namespace ks {
namespace {

// On a GPU the lab's runs are enqueued from the frame loop (no worker thread), which
// CI's CPU devices never take on their own. That path, run on each CPU device: a
// picture spinning for many frames, then the result at the last angle is the CPU
// reference's and so is its histogram.
class ImageFrameLoopRunsTest : public ImageBackgroundRunsTest {
 protected:
  void configure() override { options_.imageRunsOnWorker = false; }
};

TEST_F(ImageFrameLoopRunsTest, FrameLoopRunsGiveTheReferenceResult) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilSwitched();
  onEachCpuDevice([&] {
    ImageLabState& lab = state_.image;
    const std::string path = writePicture(301, 199);
    open(path);
    lab.choices.spin = true;
    lab.choices.spinDegreesPerSecond = 90.0f;
    const unsigned long long before = lab.readings().timedRuns;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    int frames = 0;
    while (lab.readings().timedRuns < before + 12 && std::chrono::steady_clock::now() < deadline) {
      frame();
      ++frames;
    }
    EXPECT_GE(lab.readings().timedRuns, before + 12) << "runs collected in " << frames << " frames";
    EXPECT_EQ(lab.readings().message.rfind("opened ", 0), 0u) << lab.readings().message;
    expectStoppedSpinShowsTheReference(path, 33.0f);
  });
}

}  // namespace
}  // namespace ks
