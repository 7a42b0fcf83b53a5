#include "app/frame_profiler.h"

#include <algorithm>
#include <cstdio>

#include "app/app_state.h"
#include "compute/interop/interop.h"

namespace ks {

const char* frameStageName(FrameStage stage) {
  switch (stage) {
    case FrameStage::Input: return "input";
    case FrameStage::Update: return "update";
    case FrameStage::Interop: return "interop";
    case FrameStage::Wait: return "wait for GPU";
    case FrameStage::Ui: return "UI";
    case FrameStage::Render: return "render";
    case FrameStage::Present: return "present";
    case FrameStage::Other: return "other";
    case FrameStage::GpuKernels: return "kernels (GPU)";
    case FrameStage::GpuRender: return "render (GPU)";
    case FrameStage::Count: break;
  }
  return "?";
}

void FramePhases::start() {
  start_ = last_ = std::chrono::steady_clock::now();
  ms_.fill(0.0);
  takeHandOverClock();  // what happened between frames is not this frame's
}

void FramePhases::mark(FrameStage stage) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double, std::milli>(now - last_).count();
  const HandOverClock handOver = takeHandOverClock();
  const double handed = std::min(elapsed, handOver.interopMs + handOver.waitMs);  // both are inside `elapsed`
  const double share = handOver.interopMs + handOver.waitMs > 0 ? handed / (handOver.interopMs + handOver.waitMs) : 0;
  ms_[static_cast<size_t>(FrameStage::Interop)] += handOver.interopMs * share;
  ms_[static_cast<size_t>(FrameStage::Wait)] += handOver.waitMs * share;
  ms_[static_cast<size_t>(stage)] += elapsed - handed;
  last_ = now;
}

double FramePhases::totalMs() const { return std::chrono::duration<double, std::milli>(last_ - start_).count(); }

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
  refreshShownNow();
}

const FrameProfiler::Series* FrameProfiler::find(const std::string& name) const {
  for (const auto& s : series_)
    if (s.name == name) return &s;
  return nullptr;
}

void FrameProfiler::clear() {
  series_.clear();
  stages_.clear();
  shownValid_ = false;
  shownFrameP95_ = 0.0;
}

void FrameProfiler::forgetKernels() {
  series_.erase(std::remove_if(series_.begin(), series_.end(), [](const Series& s) { return s.kernel; }), series_.end());
}

void FrameProfiler::refreshShown(std::chrono::steady_clock::time_point now) {
  bool due = !shownValid_ || now - shownAt_ >= kShownRefresh || ++framesSinceShown_ >= kShownRefreshFrames;
  for (const auto& s : series_) due = due || (s.shown.count == 0 && !s.samples.empty());
  if (!due) return;
  refreshShownNow();
  shownAt_ = now;
}

void FrameProfiler::refreshShownNow() {
  for (auto& s : series_) s.shown = s.samples.summary();
  std::vector<double> totals;
  totals.reserve(stages_.size());
  for (const auto& f : stages_) {
    double cpu = 0.0;
    for (size_t i = 0; i < kCpuStageCount; ++i) cpu += f[i];
    totals.push_back(cpu);
  }
  shownFrameP95_ = summarize(totals).p95;
  shownValid_ = true;
  framesSinceShown_ = 0;
}

FrameProfiler::StageFrame frameStages(const AppState& state, bool ran) {
  const FrameBreakdown& b = state.breakdown;
  const FramePhases& phases = state.phases;
  FrameProfiler::StageFrame stages{};
  auto at = [&](FrameStage s) -> double& { return stages[static_cast<size_t>(s)]; };
  // The phases hold the interop layer's time apart already (FramePhases::mark).
  for (FrameStage s : {FrameStage::Input, FrameStage::Update, FrameStage::Interop, FrameStage::Wait, FrameStage::Ui,
                       FrameStage::Render, FrameStage::Present})
    at(s) = phases.ms(s);
  double measured = 0.0;
  for (size_t i = 0; i + 1 < kCpuStageCount; ++i) measured += stages[i];
  at(FrameStage::Other) = std::max(0.0, state.stats.frameMs - measured);
  at(FrameStage::GpuKernels) = ran ? b.kernelMs : 0.0;
  at(FrameStage::GpuRender) = b.renderMs;
  return stages;
}

