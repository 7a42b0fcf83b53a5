// The running app's OpenCL side without a window: device switching (PoCL made
// to list two devices), interop path requests, scene switching and N-body
// requests, through the same AppState the panels write.
#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "app/app_state.h"
#include "asked_scene.h"
#include "io/image_file.h"
#include "app/image_lab_choices_check.h"
#include "ui/chart_axis.h"
#include "ui/panels.h"
#include "io/png_writer.h"
#include "app/render_surface.h"
#include "lab/run_record.h"
#include "app/run_recorder.h"
#include "app/session.h"
#include "session_fixture.h"
#include "staged_readings.h"
#include "imgui_test_context.h"

namespace ks {
namespace {

// PoCL lists one device per name in POCL_DEVICES; two give the app something to
// switch between. Set before the ICD loader first runs.
const bool kTwoPoclDevices = [] {
  setenv("POCL_DEVICES", "pthread basic", 1);  // 1: overwrite, whatever the caller set
  return true;
}();

class SessionTest : public test::SessionFixture {
 protected:
  SessionTest() : SessionFixture(320, 240, 500) {}
};

TEST_F(SessionTest, StartsOnADeviceWithTheNBodyScene) {
  ASSERT_TRUE(state_.activeDevice);
  EXPECT_EQ(state_.scene, SceneKind::NBody);
  frame();
  EXPECT_EQ(state_.nbody.readings().runningBodies, 500u);
  EXPECT_EQ(state_.nbody.readings().steps, 1u);
  EXPECT_EQ(state_.nbody.readings().timedSteps, 0u) << "the first frame's step is timed when it has run: next frame";
  frame();
  EXPECT_EQ(state_.nbody.readings().timedSteps, 1u);
  EXPECT_GT(state_.nbody.readings().interactionsPerSecond, 0.0);
}

// The energy meter is made before the first frame, as the N-body kernel is (issue
// 22): made in the first frame, its program compiled there and held that frame
// 0.4-1 s on PoCL. Its baseline is still the state before the first step.
TEST_F(SessionTest, TheEnergyMeterIsMadeBeforeTheFirstFrame) {
  ASSERT_TRUE(state_.nbody.choices.conservation.on) << "the meter is on by default";
  EXPECT_GE(session_->compute().programs().requests("nbody_invariants.cl"), 1u)
      << "no frame yet, and the meter's program was not asked for";
  const NBodyConservationReadings& c = state_.nbody.readings().conservation;
  for (int i = 0; i < 5; ++i) {
    frame();
    session_->compute().queue().finish();  // the measurement arrives a frame later
  }
  EXPECT_TRUE(c.unavailable.empty()) << c.unavailable;
  EXPECT_FALSE(c.baseline.empty()) << "no baseline after 5 frames";
  EXPECT_EQ(c.baselineStep, 0u) << "the baseline is the state before the first step";
}

// Energy and momenta are measured while it runs (issue 23): a baseline first, then
// every `everySteps` steps, never waited for; a reset starts a new baseline.
TEST_F(SessionTest, EnergyDriftIsMeasuredWhileItRunsAndRestartsOnReset) {
  const NBodyConservationReadings& c = state_.nbody.readings().conservation;
  state_.nbody.choices.conservation.everySteps = 3;
  auto runUntilDrift = [&] {
    for (int i = 0; i < 40 && !c.hasDrift; ++i) {
      frame();
      session_->compute().queue().finish();  // the measurement arrives a frame later
    }
  };
  runUntilDrift();
  ASSERT_TRUE(c.hasDrift) << c.unavailable;
  EXPECT_TRUE(c.unavailable.empty()) << c.unavailable;
  EXPECT_EQ(c.baselineStep, 0u) << "the baseline is the state before the first step";
  EXPECT_GE(c.lastStep, 3u);
  EXPECT_FALSE(c.baseline.empty());
  // A stable preset over a few steps: far below the percent level, and not exactly nothing.
  EXPECT_LT(std::abs(c.drift.energy), 1e-3);
  EXPECT_GT(std::abs(c.drift.energy), 0.0);
  EXPECT_LT(c.drift.momentum, 1e-3);
  EXPECT_FALSE(c.energyDrift.empty());

  const unsigned long long before = state_.nbody.readings().steps;
  state_.commands.push(ResetNBody{});
  frame();
  session_->compute().queue().finish();
  frame();
  EXPECT_LT(state_.nbody.readings().steps, before);
  EXPECT_FALSE(c.hasDrift) << "the reset system is measured from a new baseline";
  EXPECT_LE(c.baselineStep, 1u);
  runUntilDrift();
  EXPECT_TRUE(c.hasDrift);

  // Another time step is another integrator: a new baseline too.
  state_.nbody.choices.params.dt *= 0.5;
  frame();
  session_->compute().queue().finish();
  frame();
  EXPECT_FALSE(c.hasDrift);
}

// --record and the Runs panel's Record (issue 23): a recording of the N-body scene
// keeps the drift the panel shows, over the steps it was measured across; with the
// measurement off, the run has none.
TEST_F(SessionTest, ARecordingKeepsTheEnergyDriftItMeasured) {
  const NBodyConservationReadings& c = state_.nbody.readings().conservation;
  state_.nbody.choices.conservation.everySteps = 3;
  RunRecorder recorder;
  auto record = [&](int frames) {
    RecordingState& rec = state_.runs.recording;
    rec.warmup = 0;
    rec.frames = frames;
    state_.commands.push(StartRecording{});
    for (int i = 0; i < frames + 5 && (state_.commands.has<StartRecording>() || rec.active); ++i) {
      frame();
      session_->compute().queue().finish();  // measurements arrive a frame later
      recorder.onFrame(state_, 16.0, session_->compute());
    }
    EXPECT_FALSE(rec.active) << rec.status;
  };
  record(12);
  ASSERT_EQ(state_.runs.runs.size(), 1u);
  const RunRecord& run = state_.runs.runs.back();
  ASSERT_TRUE(c.hasDrift);
  ASSERT_TRUE(run.m.hasDrift());
  EXPECT_EQ(run.m.driftSteps, c.lastStep - c.baselineStep);
  EXPECT_GE(run.m.driftSteps, 3u);
  EXPECT_EQ(run.m.energyDrift, c.drift.energy);
  EXPECT_EQ(run.m.momentumDrift, c.drift.momentum);
  EXPECT_EQ(run.m.angularMomentumDrift, c.drift.angularMomentum);
  EXPECT_NE(run.m.energyDrift, 0.0);

  state_.nbody.choices.conservation.on = false;
  state_.commands.push(ResetNBody{});
  frame();
  session_->compute().queue().finish();
  record(6);
  ASSERT_EQ(state_.runs.runs.size(), 2u);
  EXPECT_FALSE(state_.runs.runs.back().m.hasDrift()) << "nothing measured: no drift recorded";
}

TEST_F(SessionTest, SwitchingDeviceKeepsTheBodies) {
  if (state_.devices.size() < 2) GTEST_SKIP() << "only one OpenCL device listed";
  frame();
  state_.nbody.choices.paused = true;
  const NBodySystem before = *session_->snapshot();
  for (int round = 0; round < 6; ++round) {  // back and forth: old objects must go cleanly
    const size_t other = *state_.activeDevice == 0 ? 1 : 0;
    state_.commands.push(SwitchDevice{other});
    frameUntilIdle();  // the new device's kernels are built off the frame first
    ASSERT_EQ(state_.activeDevice, other) << state_.deviceMessage;
    EXPECT_NE(state_.deviceMessage.find("switched to"), std::string::npos) << state_.deviceMessage;
  }
  const NBodySystem after = *session_->snapshot();
  ASSERT_EQ(after.size(), before.size());
  for (size_t i = 0; i < before.size(); ++i)
    for (int k = 0; k < 4; ++k) EXPECT_FLOAT_EQ(float(after.positions[i][k]), float(before.positions[i][k]));
}

// Several files opened at once are a set to step through (issue 22, item 15): next and
// previous wrap round; a single file from elsewhere ends the set.
TEST_F(SessionTest, SeveralFilesOpenedAtOnceAreSteppedThrough) {
  std::vector<std::string> paths;
  for (int i = 0; i < 3; ++i) {
    HostImage image;
    image.width = 10 + i;
    image.height = 5;
    image.channels = 1;
    image.pixels.assign(size_t(image.width) * 5, static_cast<uint8_t>(40 * i));
    paths.push_back(::testing::TempDir() + "ks-session-set-" + std::to_string(i) + ".png");
    const Result<void> saved = savePngFile(image, paths.back());
    ASSERT_TRUE(saved.ok()) << saved.error().what();
  }
  state_.commands.push(OpenScene{SceneKind::Image});
  state_.commands.push(*OpenImages::of(paths));
  frameUntilIdle();
  ASSERT_EQ(state_.image.readings().path, paths[0]) << state_.image.readings().message;
  EXPECT_EQ(state_.image.fileSet, paths);
  EXPECT_NE(state_.image.readings().message.find("file 1 of 3"), std::string::npos) << state_.image.readings().message;
  state_.image.stepFileSet(+1, state_.commands);
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().path, paths[1]) << state_.image.readings().message;
  EXPECT_EQ(state_.image.readings().width, 11);
  EXPECT_NE(state_.image.readings().message.find("file 2 of 3"), std::string::npos) << state_.image.readings().message;
  state_.image.stepFileSet(-1, state_.commands);
  frameUntilIdle();
  state_.image.stepFileSet(-1, state_.commands);  // before the first: the last
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().path, paths[2]) << state_.image.readings().message;
  EXPECT_EQ(state_.image.fileIndex, 2u);
  EXPECT_EQ(state_.image.fileSet.size(), 3u);
  state_.commands.push(OpenImages{{paths[0]}});  // File > Open of one file (here one of the set, but asked alone)
  state_.image.fileIndex = 1;              // as if the set had moved on: the request is not its current file
  frameUntilIdle();
  EXPECT_TRUE(state_.image.fileSet.empty()) << "a file opened on its own ended the set";
}

