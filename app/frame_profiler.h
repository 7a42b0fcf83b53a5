#pragma once
// Rolling timing statistics for the profiling panel: one RollingSamples per frame
// stage and per kernel, fed once per frame from what the main loop measured on the
// CPU (its phases), the scenes measured (OpenCL events, waits, interop) and the GL
// timer query (drawing on the GPU).
// Stages and kernels are recorded only on frames where the scene ran them, so a
// paused simulation or an unchanged image does not repeat stale figures.
#include <array>
#include <chrono>
#include <deque>
#include <string>
#include <vector>

#include "compute/sample_stats.h"

namespace ks {

struct AppState;

// One frame, stage by stage. The CPU stages (Input .. Other) add up to the frame's
// wall time, stacked from the bottom up in this order; the GPU stages run beside
// them (kernels overlap the CPU's work and GL's drawing) and are drawn apart.
enum class FrameStage {
  Input,     // window events
  Update,    // scenes and session: enqueueing kernels, CPU work (less Interop and Wait)
  Interop,   // acquire + release + host copy, as the CPU spent them
  Wait,      // the CPU blocked on the GPU: fences, events (pacing, not work)
  Ui,        // building the panels
  Render,    // issuing the frame's GL draws and ImGui's
  Present,   // swapping buffers (the driver may throttle or wait for vsync there) and capture
  Other,     // the rest of the frame
  GpuKernels,  // the newest kernel run's OpenCL event times
  GpuRender,   // the frame's drawing on the GPU (GL timer query)
  Count
};
constexpr size_t kCpuStageCount = static_cast<size_t>(FrameStage::Other) + 1;
const char* frameStageName(FrameStage stage);

// Times the CPU phases of one frame with the steady clock.
class FramePhases {
 public:
  void start();
  // The time since the last mark (or start) goes to `stage`, less what the
  // interop layer spent meanwhile, which goes to Interop and Wait (takeHandOverClock).
  void mark(FrameStage stage);
  double ms(FrameStage stage) const { return ms_[static_cast<size_t>(stage)]; }
  double totalMs() const;  // start to the last mark
  void set(FrameStage stage, double ms) { ms_[static_cast<size_t>(stage)] = ms; }  // tests

 private:
  std::chrono::steady_clock::time_point start_, last_;
  std::array<double, static_cast<size_t>(FrameStage::Count)> ms_{};
};

class FrameProfiler {
 public:
  struct Series {
    std::string name;
    bool kernel = false;  // a kernel's time (vs. a frame stage)
    RollingSamples samples;
    // What the Profiler shows: the samples' summary as of the last refreshShown(). Sorting
    // every series every frame cost about a third of the panels' CPU time, and figures
    // that change hundreds of times a second cannot be read anyway.
    SampleSummary shown;
  };
  // Milliseconds per stage for one frame, for the stacked graphs; Other is the
  // frame time not accounted for by the measured CPU stages.
  using StageFrame = std::array<double, static_cast<size_t>(FrameStage::Count)>;

  explicit FrameProfiler(size_t window = 240) : window_(window) {}
  void record(const std::string& name, double ms, bool kernel = false);
  void recordStages(const StageFrame& frame);
  // Window length in samples (frames for the stages), for every series.
  void setWindow(size_t samples);
  size_t window() const { return window_; }
  const std::vector<Series>& series() const { return series_; }
  const Series* find(const std::string& name) const;
  const std::deque<StageFrame>& stageHistory() const { return stages_; }
  void clear();
  // Refreshes every series' `shown` summary and shownFrameP95() when kShownRefresh has
  // passed since the last refresh, or kShownRefreshFrames frames have been recorded
  // (fast runs: a screenshot after 200 frames at 500 FPS shows their own figures),
  // or a series has samples but nothing shown yet.
  void refreshShown(std::chrono::steady_clock::time_point now);
  void refreshShownNow();
  // The p95 of the frames' CPU totals as of the last refresh: the stacked charts' scale.
  double shownFrameP95() const { return shownFrameP95_; }
  static constexpr std::chrono::milliseconds kShownRefresh{250};
  static constexpr size_t kShownRefreshFrames = 60;

  // Drops the kernels' series (their rows); the frame stages stay.
  void forgetKernels();

  // What the scenes last ran, to record only new kernel runs (see recordFrame), and
  // the scene whose kernels the series hold (another scene's rows go when it changes).
  unsigned long long seenNBodyTimings = 0, seenImageRuns = 0;
  int seenScene = -1;

 private:
  size_t window_;
  std::vector<Series> series_;  // in first-recorded order: the panel's rows keep their places
  std::deque<StageFrame> stages_;
  std::chrono::steady_clock::time_point shownAt_{};
  bool shownValid_ = false;
  size_t framesSinceShown_ = 0;
  double shownFrameP95_ = 0.0;
};

// This frame's stages from the loop's phases (state.phases), the scene's readings
// (state.breakdown) and the frame time (state.stats.frameMs); `ran`: the scene's
// kernel times are new this frame.
FrameProfiler::StageFrame frameStages(const AppState& state, bool ran);
// Feeds state.profiler from this frame's readings. Called once per frame, after
// the scene's update and the frame time are known.
void recordFrame(AppState& state);
// "frame 3.10 = input 0.01 + update 0.20 + ... ; GPU: kernels 2.9, render 0.3": the
// median of each stage's series, for the headless summary.
std::string describeStageMedians(const FrameProfiler& profiler);
// "frame breakdown (medians over the last 5 frames, ms): ...": the summary's line, counting
// the frames actually measured (a 5-frame run has 5, not the window's 240).
std::string describeFrameBreakdown(const FrameProfiler& profiler);

}  // namespace ks
