#include "app/run_recorder.h"

#include "app/kernel_bounds.h"

#include "lab/sweep_runs.h"
#include "compute/kernel_files.h"
#include "compute/nbody_benchmark.h"
#include "compute/plain_config_words.h"

namespace ks {

SceneSample sampleScene(const AppState& state) {
  SceneSample s;
  switch (state.scene) {
    case SceneKind::NBody: {
      const NBodyReadings& nb = state.nbody.readings();
      const double n = static_cast<double>(nb.runningBodies);
      s.kernelMs = nb.kernelMs;  // one step
      s.work = n * n * nbodyFlopsPerInteraction(nb.runningConfig);
      s.rateUnit = "GFLOP/s";
      s.sceneName = "nbody";
      s.kernelFile = kNBodyKernelFile;
      break;
    }
    case SceneKind::Image: {
      const ImageLabState& lab = state.image;
      s.kernelMs = lab.readings().rotateMs + lab.readings().transposeMs + lab.readings().histogramMs;
      // The bytes an ideal pipeline moves: rotation reads the input and writes its
      // result, the transpose reads and writes the result, the histogram reads once.
      const ImageLayout in{lab.readings().width, lab.readings().height, lab.readings().channels};
      const ImageLayout out{lab.readings().resultWidth, lab.readings().resultHeight, lab.readings().resultChannels};
      s.work = static_cast<double>(in.bytes() + out.bytes()) + (lab.choices.transpose ? 2.0 * out.bytes() : 0.0) +
               static_cast<double>(lab.choices.histogramOfResult ? out.bytes() : in.bytes());
      s.rateUnit = "GB/s";
      s.sceneName = "image";
      s.kernelFile = kRotateKernelFile;
      break;
    }
    case SceneKind::Julia:
      s.kernelMs = state.breakdown.kernelMs;
      s.sceneName = "julia";
      s.kernelFile = "pattern.cl";
      break;
  }
  return s;
}

std::vector<std::pair<std::string, std::string>> sceneParameters(const AppState& state) {
  std::vector<std::pair<std::string, std::string>> p;
  switch (state.scene) {
    case SceneKind::NBody: {
      const NBodyState& nb = state.nbody;
      p = nbodyParameters(nb.readings().runningConfig);
      p.emplace_back("bodies", std::to_string(nb.readings().runningBodies));
      p.emplace_back("steps_per_frame", std::to_string(nb.choices.stepsPerFrame));
      p.emplace_back("preset", nbodyPresetName(nb.choices.preset));
      break;
    }
    case SceneKind::Image: {
      const ImageLabState& lab = state.image;
      p.emplace_back("image",
                     describeImageLayout({lab.readings().width, lab.readings().height, lab.readings().channels}));
      p.emplace_back("rotate", lab.readings().runningRotate);
      p.emplace_back("angle", std::to_string(lab.choices.angle));
      p.emplace_back("transpose", lab.choices.transpose ? lab.readings().runningTranspose : "off");
      p.emplace_back("histogram", lab.readings().runningHistogram);
      break;
    }
    case SceneKind::Julia:
      p.emplace_back("size", std::to_string(state.pattern.size));
      p.emplace_back("iterations", std::to_string(state.pattern.iterations));
      break;
  }
  p.emplace_back("vsync", state.vsync ? "1" : "0");
  return p;
}

namespace {
// The image lab's kernels, as the N-body name gives its configuration: two recordings
// that differ in a kernel get names that say so ("rotate nearest wg=32x8 ppi=4 + histogram ...").
std::string imageKernelsInName(const ImageLabState& lab) {
  // " + " between them, not a comma: a comma stuck to "ppi=4" is read as part of its value.
  std::string kernels = "rotate " + lab.readings().runningRotate;
  if (lab.choices.transpose) kernels += " + transpose " + lab.readings().runningTranspose;
  return kernels + " + histogram " + lab.readings().runningHistogram;
}
}  // namespace

void RunRecorder::onFrame(AppState& state, double frameMs, const ComputeContext& compute) {
  RecordingState& rec = state.runs.recording;
  if (state.commands.takeAny<StopRecording>()) {
    if (phase_ != Phase::Idle) rec.status = "cancelled";
    phase_ = Phase::Idle;
  }
  if (state.commands.takeAny<StartRecording>()) {
    // The frame just finished ran before the request: it counts for nothing.
    warmupLeft_ = std::max(rec.warmup, 0);
    phase_ = warmupLeft_ > 0 ? Phase::WarmUp : Phase::Recording;
    scene_ = state.scene;
    frameMs_.clear();
    kernelMs_.clear();
    stages_.clear();
    split_.clear();
    startClock(state);
    rec.progress = 0.0;
    rec.status = phase_ == Phase::WarmUp ? "warming up" : "recording";
    rec.active = true;
    return;
  }
  if (phase_ != Phase::Idle && state.scene != scene_) {
    phase_ = Phase::Idle;
    rec.status = "stopped: the scene changed";
  }
  rec.active = phase_ != Phase::Idle;
  if (phase_ == Phase::Idle) return;
  if (phase_ == Phase::WarmUp) {
    rec.status = "warming up (" + std::to_string(--warmupLeft_) + " frames left)";
    startClock(state);  // the recording's clock starts after the last warm-up frame
    if (warmupLeft_ <= 0) phase_ = Phase::Recording;
    return;
  }
  energy_.onFrame(state.telemetry);
  frameMs_.push_back(frameMs);
  kernelMs_.push_back(sampleScene(state).kernelMs);
  stages_.push_back(frameStages(state, true));
  if (state.scene == SceneKind::NBody) split_.onFrame(state.nbody.readings().split);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  rec.progress = rec.bySeconds ? seconds / std::max(rec.seconds, 0.01f)
                               : static_cast<double>(frameMs_.size()) / std::max(rec.frames, 1);
  rec.status = "recording " + std::to_string(frameMs_.size()) + (rec.bySeconds ? " frames" : "/" + std::to_string(rec.frames));
  if (rec.progress >= 1.0) finish(state, compute);
}

namespace {

// What the energy of a recording is divided by: the work the scene did meanwhile.
unsigned long long workCount(const AppState& state) {
  return state.scene == SceneKind::NBody   ? state.nbody.readings().steps
         : state.scene == SceneKind::Image ? state.image.readings().pipelineRuns
                                           : 0;
}

}  // namespace

void RunRecorder::startClock(const AppState& state) {
  start_ = std::chrono::steady_clock::now();
  energy_.begin(state.telemetry, steadySeconds());
  workAtStart_ = workCount(state);
}

void RunRecorder::finish(AppState& state, const ComputeContext& compute) {
  RecordingState& rec = state.runs.recording;
  phase_ = Phase::Idle;
  rec.active = false;
  rec.progress = 1.0;
  const SceneSample sample = sampleScene(state);
  RunRecord r;
  r.meta = runMetadataFor(compute.device());
  r.meta.ceilings = ceilingValues(state.ceilings.measured);
  r.meta.scene = sample.sceneName;
  r.meta.interop = interopPathName(state.interopPath);
  r.meta.parameters = sceneParameters(state);
  try {
    r.meta.sourceHash = hexHash(hashSource(readKernelSource(compute.kernelsDir(), sample.kernelFile)));
  } catch (const std::exception&) {
    // the kernel file went away after the build: the run is still worth keeping
  }
  r.m.frames = frameMs_.size();
  r.m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  r.m.fps = r.m.seconds > 0 ? static_cast<double>(r.m.frames) / r.m.seconds : 0.0;
  r.m.frameMs = summarize(frameMs_);
  r.m.kernelMs = summarize(kernelMs_);
  r.m.rateUnit = sample.rateUnit;
  for (const TimedKernelBound& k : timedKernelBounds(state))  // as the Profiler's roofline shows it now
    if (!k.bound.label().empty()) r.m.bound += (r.m.bound.empty() ? "" : "; ") + k.name + ": " + k.bound.label();
  for (size_t i = 0; i < static_cast<size_t>(FrameStage::Count); ++i) {
    std::vector<double> values;
    for (const auto& f : stages_) values.push_back(f[i]);
    r.m.stageMedianMs.emplace_back(frameStageName(static_cast<FrameStage>(i)), summarize(values).median);
  }
  if (!sample.rateUnit.empty() && r.m.kernelMs.median > 0)
    r.m.rate = sample.work / (r.m.kernelMs.median * 1e-3) * 1e-9;
  // Energy per G interactions (N-body: n^2 per step) or per GB the image pipeline moved.
  const double done = static_cast<double>(workCount(state) - std::min(workCount(state), workAtStart_));
  const double bodies = static_cast<double>(state.nbody.readings().runningBodies);
  const bool nbody = state.scene == SceneKind::NBody;
  r.m.energy = energy_.finish(state.telemetry, steadySeconds(), done * (nbody ? bodies * bodies : sample.work) * 1e-9,
                              nbody ? "J/G interactions" : "J/GB");
  // The drift the N-body panel shows: from its baseline (the last reset or change) to the
  // newest measurement. Switched off, the last readings stay but describe an older system.
  if (const NBodyConservationReadings& c = state.nbody.readings().conservation;
      state.scene == SceneKind::NBody && state.nbody.choices.conservation.on && c.hasDrift && c.unavailable.empty()) {
    r.m.energyDrift = c.drift.energy;
    r.m.momentumDrift = c.drift.momentum;
    r.m.angularMomentumDrift = c.drift.angularMomentum;
    r.m.driftSteps = c.lastStep - c.baselineStep;
  }
  r.name = "recording " + std::to_string(++rec.recorded) + ": " + sample.sceneName;
  if (state.scene == SceneKind::NBody) r.name += " " + describeNBodyConfig(state.nbody.readings().runningConfig);
  if (state.scene == SceneKind::Image) r.name += " " + imageKernelsInName(state.image);
  if (state.scene == SceneKind::NBody) r.m.split = split_.result();
  if (r.m.split.split()) r.name += " on " + std::to_string(r.m.split.devices) + " devices";
  char text[160];
  std::snprintf(text, sizeof text, "done: %zu frames, %.1f FPS, kernel median %.3f ms", r.m.frames, r.m.fps,
                r.m.kernelMs.median);
  rec.status = text;
  state.report(plainConfigurationWords(r.name) + "; " + text + " (in the Runs panel until exported)");
  state.runs.addMeasuredRun(std::move(r));
}

}  // namespace ks