// The image open in the lab is decoded again on the new device, off the frame loop:
// the scene is rebuilt, the image comes back.
TEST_F(SessionTest, SwitchingDeviceKeepsTheOpenImage) {
  if (state_.devices.size() < 2) GTEST_SKIP() << "only one OpenCL device listed";
  HostImage image;
  image.width = 21;
  image.height = 11;
  image.channels = 1;
  image.pixels.assign(21 * 11, 99);
  const std::string path = ::testing::TempDir() + "ks-session-switch.png";
  const Result<void> saved = savePngFile(image, path);
  ASSERT_TRUE(saved.ok()) << saved.error().what();
  state_.commands.push(OpenScene{SceneKind::Image});
  state_.commands.push(OpenImages{{path}});
  frameUntilIdle();
  ASSERT_EQ(state_.image.readings().path, path) << state_.image.readings().message;
  for (int round = 0; round < 2; ++round) {
    state_.commands.push(SwitchDevice{*state_.activeDevice == 0 ? size_t{1} : size_t{0}});
    frameUntilIdle();
    EXPECT_EQ(state_.image.readings().path, path) << state_.image.readings().message;
    EXPECT_EQ(state_.image.readings().width, 21);
    EXPECT_EQ(state_.image.readings().resultWidth, 21);
  }
  std::remove(path.c_str());
}

