#include "app/frame_profiler.h"

#include <algorithm>

#include "app/app_state.h"

namespace ks {

const char* frameStageName(FrameStage stage) {
  switch (stage) {
    case FrameStage::Acquire: return "acquire";
    case FrameStage::Kernels: return "kernels";
    case FrameStage::Release: return "release";
    case FrameStage::Copy: return "copy";
    case FrameStage::Render: return "render";
    case FrameStage::Other: return "other";
    case FrameStage::Count: break;
  }
  return "?";
}

void FrameProfiler::record(const std::string& name, double ms, bool kernel) {
  auto it = std::find_if(series_.begin(), series_.end(), [&](const Series& s) { return s.name == name; });
  if (it == series_.end()) {
    series_.push_back({name, kernel, RollingSamples(window_)});
    it = series_.end() - 1;
  }
  it->samples.push(ms);
}

void FrameProfiler::recordStages(const StageFrame& frame) {
  stages_.push_back(frame);
  while (stages_.size() > window_) stages_.pop_front();
}

void FrameProfiler::setWindow(size_t samples) {
  window_ = std::max<size_t>(samples, 1);
  for (auto& s : series_) s.samples.setCapacity(window_);
  while (stages_.size() > window_) stages_.pop_front();
}

const FrameProfiler::Series* FrameProfiler::find(const std::string& name) const {
  for (const auto& s : series_)
    if (s.name == name) return &s;
  return nullptr;
}

void FrameProfiler::clear() {
  series_.clear();
  stages_.clear();
}

void recordFrame(AppState& state) {
  FrameProfiler& p = state.profiler;
  const FrameBreakdown& b = state.breakdown;
  // Did the scene run its kernels this frame?
  bool ran = false;
  switch (state.scene) {
    case SceneKind::NBody:
      if (state.nbody.steps != p.seenNBodySteps) {
        ran = state.nbody.steps > p.seenNBodySteps;
        p.seenNBodySteps = state.nbody.steps;
        if (ran) p.record("nbody step", state.nbody.kernelMs, true);
      }
      break;
    case SceneKind::Image:
      if (state.image.pipelineRuns != p.seenImageRuns) {
        p.seenImageRuns = state.image.pipelineRuns;
        ran = true;
        p.record("rotate", state.image.rotateMs, true);
        if (state.image.transposeMs > 0.0) p.record("transpose", state.image.transposeMs, true);
        p.record("histogram", state.image.histogramMs, true);
      }
      break;
    case SceneKind::Julia:
      ran = true;
      p.record("julia", b.kernelMs, true);
      break;
  }
  p.record("frame", state.stats.frameMs);
  // 0 until the GL timer has its first result (read a frame late): not a measurement.
  if (b.renderMs > 0.0) p.record("render", b.renderMs);
  FrameProfiler::StageFrame stages{};
  auto at = [&](FrameStage s) -> double& { return stages[static_cast<size_t>(s)]; };
  at(FrameStage::Render) = b.renderMs;
  if (ran) {
    p.record("acquire", b.acquireMs);
    p.record("kernels", b.kernelMs);
    p.record("release", b.releaseMs);
    p.record("copy", b.copyMs);
    at(FrameStage::Acquire) = b.acquireMs;
    at(FrameStage::Kernels) = b.kernelMs;
    at(FrameStage::Release) = b.releaseMs;
    at(FrameStage::Copy) = b.copyMs;
  }
  double measured = 0.0;
  for (size_t i = 0; i + 1 < stages.size(); ++i) measured += stages[i];
  at(FrameStage::Other) = std::max(0.0, state.stats.frameMs - measured);
  p.recordStages(stages);
}

}  // namespace ks
