// The profiling panel's data: the per-stage / per-kernel rolling statistics fed
// from a frame's readings, the peak FP32 table, the copy bandwidth measured on a
// real device, and the kernel info the scenes publish (through the Session).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <cstdio>

#include "app/app_state.h"
#include "staged_readings.h"
#include "app/frame_profiler.h"
#include "app/render_surface.h"
#include "app/session.h"
#include "compute/compute_context.h"
#include "compute/device_ceilings.h"
#include "compute/device_selection.h"
#include "compute/interop/interop.h"
#include "session_fixture.h"
#include "test_devices.h"

namespace ks {
namespace {

TEST(FrameProfiler, RecordsKernelsOnlyOnFramesThatRanThem) {
  AppState state;
  state.scene = SceneKind::NBody;
  state.stats.frameMs = 16.0;
  state.breakdown = {0.5, 4.0, 0.25, 1.0, 2.0};  // acquire, kernels, release, copy, render (GPU)
  state.phases.set(FrameStage::Input, 0.5);
  state.phases.set(FrameStage::Update, 1.25);
  state.phases.set(FrameStage::Interop, 1.75);
  state.phases.set(FrameStage::Wait, 3.0);
  state.phases.set(FrameStage::Ui, 1.5);
  state.phases.set(FrameStage::Render, 2.0);
  state.phases.set(FrameStage::Present, 4.0);
  stagedReadings(state.nbody).kernelMs = 4.0;
  stagedReadings(state.nbody).timedSteps = 1;
  recordFrame(state);
  state.nbody.choices.paused = true;  // the next frame brings no new kernel time: no new kernel sample
  recordFrame(state);
  const FrameProfiler& p = state.profiler;
  ASSERT_TRUE(p.find("nbody step"));
  EXPECT_TRUE(p.find("nbody step")->kernel);
  EXPECT_EQ(p.find("nbody step")->samples.size(), 1u);
  EXPECT_EQ(p.find("kernels (GPU)")->samples.size(), 1u);
  EXPECT_EQ(p.find("acquire")->samples.size(), 1u);
  EXPECT_EQ(p.find("frame")->samples.size(), 2u);
  EXPECT_EQ(p.find("render (GPU)")->samples.size(), 2u);
  EXPECT_EQ(p.find("wait for GPU")->samples.size(), 2u);
  ASSERT_EQ(p.stageHistory().size(), 2u);
  const auto& ran = p.stageHistory().front();
  EXPECT_DOUBLE_EQ(ran[size_t(FrameStage::GpuKernels)], 4.0);
  EXPECT_DOUBLE_EQ(ran[size_t(FrameStage::Interop)], 1.75);
  EXPECT_DOUBLE_EQ(ran[size_t(FrameStage::Wait)], 3.0);
  EXPECT_DOUBLE_EQ(ran[size_t(FrameStage::Update)], 1.25);
  EXPECT_DOUBLE_EQ(ran[size_t(FrameStage::Other)], 16.0 - (0.5 + 1.25 + 1.75 + 3.0 + 1.5 + 2.0 + 4.0));
  double cpu = 0.0;
  for (size_t i = 0; i < kCpuStageCount; ++i) cpu += ran[i];
  EXPECT_DOUBLE_EQ(cpu, 16.0) << "the CPU stages add up to the frame";
  const auto& idle = p.stageHistory().back();
  EXPECT_DOUBLE_EQ(idle[size_t(FrameStage::GpuKernels)], 0.0);
  EXPECT_DOUBLE_EQ(idle[size_t(FrameStage::GpuRender)], 2.0);

  state.scene = SceneKind::Image;
  stagedReadings(state.image).rotateMs = 2.0;
  stagedReadings(state.image).histogramMs = 1.0;
  stagedReadings(state.image).pipelineRuns = 1;
  recordFrame(state);  // the pipeline ran, its times have not arrived (timedRuns unchanged)
  EXPECT_FALSE(p.find("rotate"));
  stagedReadings(state.image).timedRuns = 1;
  recordFrame(state);
  ASSERT_TRUE(p.find("rotate"));
  EXPECT_EQ(p.find("rotate")->samples.size(), 1u);
  EXPECT_FALSE(p.find("transpose")) << "transpose off: no samples";
}

// A wait on the GPU during a phase is counted as a wait, and taken out of that phase:
// nothing is counted twice, and the phases still add up to the time they span.
TEST(FramePhases, WaitsOnTheGpuAreTakenOutOfThePhaseTheyHappenIn) {
  FramePhases phases;
  phases.start();
  addGpuWaitMs(1e6);  // more than the phase can have lasted: all of the phase was waiting
  phases.mark(FrameStage::Update);
  EXPECT_EQ(phases.ms(FrameStage::Update), 0.0);
  EXPECT_GT(phases.ms(FrameStage::Wait), 0.0);
  EXPECT_DOUBLE_EQ(phases.ms(FrameStage::Wait), phases.totalMs());
  phases.mark(FrameStage::Render);  // nothing waited meanwhile: the phase keeps its time
  EXPECT_EQ(phases.ms(FrameStage::Interop), 0.0);
  EXPECT_NEAR(phases.ms(FrameStage::Wait) + phases.ms(FrameStage::Render), phases.totalMs(), 1e-9);
  phases.start();  // a new frame forgets the last one's
  EXPECT_EQ(phases.ms(FrameStage::Wait), 0.0);
}

// Switching scene drops the last scene's kernel rows (the image lab showed a stale
// "nbody step"); the frame's own stages stay.
TEST(FrameProfiler, AnotherSceneDropsTheLastScenesKernelRows) {
  AppState state;
  state.scene = SceneKind::NBody;
  state.stats.frameMs = 5.0;
  stagedReadings(state.nbody).kernelMs = 4.0;
  stagedReadings(state.nbody).timedSteps = 1;
  recordFrame(state);
  ASSERT_TRUE(state.profiler.find("nbody step"));
  state.scene = SceneKind::Image;
  stagedReadings(state.image).rotateMs = 1.0;
  stagedReadings(state.image).histogramMs = 0.5;
  stagedReadings(state.image).timedRuns = 1;
  recordFrame(state);
  EXPECT_FALSE(state.profiler.find("nbody step"));
  EXPECT_TRUE(state.profiler.find("rotate"));
  ASSERT_TRUE(state.profiler.find("frame"));
  EXPECT_EQ(state.profiler.find("frame")->samples.size(), 2u);
}

TEST(FrameProfiler, WindowLengthAppliesToEverySeries) {
  AppState state;
  state.scene = SceneKind::Julia;
  for (int i = 1; i <= 50; ++i) {
    state.stats.frameMs = i;
    state.breakdown.kernelMs = i * 0.5;
    recordFrame(state);
  }
  state.profiler.setWindow(10);
  EXPECT_EQ(state.profiler.window(), 10u);
  const SampleSummary frame = state.profiler.find("frame")->samples.summary();
  EXPECT_EQ(frame.count, 10u);
  EXPECT_DOUBLE_EQ(frame.min, 41.0);
  EXPECT_DOUBLE_EQ(frame.last, 50.0);
  EXPECT_EQ(state.profiler.find("julia")->samples.summary().count, 10u);
  EXPECT_EQ(state.profiler.stageHistory().size(), 10u);
  state.profiler.clear();
  EXPECT_TRUE(state.profiler.series().empty());
}

// The headless summary names the frames it measured: a 5-frame run says 5, not the window's 240;
// a long run says the window.
TEST(FrameProfiler, TheBreakdownCountsTheFramesMeasured) {
  AppState state;
  state.scene = SceneKind::Julia;
  for (int i = 1; i <= 5; ++i) {
    state.stats.frameMs = 2.0;
    recordFrame(state);
  }
  ASSERT_EQ(state.profiler.window(), 240u);
  const std::string shortRun = describeFrameBreakdown(state.profiler);
  EXPECT_NE(shortRun.find("medians over the last 5 frames"), std::string::npos) << shortRun;
  EXPECT_EQ(shortRun.find("240"), std::string::npos) << shortRun;
  for (int i = 0; i < 300; ++i) recordFrame(state);
  const std::string longRun = describeFrameBreakdown(state.profiler);
  EXPECT_NE(longRun.find("medians over the last 240 frames"), std::string::npos) << longRun;
}

// The panel's figures are summaries refreshed a few times a second, not re-sorted every frame;
// a series that has just appeared is shown at once.
TEST(FrameProfiler, ShownSummariesRefreshAFewTimesASecond) {
  FrameProfiler p;
  const auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  p.record("frame", 2.0);
  p.refreshShown(t0);
  EXPECT_EQ(p.find("frame")->shown.count, 1u);
  EXPECT_DOUBLE_EQ(p.find("frame")->shown.median, 2.0);

  p.record("frame", 4.0);
  p.record("rotate", 0.5, true);
  p.refreshShown(t0 + std::chrono::milliseconds(100));  // not due, but "rotate" shows nothing yet
  EXPECT_EQ(p.find("rotate")->shown.count, 1u);
  const auto t1 = t0 + std::chrono::milliseconds(100);
  p.record("frame", 6.0);
  p.refreshShown(t1 + std::chrono::milliseconds(100));  // not due: the figures stay put
  EXPECT_EQ(p.find("frame")->shown.count, 2u);
  EXPECT_DOUBLE_EQ(p.find("frame")->shown.median, 3.0);
  p.refreshShown(t1 + FrameProfiler::kShownRefresh);
  EXPECT_EQ(p.find("frame")->shown.count, 3u);
  EXPECT_DOUBLE_EQ(p.find("frame")->shown.median, 4.0);
  EXPECT_DOUBLE_EQ(p.find("frame")->shown.max, 6.0);
}

// At hundreds of frames a second the figures follow the frames too, not only the clock:
// a fast headless run's screenshot shows its own figures, not those of its first frames.
TEST(FrameProfiler, ShownSummariesAlsoRefreshEverySoManyFrames) {
  FrameProfiler p;
  const auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  p.record("frame", 50.0);  // a slow first frame
  p.refreshShown(t0);
  for (size_t i = 1; i <= FrameProfiler::kShownRefreshFrames; ++i) {
    p.record("frame", 2.0);
    EXPECT_DOUBLE_EQ(p.find("frame")->shown.max, 50.0);
    p.refreshShown(t0 + std::chrono::microseconds(i * 100));  // 60 frames in 6 ms
    if (i < FrameProfiler::kShownRefreshFrames) {
      EXPECT_EQ(p.find("frame")->shown.count, 1u) << i;
    }
  }
  EXPECT_EQ(p.find("frame")->shown.count, FrameProfiler::kShownRefreshFrames + 1);
  EXPECT_DOUBLE_EQ(p.find("frame")->shown.median, 2.0);
}

TEST(FrameProfiler, TheStackedChartsScaleIsTheP95OfTheFramesCpuTotals) {
  AppState state;
  state.scene = SceneKind::Julia;
  for (int i = 1; i <= 21; ++i) {
    state.phases.set(FrameStage::Ui, i);
    state.phases.set(FrameStage::Render, 1.0);
    state.stats.frameMs = i + 1.0;
    recordFrame(state);
  }
  state.profiler.refreshShownNow();
  EXPECT_DOUBLE_EQ(state.profiler.shownFrameP95(), 21.0);  // totals 2..22: rank 0.95 * 20 = 19 -> 21
}

TEST(PeakFp32, TableKnowsSomeGpusAndSaysUnknownOtherwise) {
  DeviceDescriptor h100;
  h100.kind = DeviceKind::Gpu;
  h100.vendor = "NVIDIA Corporation";
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.computeUnits = 132;
  h100.clockMHz = 1980;
  const auto peak = peakFp32(h100);
  ASSERT_TRUE(peak);
  EXPECT_NEAR(peak->gflops, 2.0 * 128 * 132 * 1980 * 1e-3, 1e-6);  // 66.9 TFLOP/s, NVIDIA's figure
  EXPECT_NE(peak->formula.find("Hopper"), std::string::npos);

  DeviceDescriptor a100 = h100;
  a100.name = "NVIDIA A100-SXM4-40GB";
  a100.computeUnits = 108;
  a100.clockMHz = 1410;
  ASSERT_TRUE(peakFp32(a100));
  EXPECT_NEAR(peakFp32(a100)->gflops, 19491.84, 0.01) << "64 lanes per SM on GA100, not A10's 128";

  std::string why;
  DeviceDescriptor cpu = h100;
  cpu.kind = DeviceKind::Cpu;
  EXPECT_FALSE(peakFp32(cpu, &why));
  EXPECT_NE(why.find("not a GPU"), std::string::npos) << why;
  DeviceDescriptor other = h100;
  other.vendor = "Advanced Micro Devices, Inc.";
  other.name = "gfx1100";
  EXPECT_FALSE(peakFp32(other, &why));
  EXPECT_NE(why.find("no entry"), std::string::npos) << why;
}

TEST(SessionProfiling, ScenesPublishKernelInfoAndTheDeviceCeilings) {
  test::SessionParts parts = test::sessionParts(320, 240);
  KS_NEED(parts.capability, parts.missing);
  AppState state;
  Session session(std::move(parts.catalog), test::smallSessionOptions(256), Settings{}, *parts.surface, state);
  // A window run measures the ceilings a step per frame: not yet, but under way.
  EXPECT_TRUE(state.ceilings.measuring);
  EXPECT_TRUE(state.ceilings.measured.empty());
  // A scene builds the kernels it starts with off the frame before it opens: frames until it has.
  auto openScene = [&](SceneKind kind) {
    state.commands.push(OpenScene{kind});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    session.applyRequests(state);
    while ((state.switching.scene || state.commands.has<OpenScene>()) && std::chrono::steady_clock::now() < deadline) {
      session.update(state, 1.0 / 60.0);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      session.applyRequests(state);
    }
    ASSERT_EQ(state.scene, kind) << state.preparing;
  };
  for (SceneKind kind : {SceneKind::NBody, SceneKind::Image, SceneKind::Julia}) {
    openScene(kind);
    if (::testing::Test::HasFatalFailure()) return;
    session.update(state, 1.0 / 60.0);
    recordFrame(state);
    // The image lab's run on a CPU device is shown when its worker has finished it.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (state.image.readings().runInFlight && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      session.update(state, 1.0 / 60.0);
    }
    // Kernel times arrive a frame late: a second frame, the device idle, brings them.
    session.compute().queue().finish();
    session.update(state, 1.0 / 60.0);
    recordFrame(state);
    ASSERT_FALSE(state.activeKernels.empty()) << int(kind);
    for (const ActiveKernel& k : state.activeKernels) {
      EXPECT_GT(k.info.workGroupSize, 0u) << k.role;
      EXPECT_GT(k.info.preferredMultiple, 0u) << k.role;
      EXPECT_GT(k.buildMs, 0.0) << k.role;
      EXPECT_FALSE(k.file.empty()) << k.role;
    }
    // The scene's own kernel rows (another scene's went when this one started).
    const char* row = kind == SceneKind::NBody ? "nbody step" : kind == SceneKind::Image ? "rotate" : "julia";
    EXPECT_NE(state.profiler.find(row), nullptr) << row;
  }
  // the image kernels carry their build options (-DCHANNELS=...)
  openScene(SceneKind::Image);
  if (::testing::Test::HasFatalFailure()) return;
  session.update(state, 1.0 / 60.0);
  EXPECT_NE(state.activeKernels.front().options.find("CHANNELS"), std::string::npos) << state.activeKernels.front().options;
  EXPECT_GT(state.programCache.misses, 0u);
}

}  // namespace
}  // namespace ks