TEST_F(SessionTest, AnUnavailableInteropPathIsRefusedWithTheReason) {
  for (const auto& s : state_.interopPaths) {
    if (s.available) continue;
    const InteropPath running = state_.interopPath;
    state_.commands.push(SwitchInterop{s.path});
    frame();
    EXPECT_EQ(state_.interopPath, running);
    EXPECT_NE(state_.interopMessage.find(s.reason), std::string::npos) << state_.interopMessage;
  }
}

TEST_F(SessionTest, AnInvalidKernelConfigurationIsRefusedAndTheOldOneKeepsRunning) {
  frame();
  const NBodyConfig running = state_.nbody.readings().runningConfig;
  state_.nbody.choices.config.workGroup = 48;
  frame();
  EXPECT_EQ(state_.nbody.choices.config, running);
  EXPECT_NE(state_.nbody.readings().message.find("multiple of 32"), std::string::npos)
      << state_.nbody.readings().message;
  EXPECT_EQ(state_.nbody.readings().steps, 2u) << "the simulation kept stepping";
}

TEST_F(SessionTest, ChangingNAndVariantLive) {
  state_.nbody.choices.bodies = 777;
  frame();
  EXPECT_EQ(state_.nbody.readings().runningBodies, 777u);
  state_.nbody.choices.config.variant = "naive";
  state_.nbody.choices.config.unroll = 1;
  state_.nbody.choices.config.bodiesPerItem = 1;
  state_.nbody.choices.config.split = 1;
  frameUntilChosenConfigRuns();
  EXPECT_EQ(state_.nbody.readings().runningConfig.variant, "naive") << state_.nbody.readings().message;
  // What the panel and the Log say of it is in words, not "naive wg=256 fp32" (issue 22).
  EXPECT_EQ(state_.nbody.readings().message.rfind("running the naive kernel: ", 0), 0u)
      << state_.nbody.readings().message;
  EXPECT_EQ(state_.nbody.readings().message.find("wg="), std::string::npos) << state_.nbody.readings().message;
  state_.commands.push(VerifyNBody{});
  frame();
  EXPECT_EQ(state_.nbody.readings().verification.rfind("PASS", 0), 0u) << state_.nbody.readings().verification;
  ASSERT_FALSE(state_.log.empty());
  EXPECT_EQ(state_.log.back().rfind("verify the naive kernel: ", 0), 0u) << state_.log.back();
  EXPECT_EQ(state_.log.back().find("wg="), std::string::npos) << state_.log.back();
}

TEST_F(SessionTest, SwitchingSceneAndBack) {
  state_.commands.push(OpenScene{SceneKind::Julia});
  frameUntilSwitched();
  frame();  // the first frame's kernel is timed in the second
  EXPECT_EQ(state_.scene, SceneKind::Julia);
  EXPECT_GT(state_.breakdown.kernelMs, 0.0);
  EXPECT_FALSE(session_->snapshot());
  state_.commands.push(OpenScene{SceneKind::NBody});
  frameUntilSwitched();
  EXPECT_EQ(state_.scene, SceneKind::NBody);
  EXPECT_TRUE(session_->snapshot());
}

// A command whose consumer is not running stays queued: Verify pressed
// while the Julia demo runs is done once the N-body scene is back, as the request
// flag it replaced stayed set; the other scene neither takes nor drops it.
TEST_F(SessionTest, ANBodyCommandWaitsWhileAnotherSceneRuns) {
  state_.commands.push(OpenScene{SceneKind::Julia});
  frameUntilSwitched();
  ASSERT_EQ(state_.scene, SceneKind::Julia);
  stagedReadings(state_.nbody).verification.clear();
  state_.commands.push(VerifyNBody{});
  frame();
  frame();
  EXPECT_TRUE(state_.commands.has<VerifyNBody>()) << "the Julia scene took or dropped an N-body command";
  EXPECT_TRUE(state_.nbody.readings().verification.empty());
  state_.commands.push(OpenScene{SceneKind::NBody});
  frameUntilSwitched();
  ASSERT_EQ(state_.scene, SceneKind::NBody);
  EXPECT_FALSE(state_.commands.has<VerifyNBody>());
  EXPECT_EQ(state_.nbody.readings().verification.rfind("PASS", 0), 0u) << state_.nbody.readings().verification;
}

TEST_F(SessionTest, LoadingACorruptStateFileKeepsTheSimulation) {
  frame();
  const std::string path = ::testing::TempDir() + "ks-corrupt-state.ksn";
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  std::fputs("KSNBODY\x01 this is not a state file", f);
  std::fclose(f);
  std::snprintf(state_.nbody.statePath, sizeof state_.nbody.statePath, "%s", path.c_str());
  state_.commands.push(LoadNBodyState{});
  frame();
  EXPECT_EQ(state_.nbody.readings().runningBodies, 500u);
  EXPECT_NE(state_.nbody.readings().message.find("load failed"), std::string::npos) << state_.nbody.readings().message;
  // and a good round trip
  state_.commands.push(SaveNBodyState{});
  frame();
  state_.nbody.choices.bodies = 100;
  frame();
  state_.commands.push(LoadNBodyState{});
  frame();
  EXPECT_EQ(state_.nbody.readings().runningBodies, 500u) << state_.nbody.readings().message;
  std::remove(path.c_str());
}