void recordFrame(AppState& state) {
  FrameProfiler& p = state.profiler;
  const FrameBreakdown& b = state.breakdown;
  // Another scene: the last one's kernel rows (an "nbody step" in the image lab) go.
  if (p.seenScene != static_cast<int>(state.scene)) {
    p.forgetKernels();
    p.seenScene = static_cast<int>(state.scene);
  }
  // Did new kernel times arrive this frame?
  bool ran = false;
  switch (state.scene) {
    case SceneKind::NBody:
      if (state.nbody.readings().timedSteps != p.seenNBodyTimings) {
        ran = true;
        p.seenNBodyTimings = state.nbody.readings().timedSteps;
        p.record("nbody step", state.nbody.readings().kernelMs, true);
      }
      break;
    case SceneKind::Image:
      if (state.image.readings().timedRuns != p.seenImageRuns) {
        p.seenImageRuns = state.image.readings().timedRuns;
        ran = true;
        p.record("rotate", state.image.readings().rotateMs, true);
        if (state.image.readings().transposeMs > 0.0) p.record("transpose", state.image.readings().transposeMs, true);
        p.record("histogram", state.image.readings().histogramMs, true);
      }
      break;
    case SceneKind::Julia:
      ran = b.kernelMs > 0.0;  // 0 on the first frame: its time arrives with the next
      if (ran) p.record("julia", b.kernelMs, true);
      break;
  }
  const FrameProfiler::StageFrame stages = frameStages(state, ran);
  p.record("frame", state.stats.frameMs);
  for (size_t i = 0; i < stages.size(); ++i) {
    const auto stage = static_cast<FrameStage>(i);
    // Kernel times only on frames that brought new ones; the GL timer's 0 before its
    // first result (read a frame late) is not a measurement.
    if (stage == FrameStage::GpuKernels && !ran) continue;
    if (stage == FrameStage::GpuRender && stages[i] <= 0.0) continue;
    p.record(frameStageName(stage), stages[i]);
  }
  if (ran) {
    p.record("acquire", b.acquireMs);
    p.record("release", b.releaseMs);
    p.record("copy", b.copyMs);
  }
  p.recordStages(stages);
  p.refreshShown(std::chrono::steady_clock::now());
}

std::string describeStageMedians(const FrameProfiler& profiler) {
  auto median = [&](const char* name) {
    const FrameProfiler::Series* s = profiler.find(name);
    return s && !s->samples.empty() ? s->samples.summary().median : 0.0;
  };
  char part[96];
  std::snprintf(part, sizeof part, "frame %.3f =", median("frame"));
  std::string text = part;
  for (size_t i = 0; i < kCpuStageCount; ++i) {
    const char* name = frameStageName(static_cast<FrameStage>(i));
    std::snprintf(part, sizeof part, "%s %s %.3f", i ? " +" : "", name, median(name));
    text += part;
  }
  std::snprintf(part, sizeof part, "; on the GPU: kernels %.3f, render %.3f", median("kernels (GPU)"),
                median("render (GPU)"));
  return text + part;
}

std::string describeFrameBreakdown(const FrameProfiler& profiler) {
  const FrameProfiler::Series* frame = profiler.find("frame");
  const size_t measured = frame ? frame->samples.size() : 0;
  const std::string frames = measured == 1 ? "the 1 frame measured" : "the last " + std::to_string(measured) + " frames";
  return "frame breakdown (medians over " + frames + ", ms): " + describeStageMedians(profiler);
}

}  // namespace ks
