#pragma once
// Rolling timing statistics for the profiling panel: one RollingSamples per frame
// stage (frame, acquire, kernels, release, copy, render) and per kernel, fed once
// per frame from what the scenes measured (OpenCL events, GL timer queries).
// Stages and kernels are recorded only on frames where the scene ran them, so a
// paused simulation or an unchanged image does not repeat stale figures.
#include <array>
#include <deque>
#include <string>
#include <vector>

#include "compute/sample_stats.h"

namespace ks {

struct AppState;

// The stacked per-frame breakdown, in the order drawn from the bottom up.
enum class FrameStage { Acquire, Kernels, Release, Copy, Render, Other, Count };
const char* frameStageName(FrameStage stage);

class FrameProfiler {
 public:
  struct Series {
    std::string name;
    bool kernel = false;  // a kernel's time (vs. a frame stage)
    RollingSamples samples;
  };
  // Milliseconds per stage for one frame, for the stacked graph; Other is the
  // frame time not accounted for by the measured stages (UI, waiting for vsync).
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

  // What the scenes last ran, to record only new kernel runs (see recordFrame).
  unsigned long long seenNBodySteps = 0, seenImageRuns = 0;

 private:
  size_t window_;
  std::vector<Series> series_;  // in first-recorded order: the panel's rows keep their places
  std::deque<StageFrame> stages_;
};

// Feeds state.profiler from this frame's readings (state.stats, breakdown, the
// scene's kernel times). Called once per frame, after the scene's update and the
// frame time are known.
void recordFrame(AppState& state);

}  // namespace ks