TEST_F(SessionTest, ImageLabOpensRotatesTransposesAndKeepsTheImageOnBadInput) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilSwitched();
  ASSERT_EQ(state_.scene, SceneKind::Image);
  EXPECT_EQ(state_.image.readings().path, "") << "starts with the built-in test image";
  EXPECT_GT(state_.image.readings().width, 0);

  HostImage image;
  image.width = 37;
  image.height = 23;
  image.channels = 1;
  for (int i = 0; i < 37 * 23; ++i) image.pixels.push_back(static_cast<uint8_t>(i * 7));
  const std::string path = ::testing::TempDir() + "ks-session-gray.png";
  const Result<void> written = savePngFile(image, path);
  ASSERT_TRUE(written.ok()) << written.error().what();
  state_.commands.push(OpenImages{{path}});
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().path, path) << state_.image.readings().message;
  EXPECT_EQ(state_.image.readings().channels, 1);
  EXPECT_EQ(state_.image.readings().resultWidth, 37);
  ASSERT_EQ(state_.image.readings().statistics.channels.size(), 1u);
  EXPECT_EQ(state_.image.readings().statistics.channels[0].count, 37u * 23u);

  state_.image.choices.angle = 90.0f;
  state_.image.choices.expandCanvas = true;
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().resultWidth, 23);
  EXPECT_EQ(state_.image.readings().resultHeight, 37);
  state_.image.choices.transpose = true;
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().resultWidth, 37) << "rotated by 90 and transposed";
  EXPECT_EQ(state_.image.readings().resultHeight, 23);

  // the pixel inspector answers from the original
  state_.image.choices.inspectResult = false;
  state_.image.inspectX = 5;
  state_.image.inspectY = 2;
  frameUntilIdle();
  EXPECT_TRUE(state_.image.readings().inspectValid);
  EXPECT_EQ(state_.image.readings().inspectValue[0], static_cast<uint8_t>((2 * 37 + 5) * 7));

  const std::string corrupt = ::testing::TempDir() + "ks-session-corrupt.png";
  FILE* f = std::fopen(corrupt.c_str(), "wb");
  ASSERT_TRUE(f);
  std::fputs("\x89PNG not really", f);
  std::fclose(f);
  state_.commands.push(OpenImages{{corrupt}});
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().path, path) << "the previous image stays";
  EXPECT_NE(state_.image.readings().message.find("cannot open: '" + corrupt + "'"), std::string::npos)
      << state_.image.readings().message;

  state_.commands.push(SaveImageResult{});
  const std::string out = ::testing::TempDir() + "ks-session-result.png";
  state_.image.choices.savePath = out;
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().message, "saved the result to " + out);
  const HostImage saved = loadImageFile(out, {4096, 1u << 30});
  EXPECT_EQ(saved.width, 37);
  EXPECT_EQ(saved.height, 23);
  std::remove(path.c_str());
  std::remove(corrupt.c_str());
  std::remove(out.c_str());
}

// Choices kept in settings.json by an earlier run come back in the panel and run.
TEST_F(SessionTest, SavedImageLabChoicesRunOnTheNextStart) {
  ImageLabChoices saved;
  saved.rotateVariant = "nearest";
  saved.rotateGroup = {16, 8};
  saved.rotateBlock = {1, 1};
  saved.angle = 30.0f;
  saved.transpose = true;
  saved.transposeVariant = "tiled_padded";
  saved.transposeChoice = TransposeConfig{"tiled_padded", 16, 2, 256, 32, 8};
  saved.histogramVariant = "subhist_uchar";
  saved.view = ImageLabChoices::View::SideBySide;
  EXPECT_TRUE(restoreImageLab(saved, state_.image).empty());
  EXPECT_TRUE(state_.image.choicesFromSettings);
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  ASSERT_EQ(state_.scene, SceneKind::Image);
  EXPECT_EQ(state_.image.readings().runningRotate, "nearest wg=16x8 ppi=1") << state_.image.readings().message;
  EXPECT_EQ(state_.image.readings().runningTranspose, describeTransposeConfig(*saved.transposeChoice))
      << state_.image.readings().message;
  EXPECT_EQ(state_.image.readings().runningHistogram.rfind("subhist_uchar", 0), 0u)
      << state_.image.readings().runningHistogram;
  EXPECT_FALSE(state_.image.choicesFromSettings) << "they ran";
  EXPECT_EQ(state_.image.choices.view, ImageLabState::View::SideBySide);
  // 640x480 turned by 30 degrees on a cropped canvas, then transposed
  EXPECT_EQ(state_.image.readings().resultWidth, 480);
  EXPECT_EQ(state_.image.readings().resultHeight, 640);
  // and what the panel shows is what the next run saves
  const ImageLabChoices& back = state_.image.choices;
  EXPECT_EQ(back.rotateVariant, "nearest");
  EXPECT_EQ(back.angle, 30.0f);
  EXPECT_TRUE(back.transposeChoice == saved.transposeChoice);
  EXPECT_EQ(back.view, ImageLabChoices::View::SideBySide);
}

// The image lab's state in two kinds: what the user chooses, which panels edit,
// and what the scene publishes, which panels only read. Writing a reading outside
// the scene does not compile (ImageLabState::readings() is const; tests stage
// readings through tests/staged_readings.h).
TEST(ImageLabStateKinds, ReadingsAreReadOnlyOutsideTheScene) {
  using Readings = decltype(std::declval<ImageLabState&>().readings());
  static_assert(std::is_same_v<Readings, const ImageLabReadings&>);
  static_assert(!std::is_assignable_v<decltype((std::declval<ImageLabState&>().readings().message)), std::string>);
  static_assert(std::is_assignable_v<decltype((std::declval<ImageLabState&>().choices.angle)), float>);
  ImageLabState lab;
  stagedReadings(lab).message = "published";
  EXPECT_EQ(lab.readings().message, "published");
}

// The N-body lab's too: panels, shortcuts and the command line edit NBodyChoices;
// what the scene publishes (speed, steps, messages, the conservation check's
// measurements, the split's figures) is const to all but NBodyScene.
TEST(NBodyStateKinds, ReadingsAreReadOnlyOutsideTheScene) {
  using Readings = decltype(std::declval<NBodyState&>().readings());
  static_assert(std::is_same_v<Readings, const NBodyReadings&>);
  static_assert(!std::is_assignable_v<decltype((std::declval<NBodyState&>().readings().message)), std::string>);
  static_assert(!std::is_assignable_v<decltype((std::declval<NBodyState&>().readings().steps)), unsigned long long>);
  static_assert(!std::is_assignable_v<decltype((std::declval<NBodyState&>().readings().conservation.hasDrift)), bool>);
  static_assert(
      !std::is_assignable_v<decltype((std::declval<NBodyState&>().readings().split.running)), std::vector<size_t>>);
  static_assert(std::is_assignable_v<decltype((std::declval<NBodyState&>().choices.bodies)), int>);
  static_assert(std::is_assignable_v<decltype((std::declval<NBodyState&>().choices.conservation.everySteps)), int>);
  static_assert(std::is_assignable_v<decltype((std::declval<NBodyState&>().choices.split.requested)),
                                     std::optional<std::vector<size_t>>>);
  NBodyState lab;
  stagedReadings(lab).message = "published";
  EXPECT_EQ(lab.readings().message, "published");
}

// Saved choices this device cannot run (a work-group larger than it takes, as
// after a move from a GPU to PoCL) give way to the device's defaults, once, and
// a picture appears; a variant name this version does not know is dropped.
TEST_F(SessionTest, SavedImageLabChoicesThatDoNotRunGiveWayToTheDefaults) {
  ImageLabChoices saved;
  saved.rotateVariant = "bilinear";
  saved.rotateGroup = {1024, 1024};
  saved.transposeVariant = "transpose_from_the_future";
  saved.angle = 10.0f;
  const std::vector<std::string> notes = restoreImageLab(saved, state_.image);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("'transpose_from_the_future' is not one this kernelscope has"), std::string::npos)
      << notes[0];
  EXPECT_EQ(state_.image.choices.transposeVariant, "");
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  ASSERT_EQ(state_.scene, SceneKind::Image);
  EXPECT_NE(state_.image.readings().message.find("saved kernel choices do not run here"), std::string::npos)
      << state_.image.readings().message;
  EXPECT_EQ(state_.image.choices.rotateVariant, "") << "back to the device's default";
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().runningRotate.rfind("none", 0), std::string::npos)
      << state_.image.readings().runningRotate;
  EXPECT_TRUE(state_.image.readings().hasResult) << state_.image.readings().message;
  EXPECT_EQ(state_.image.choices.angle, 10.0f) << "the angle is not a kernel choice: it stays";
  const unsigned long long runs = state_.image.readings().pipelineRuns;
  frameUntilIdle();
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().pipelineRuns, runs) << "nothing is retried";
  size_t fallbacks = 0;
  for (const auto& line : state_.log) fallbacks += line.find("saved kernel choices do not run") != std::string::npos;
  EXPECT_EQ(fallbacks, 1u);
}

// A refused choice puts the panel back on what ran before: where that was the
// default (no choice), it stays the default instead of becoming a choice.
TEST_F(SessionTest, ARefusedRotateChoiceGoesBackToTheDefault) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  ASSERT_EQ(state_.scene, SceneKind::Image);
  ASSERT_EQ(state_.image.choices.rotateVariant, "");
  const std::string ran = state_.image.readings().runningRotate;
  EXPECT_EQ(ran, describeRotateConfig(state_.image.readings().defaultRotate));
  state_.image.choices.rotateVariant = "nearest";
  state_.image.choices.rotateGroup[0] = 1024;
  state_.image.choices.rotateGroup[1] = 1024;
  frameUntilIdle();
  EXPECT_NE(state_.image.readings().message.find("work-group"), std::string::npos) << state_.image.readings().message;
  EXPECT_EQ(state_.image.choices.rotateVariant, "") << "back to no choice";
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().runningRotate, ran);
}

// A transpose configuration the device refuses (a saved one from a GPU, say) does
// not matter while the transpose is off: it was built anyway and refused the whole
// pipeline, rotation and histogram included.
TEST_F(SessionTest, ARefusedTransposeChoiceDoesNotStopThePipelineWhileTheTransposeIsOff) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  ASSERT_EQ(state_.scene, SceneKind::Image);
  const unsigned long long runs = state_.image.readings().pipelineRuns;
  state_.image.choices.transpose = false;
  state_.image.choices.transposeVariant = "block4x4";
  state_.image.choices.transposeChoice =
      TransposeConfig{"block4x4", 64, 4, 1 << 20, 32, 8};  // a work-group of 2^20 items
  state_.image.choices.angle = 10.0f;
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().pipelineRuns, runs + 1) << state_.image.readings().message;
  EXPECT_EQ(state_.image.readings().message.find("work-group"), std::string::npos) << state_.image.readings().message;
  EXPECT_EQ(state_.image.choices.transposeVariant, "block4x4")
      << "the choice stays for when the transpose is switched on";
  // Switched on, it is refused with the reason, and the panel goes back to what ran.
  state_.image.choices.transpose = true;
  frameUntilIdle();
  EXPECT_NE(state_.image.readings().message.find("work-group"), std::string::npos) << state_.image.readings().message;
  EXPECT_FALSE(state_.image.choices.transpose);
}

TEST_F(SessionTest, AResultTooBigForOpenGlIsRefusedAndThePreviousOneStays) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  ASSERT_EQ(state_.scene, SceneKind::Image);
  GLint maxTexture = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTexture);
  ASSERT_GT(maxTexture, 0);
  // As wide as OpenGL allows: it opens, but an expanded canvas at 1 degree is
  // W cos 1 + H sin 1 = W - 0.00015 W + 0.0175 H pixels wide, more than W for
  // H > 0.0087 W (16384 on llvmpipe, 32768 on NVIDIA).
  HostImage image;
  image.width = maxTexture;
  image.height = std::max(512, maxTexture / 64);
  image.channels = 1;
  image.pixels.assign(static_cast<size_t>(image.width) * image.height, 77);
  const std::string path = ::testing::TempDir() + "ks-session-wide.png";
  const Result<void> saved = savePngFile(image, path);
  ASSERT_TRUE(saved.ok()) << saved.error().what();
  // Chosen in the panel: the sampler variant, which PoCL's 8192-pixel 2D images
  // cannot hold this image in; the scene switches to the buffer kernel and says so.
  state_.image.choices.rotateVariant = "bilinear_image";
  state_.image.choices.rotateGroup[0] = 16;
  state_.image.choices.rotateGroup[1] = 16;
  state_.image.choices.rotateBlock[0] = 1;
  state_.image.choices.rotateBlock[1] = 1;
  const std::array<size_t, 2> maxImage = deviceMaxImage2d(state_.devices.at(state_.activeDevice.value()));
  state_.commands.push(OpenImages{{path}});
  frameUntilIdle();
  ASSERT_EQ(state_.image.readings().path, path) << state_.image.readings().message;
  if (static_cast<size_t>(maxTexture) > maxImage[0]) {
    EXPECT_EQ(state_.image.choices.rotateVariant, "bilinear") << state_.image.readings().message;
    EXPECT_NE(state_.image.readings().message.find("larger than this device's 2D images"), std::string::npos)
        << state_.image.readings().message;
  }
  ASSERT_EQ(state_.image.readings().resultWidth, maxTexture);
  const unsigned runs = state_.image.readings().pipelineRuns;

  state_.image.choices.angle = 1.0f;
  state_.image.choices.expandCanvas = true;
  frameUntilIdle();
  EXPECT_NE(state_.image.readings().message.find("OpenGL takes at most " + std::to_string(maxTexture)),
            std::string::npos)
      << state_.image.readings().message;
  EXPECT_EQ(state_.image.choices.angle, 0.0f) << "the panel goes back to what is shown";
  EXPECT_FALSE(state_.image.choices.expandCanvas);
  EXPECT_EQ(state_.image.readings().resultWidth, maxTexture) << "the previous result stays";
  EXPECT_EQ(state_.image.readings().resultHeight, image.height);
  frameUntilIdle();
  frameUntilIdle();
  EXPECT_LE(state_.image.readings().pipelineRuns, runs + 1) << "the refused combination is not retried every frame";
  EXPECT_EQ(state_.image.readings().resultWidth, maxTexture);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

  state_.image.choices.angle = 1.0f;  // a crop keeps the size: allowed
  frameUntilIdle();
  EXPECT_EQ(state_.image.choices.angle, 1.0f) << state_.image.readings().message;
  EXPECT_EQ(state_.image.readings().resultWidth, maxTexture);
  std::remove(path.c_str());
}

// A sweep's winner applied when the lab already runs those choices: RunImagePipeline
// runs the kernels again (once), though no choice changed; the scene takes it.
TEST_F(SessionTest, RunImagePipelineRunsTheKernelsAgainWithTheSameChoices) {
  state_.commands.push(OpenScene{SceneKind::Image});
  frameUntilIdle();
  ASSERT_EQ(state_.scene, SceneKind::Image);
  const unsigned long long runs = state_.image.readings().pipelineRuns;
  frameUntilIdle();
  ASSERT_EQ(state_.image.readings().pipelineRuns, runs) << "ran again with nothing asked";
  state_.commands.push(RunImagePipeline{});
  state_.commands.push(RunImagePipeline{});  // twice in a frame: one run
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().pipelineRuns, runs + 1) << state_.image.readings().message;
  EXPECT_FALSE(state_.commands.has<RunImagePipeline>());
  frameUntilIdle();
  EXPECT_EQ(state_.image.readings().pipelineRuns, runs + 1);
}

// ---- the image lab's panel and view, driven through ImGui without a window ----

// An ImGui context of its own (no backend: frames are built, never rendered) and
// an AppState in the image lab with a 100x100 picture; frame() feeds the mouse
// and the typed characters, then draws what the app draws for the image lab.
class ImageLabUi : public ::testing::Test {
 protected:
  void SetUp() override {
    test::createTestImGuiContext(ImVec2(1280.0f, 800.0f), true);
    state_.scene = SceneKind::Image;
    ImageLabState& lab = state_.image;
    stagedReadings(lab).width = stagedReadings(lab).height = stagedReadings(lab).resultWidth =
        stagedReadings(lab).resultHeight = 100;
    stagedReadings(lab).channels = stagedReadings(lab).resultChannels = 4;
    stagedReadings(lab).hasOriginal = stagedReadings(lab).hasResult =
        true;  // no renderer: the panel places them, nothing draws
    state_.commands.take<FitPictures>();  // the start's fit: the zoom below stays
    lab.zoom = 2.0f;
  }
  void TearDown() override { ImGui::DestroyContext(); }
  void frame(ImVec2 mouse, bool leftDown, const char* typed = "", ImGuiID openPopup = 0, int keyDown = -1) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = mouse;
    io.MouseDown[0] = leftDown;
    for (const char* c = typed; *c; ++c) io.AddInputCharacter(static_cast<unsigned>(*c));
    ImGui::NewFrame();
    // Where the main loop calls it: after NewFrame, before the panels, with the keys
    // the window saw pressed (GLFW codes).
    handleShortcuts(state_, keyDown >= 0 ? std::vector<int>{keyDown} : std::vector<int>{});
    if (openPopup) ImGui::OpenPopupEx(openPopup);  // as a click on its combo would
    drawMenuBar(state_);
    drawImageView(state_);
    drawImagePanel(state_);
    ImGui::Render();
  }
  AppState state_;
};

// Fit (the button, a change into or out of side by side, the layout, a new image's
// first result, the start) is a command the view takes: the next frame fits the
// pictures, and nothing fits them unasked.
TEST_F(ImageLabUi, TheViewFitsThePicturesWhenAsked) {
  const ImVec2 away(-1.0f, -1.0f);
  frame(away, false);
  frame(away, false);
  EXPECT_EQ(state_.image.zoom, 2.0f) << "fitted unasked";
  EXPECT_FALSE(state_.image.fittedZoom);
  state_.commands.push(FitPictures{});
  frame(away, false);
  ASSERT_TRUE(state_.image.fittedZoom) << "the view did not fit the pictures";
  EXPECT_NE(state_.image.zoom, 2.0f);
  EXPECT_EQ(state_.image.zoom, *state_.image.fittedZoom);
  EXPECT_FALSE(state_.commands.has<FitPictures>()) << "the view left the command queued";
}

// A drag pans by as much as the cursor moved: the picture stays under it. Before,
// the movement up to ImGui's drag threshold (6 pixels) was lost at every drag.
TEST_F(ImageLabUi, ADragMovesThePictureWithTheCursor) {
  ImVec2 mouse(600.0f, 380.0f);  // over the picture, clear of the panel
  frame(mouse, false);
  frame(mouse, true);
  for (int i = 0; i < 20; ++i) {
    mouse.x += 1.0f;
    mouse.y += 0.5f;
    frame(mouse, true);
  }
  frame(mouse, false);
  EXPECT_FLOAT_EQ(state_.image.panX, 20.0f);
  EXPECT_FLOAT_EQ(state_.image.panY, 10.0f);
  frame(mouse, false);
  EXPECT_FLOAT_EQ(state_.image.panX, 20.0f) << "a release does not move it";
}

// File > Open image... while the image lab is up, its Image section collapsed: the
// section opens and what is typed next goes into the path field, replacing the path
// typed there before. Before, the menu item did nothing to be seen, and the typing
// went nowhere.
TEST_F(ImageLabUi, FileOpenImageGivesThePathFieldTheKeyboard) {
  const ImVec2 view(600.0f, 380.0f);
  auto click = [&](ImVec2 at) {
    frame(at, false);
    frame(at, true);
    frame(at, false);
    frame(at, false);
  };
  frame(view, false);
  frame(view, false);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetFrameHeight();  // the menu bar, a title bar, a header
  ImGuiWindow* panel = ImGui::FindWindowByName("Image lab");
  ASSERT_NE(panel, nullptr);
  const ImGuiID header = panel->GetID("Image");
  // Collapse the Image section: its header is the panel's first item.
  click(ImVec2(panel->Pos.x + 60.0f, panel->Pos.y + line + style.WindowPadding.y + line * 0.5f));
  ASSERT_EQ(panel->StateStorage.GetInt(header, 1), 0) << "the test's click did not collapse the section";

  auto fileOpen = [&] {
    click(ImVec2(20.0f, line * 0.5f));                                                 // File
    click(ImVec2(40.0f, line + style.WindowPadding.y + ImGui::GetFontSize() * 0.5f));  // Open image...
  };
  fileOpen();
  EXPECT_EQ(askedScene(state_), SceneKind::Image);
  frame(view, false);
  EXPECT_NE(panel->StateStorage.GetInt(header, 0), 0) << "the Image section is open again";
  frame(view, false, "/first.png");
  frame(view, false);
  EXPECT_STREQ(state_.image.openPath, "/first.png");

  click(view);  // the field lets the keyboard go
  fileOpen();
  frame(view, false);
  frame(view, false, "/tmp/a.png");
  frame(view, false);
  EXPECT_STREQ(state_.image.openPath, "/tmp/a.png");
}

// Digit and letter shortcuts work while a panel has the keyboard (a click on it
// gives it focus), and not while a text field takes the typing. Before, any focused
// panel swallowed them: 1, 2, 3 could not be pressed one after another.
TEST_F(ImageLabUi, ShortcutsWorkWhileAPanelHasFocusButNotWhileTyping) {
  const ImVec2 view(600.0f, 380.0f);
  frame(view, false);
  frame(view, false);
  ImGuiWindow* panel = ImGui::FindWindowByName("Image lab");
  ASSERT_NE(panel, nullptr);
  const ImVec2 inPanel(panel->Pos.x + panel->Size.x * 0.5f, panel->Pos.y + panel->Size.y - 8.0f);
  frame(inPanel, false);
  frame(inPanel, true);
  frame(inPanel, false);
  ASSERT_TRUE(ImGui::GetIO().WantCaptureKeyboard) << "the click did not give the panel the keyboard";
  state_.commands.take<OpenScene>();
  state_.switching.scene.reset();
  frame(inPanel, false, "", 0, GLFW_KEY_3);
  EXPECT_EQ(askedScene(state_), SceneKind::Julia);
  frame(inPanel, false);
  const bool paused = state_.nbody.choices.paused;
  frame(inPanel, false, "", 0, GLFW_KEY_SPACE);
  EXPECT_NE(state_.nbody.choices.paused, paused) << "Space was swallowed by the focused panel";
  frame(inPanel, false);
  state_.image.fileSet = {"a.png", "b.png", "c.png"};  // several files opened at once
  state_.commands.take<OpenImages>();
  auto openedAlone = [&] {
    const std::vector<OpenImages> asked = state_.commands.take<OpenImages>();
    return asked.size() == 1 ? asked[0].paths() : std::vector<std::string>{"(" + std::to_string(asked.size()) + " asked)"};
  };
  frame(inPanel, false, "", 0, GLFW_KEY_PAGE_DOWN);
  EXPECT_EQ(openedAlone(), std::vector<std::string>{"b.png"});
  frame(inPanel, false, "", 0, GLFW_KEY_PAGE_UP);
  EXPECT_EQ(openedAlone(), std::vector<std::string>{"a.png"});
  frame(inPanel, false);

  state_.image.focusOpenPath = true;  // File > Open image...: the path field takes the typing
  for (int i = 0; i < 4; ++i) frame(inPanel, false);
  ASSERT_TRUE(ImGui::GetIO().WantTextInput) << "the path field did not take the keyboard";
  state_.commands.take<OpenScene>();
  state_.switching.scene.reset();
  frame(inPanel, false, "1", 0, GLFW_KEY_1);
  EXPECT_FALSE(askedScene(state_)) << "a digit typed into the path field switched the scene";
  const bool pausedWhileTyping = state_.nbody.choices.paused;
  frame(inPanel, false, " ", 0, GLFW_KEY_SPACE);
  EXPECT_EQ(state_.nbody.choices.paused, pausedWhileTyping)
      << "a space typed into the path field paused the simulation";
}

// The Runs panel's bar chart spans the panel. Before, it was given a width of -1,
// which ImGui 1.86's plots do not read as "fill": a strip 1-2 pixels wide, no chart.
TEST(RunsPanelUi, TheComparisonChartSpansThePanel) {
  ImGuiIO& io = test::createTestImGuiContext(ImVec2(1280.0f, 800.0f));
  AppState state;
  state.runs.showRuns = true;
  for (int i = 0; i < 3; ++i) {
    RunRecord r;
    r.name = "run " + std::to_string(i);
    r.m.rate = 100.0 * (i + 1);
    r.m.rateUnit = "GFLOP/s";
    state.runs.runs.push_back(r);
  }
  float chartWidth = 0.0f, panelWidth = 0.0f;
  for (int frame = 0; frame < 3; ++frame) {  // the first frames lay the panel out
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    drawRunsPanel(state);
    ImGui::Render();
    ImGuiWindow* panel = ImGui::FindWindowByName("Runs");
    ASSERT_NE(panel, nullptr);
    panelWidth = panel->Size.x;
    // The chart's bars, as the chart reports it drew them: the longest one's extent.
    const ChartAxes* chart = drawnChart("runs");
    ASSERT_NE(chart, nullptr) << "no comparison chart drawn";
    float x0 = 1e9f, x1 = -1e9f;
    for (const ChartBar& b : chart->bars) {
      x0 = std::min(x0, b.rect.x0);
      x1 = std::max(x1, b.rect.x1);
    }
    chartWidth = x1 - x0;
  }
  ImGui::DestroyContext();
  EXPECT_GT(chartWidth, 0.6f * panelWidth) << "the bars span " << chartWidth << " px of a " << panelWidth
                                           << " px panel";
}

// The rotate work-group combos show what the device refuses disabled: a pick of it does
// nothing, a pick of what it runs is taken. Before, every size could be picked and was
// refused afterwards, with the reason at the panel's foot.
TEST_F(ImageLabUi, WorkGroupSizesTheDeviceRefusesCannotBePicked) {
  DeviceDescriptor device;  // a made-up device: 256 work-items per group at most
  device.maxWorkGroupSize = 256;
  device.maxWorkItemSizes = {1024, 1024, 64};
  state_.devices = {device};
  state_.activeDevice = 0;
  ImageLabState& lab = state_.image;
  lab.choices.rotateVariant = "bilinear";  // a buffer variant: nothing asks the (absent) runtime
  lab.choices.rotateGroup[0] = 32;
  lab.choices.rotateGroup[1] = 2;
  lab.choices.rotateBlock[0] = 4;
  lab.choices.rotateBlock[1] = 1;
  const ImVec2 away(600.0f, 380.0f);
  frame(away, false);
  frame(away, false);
  ImGuiWindow* panel = ImGui::FindWindowByName("Image lab");
  ASSERT_NE(panel, nullptr);
  // Opens the height combo ("work-group": heights 1, 2, 4, 8, 16, 32) and clicks its row `row`.
  auto pickHeight = [&](int row) {
    const ImGuiID combo = panel->GetID("work-group");
    frame(away, false, "", ImHashStr("##ComboPopup", 0, combo));
    frame(away, false);  // a popup takes its size and place on its second frame
    ImGuiWindow* popup = ImGui::FindWindowByName("##Combo_00");  // ImGui's name for a first-level combo
    ASSERT_TRUE(popup && popup->Active) << "the combo did not open";
    const ImGuiStyle& style = ImGui::GetStyle();
    const float step = ImGui::GetFontSize() + style.ItemSpacing.y;
    const ImVec2 at(popup->Pos.x + popup->Size.x * 0.5f,
                    popup->DC.CursorStartPos.y + row * step + ImGui::GetFontSize() * 0.5f);
    frame(at, false);
    frame(at, true);
    frame(at, false);
    frame(away, false);
  };
  pickHeight(5);  // 32 x 32 = 1024 > 256
  EXPECT_EQ(lab.choices.rotateGroup[1], 2) << "a refused size was taken";
  pickHeight(3);  // 32 x 8 = 256
  EXPECT_EQ(lab.choices.rotateGroup[1], 8) << "the test's click did not reach the row it meant";
}

}  // namespace
}  // namespace ks
