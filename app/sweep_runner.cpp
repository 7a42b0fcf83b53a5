#include "app/sweep_runner.h"

#include <algorithm>

#include "app/run_recorder.h"
#include "app/session.h"
#include "lab/histogram_runs.h"
#include "lab/rotate_runs.h"
#include "lab/sweep_runs.h"
#include "compute/plain_config_words.h"
#include "compute/random_picture.h"
#include "compute/sweep_plan.h"

namespace ks {

bool SweepRunner::choosePicture(SweepUiState& ui, const DeviceDescriptor& device, size_t outBytes) {
  layout_ = {ui.imageSize, ui.imageSize, ui.channels};
  if (const std::string p = imageLayoutProblem(layout_);
      !p.empty() || std::max(layout_.bytes(), outBytes) > device.maxAllocBytes) {
    ui.status = "cannot sweep on " + describeImageLayout(layout_) + ": " + (p.empty() ? "too large" : p);
    return false;
  }
  outBytes_ = outBytes;
  picture_ = std::make_shared<SweepPicture>();  // made by start(), on the worker where there is one
  return true;
}

void SweepRunner::start(AppState& state, ComputeContext& compute) {
  SweepUiState& ui = state.runs.sweep;
  const DeviceDescriptor& device = compute.device();
  target_ = ui.target;
  compute_ = &compute;
  next_ = 0;
  nbody_ = {}, transpose_ = {}, rotate_ = {}, histogram_ = {}, interop_ = {};
  ui.results.clear();
  ui.resultsTarget = target_;  // the panel shows them while this kind is chosen
  // The last sweep's counts go with its results (a start refused below shows none).
  ui.done = ui.total = ui.refused = 0;
  ui.elapsedSeconds = ui.etaSeconds = 0.0;
  if (target_ == SweepTarget::Interop) {
    // Paths the device and GL context cannot use are refused with the reason.
    for (const InteropPathStatus& p : state.interopPaths) {
      if (p.available) {
        interop_.queue.push_back(p.path);
        continue;
      }
      RunRecord r;
      r.name = std::string("interop ") + interopPathName(p.path);
      r.status = "refused: " + p.reason;
      r.meta = runMetadataFor(device);
      r.meta.scene = sampleScene(state).sceneName;
      r.meta.interop = interopPathName(p.path);
      r.meta.parameters = sceneParameters(state);
      ui.results.push_back(std::move(r));
      interop_.results.push_back(p.path);
    }
    originalPath_ = state.interopPath;
    interopPhase_ = InteropPhase::Switch;
    ui.total = state.interopPaths.size();
    ui.refused = ui.total - interop_.queue.size();
  } else if (target_ == SweepTarget::NBody) {
    NBodyConfig base = state.nbody.readings().runningConfig;  // precision and build flags as they run now
    bodies_ = sweptBodies(state);
    const SweepPlan<NBodyConfig> plan =
        planNBodySweep({ui.nbodyVariants, ui.workGroups, ui.unrolls, ui.bodiesPerItem, ui.splits}, base, device);
    queuePlan(ui, nbody_, plan,
              [&](const NBodyConfig& c, const std::string& why) { return refusedNBodyRun(device, c, why, bodies_); });
    system_ = makeNBodyPreset(state.nbody.choices.preset, bodies_, 1);
    params_ = nbodyPresetDefaults(state.nbody.choices.preset, bodies_).params;
  } else if (target_ == SweepTarget::Rotate) {
    if (!startRotate(state, compute)) return;
  } else if (target_ == SweepTarget::Histogram) {
    if (!startHistogram(state, compute)) return;
  } else {
    if (!choosePicture(ui, device, ImageLayout{ui.imageSize, ui.imageSize, ui.channels}.bytes())) return;
    const SweepPlan<TransposeConfig> plan =
        planTransposeSweep({ui.transposeVariants, ui.tiles, ui.rowsPerItem, ui.tileWorkGroups, {}}, device, ui.channels);
    queuePlan(ui, transpose_, plan, [&](const TransposeConfig& c, const std::string& why) {
      return refusedTransposeRun(device, c, layout_, why);
    });
  }
  ui.done = ui.refused;
  // A CPU device runs one launch for longer than a frame may take: the trials run on a thread of their own.
  if (sweepLaunchesOffTheFrame(device) && target_ != SweepTarget::Interop)
    worker_ = std::make_unique<BackgroundRuns>(compute.context(), device.id);
  publishHold(ui);
  if (picture_) {
    // The picture the image operations read (and write): random bytes, made,
    // allocated and written on the worker where there is one (at 8192x8192 RGBA
    // that held the frame that started the sweep for over a second).
    auto make = [picture = picture_, context = compute.context(), bytes = layout_.bytes(),
                 outBytes = outBytes_](Queue& queue) {
      picture->in = Buffer(context, CL_MEM_READ_ONLY, bytes);
      picture->out = Buffer(context, CL_MEM_READ_WRITE, outBytes);
      const std::vector<uint8_t> random = randomPictureBytes(bytes);
      queue.writeBuffer(picture->in, 0, bytes, random.data());
    };
    if (worker_)
      worker_->start(std::move(make));
    else
      make(compute.queue());
  }
  active_ = true;
  cancelled_ = false;
  ui.active = true;
  ui.status = "running";
  start_ = std::chrono::steady_clock::now();
}

void SweepRunner::finish(AppState& state, const std::string& status) {
  SweepUiState& ui = state.runs.sweep;
  active_ = false;
  ui.active = ui.building = false;
  ui.status = status;
  // Nothing waited for: launches in flight finish on the device (OpenCL keeps
  // what they use, the worker's trial keeps the picture) while frames go on.
  dropTrial();
  if (worker_) {
    // The picture is freed on the worker too (two 256 MiB buffers took a frame 200 ms).
    if (!worker_->busy()) worker_->start([picture = std::move(picture_)](Queue&) {});
    retired_.push_back(std::move(worker_));
  }
  publishHold(ui);  // held until a dropped trial's launch has finished
  system_.reset();
  if (target_ == SweepTarget::Interop && state.interopPath != originalPath_) state.commands.push(SwitchInterop{originalPath_});
  picture_.reset();
  // Every result carries the device's ceilings; the runs that ran join the comparison table.
  for (RunRecord& r : ui.results) r.meta.ceilings = ceilingValues(state.ceilings.measured);
  for (const RunRecord& r : ui.results)
    if (r.ok()) state.runs.addMeasuredRun(r);
}

bool sweepLaunchesOffTheFrame(const DeviceDescriptor& device) { return device.kind == DeviceKind::Cpu; }

SweepRunner::SweepRunner() = default;

SweepRunner::~SweepRunner() {
  dropTrial();  // the worker stops after its launch in flight; the workers' destructors wait for that launch
}

void SweepRunner::dropTrial() { trial_.reset(); }

void SweepRunner::pollRetiredWorkers() {
  std::erase_if(retired_, [](const std::unique_ptr<BackgroundRuns>& worker) {
    try {
      worker->poll();
    } catch (const std::exception&) {
      // A dropped trial's launch failed: its result was not wanted.
    }
    return !worker->busy();
  });
}

void SweepRunner::publishHold(SweepUiState& ui) const { ui.holdsDevice = worker_ != nullptr || !retired_.empty(); }

size_t sweptBodies(const AppState& state) {
  if (state.runs.sweep.bodies > 0) return static_cast<size_t>(state.runs.sweep.bodies);
  const size_t running = state.nbody.readings().runningBodies;
  return running > 0 ? running : static_cast<size_t>(std::max(state.nbody.choices.bodies, 1));
}

void SweepRunner::applyBest(AppState& state, const ComputeContext& compute) {
  SweepUiState& ui = state.runs.sweep;
  RunsState& runs = state.runs;
  const int best = bestRunIndex(ui.results);
  if (best < 0) {
    ui.message = "no sweep result to apply";
    return;
  }
  const RunRecord& winner = ui.results[static_cast<size_t>(best)];
  if (target_ == SweepTarget::Interop) {
    // The interop path is the user's choice of the moment, not a tuned default: apply, do not cache.
    state.commands.push(SwitchInterop{interop_.results[static_cast<size_t>(best)]});
    ui.message = "applied " + plainConfigurationWords(winner.name);
    return;
  }
  const TuningCache tuningBefore = runs.tuning;
  TuningEntry& entry = runs.tuning.devices[tuningKey(compute.device())];
  ui.message = "applied " + plainConfigurationWords(winner.name);
  if (target_ == SweepTarget::Rotate) {
    applyRotateBest(state, static_cast<size_t>(best), entry);
  } else if (target_ == SweepTarget::Histogram) {
    applyHistogramBest(state, static_cast<size_t>(best), entry);
  } else if (target_ == SweepTarget::NBody) {
    const NBodyConfig& c = nbody_.results[static_cast<size_t>(best)];
    state.nbody.choices.config = c;
    state.nbody.choices.configFromUser = true;
    if (state.scene != SceneKind::NBody) state.commands.push(OpenScene{SceneKind::NBody});
    entry.nbody = TunedNBody{c, bodies_, winner.m.rate, winner.meta.time};
  } else {
    const TransposeConfig& c = transpose_.results[static_cast<size_t>(best)];
    state.image.choices.transpose = true;
    state.image.choices.transposeVariant = c.variant;
    state.image.choices.transposeChoice = c;
    state.commands.push(RunImagePipeline{});
    if (state.scene != SceneKind::Image) state.commands.push(OpenScene{SceneKind::Image});
    entry.transpose[layout_.channels] = TunedTranspose{c, describeImageLayout(layout_), winner.m.rate, winner.meta.time};
  }
  // Measured at another N than the scene runs: said, so that nobody reads the winner as
  // the best for the scene's N (the tuning cache keeps it for the N it was measured at).
  const size_t running = state.nbody.readings().runningBodies;
  const size_t sceneBodies = running > 0 ? running : static_cast<size_t>(std::max(state.nbody.choices.bodies, 1));
  if (target_ == SweepTarget::NBody && sceneBodies != bodies_)
    ui.message += " (measured at " + std::to_string(bodies_) + " bodies; the scene runs " + std::to_string(sceneBodies) +
                  ")";
  // A sweep cancelled part way measured only some configurations: its best goes into the
  // scene, not into the device's defaults (the audit saw 4 of 27 stored silently).
  if (cancelled_) {
    runs.tuning = tuningBefore;
    ui.message += "; not saved as this device's default: the sweep was cancelled before it measured every "
                  "configuration (run it to the end for that)";
    return;
  }
  if (!runs.tuningFile.empty()) {
    if (const std::string error = saveTuningCache(runs.tuning, runs.tuningFile); !error.empty()) {
      ui.message += "; " + error;
      state.report(error);
    } else {
      ui.message += "; saved as this device's default in " + runs.tuningFile.string();
    }
  }
}

std::vector<std::pair<std::string, std::string>> SweepRunner::programsOf(size_t index,
                                                                         const DeviceDescriptor& device) const {
  if (target_ == SweepTarget::NBody) return {{kNBodyKernelFile, nbodyBuildOptions(nbody_.queue[index])}};
  if (target_ == SweepTarget::Rotate)
    return {{kRotateKernelFile, imageRotateBuildOptions(rotate_.queue[index], layout_.channels)}};
  if (target_ == SweepTarget::Histogram) {  // counting and merging: a program each
    std::vector<std::pair<std::string, std::string>> programs;
    for (std::string& options : imageHistogramProgramOptions(histogram_.queue[index], layout_.channels, device))
      programs.emplace_back(kHistogramKernelFile, std::move(options));
    return programs;
  }
  return {{kTransposeKernelFile, imageTransposeBuildOptions(transpose_.queue[index], layout_.channels)}};
}

bool SweepRunner::programsReady(size_t index, ComputeContext& compute) const {
  bool ready = true;
  for (const auto& [file, options] : programsOf(index, compute.device()))
    if (!compute.kernelFileReady(file, options)) {
      compute.prefetchKernelFile(file, options);
      ready = false;
    }
  return ready;
}

size_t SweepRunner::queuedCount() const {
  switch (target_) {
    case SweepTarget::NBody: return nbody_.queue.size();
    case SweepTarget::Transpose: return transpose_.queue.size();
    case SweepTarget::Rotate: return rotate_.queue.size();
    case SweepTarget::Histogram: return histogram_.queue.size();
    case SweepTarget::Interop: return interop_.queue.size();
  }
  return 0;
}

void SweepRunner::step(AppState& state, Session& session) {
  SweepUiState& ui = state.runs.sweep;
  ComputeContext& compute = session.compute();
  pollRetiredWorkers();
  publishHold(ui);
  if (state.commands.takeAny<ApplySweepBest>()) {
    if (active_)
      ui.message = "the sweep is still running";
    else if (compute_ != &compute)
      ui.message = "the device changed since the sweep: run it again";
    else
      applyBest(state, compute);
  }
  if (state.commands.takeAny<CancelSweep>()) {
    if (active_) {
      cancelled_ = true;
      finish(state, "cancelled after " + std::to_string(ui.done) + " of " + std::to_string(ui.total));
    }
  }
  if (state.commands.takeAny<StartSweep>()) {
    if (!active_) {
      try {
        start(state, compute);
      } catch (const std::exception& e) {
        ui.status = std::string("cannot start the sweep: ") + e.what();
        active_ = ui.active = false;
      }
    }
  }
  if (!active_) return;
  if (compute_ != &compute) {
    finish(state, "stopped: the device changed");
    return;
  }
  if (target_ == SweepTarget::Interop) {
    stepInterop(state, compute);
    return;
  }
  const DeviceDescriptor& device = compute.device();
  const size_t queued = queuedCount();
  auto updateClock = [&] {
    ui.elapsedSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    ui.etaSeconds =
        next_ > 0 ? ui.elapsedSeconds / static_cast<double>(next_) * static_cast<double>(queued - next_) : 0.0;
  };
  if (trial_ && !pollTrial(state, device)) {
    updateClock();
    return;
  }
  if (!trial_ && worker_ && worker_->busy()) {  // the image sweep's picture on its way to the device
    try {
      if (!worker_->poll()) {
        ui.status = "putting the picture on the device";
        updateClock();
        return;
      }
    } catch (const std::exception& e) {
      finish(state, std::string("stopped: cannot put the picture on the device: ") + e.what());
      return;
    }
  }
  if (next_ < queued) {
    // The build runs on a worker thread while frames go on (a compile takes from
    // tens of milliseconds on a GPU driver to most of a second on PoCL); the
    // configuration's launches start in the first frame that finds it built, and
    // the next one starts building then, while this one is measured.
    if (!programsReady(next_, compute)) {
      ui.building = true;
      ui.status = "building configuration " + std::to_string(next_ + 1) + " of " + std::to_string(queued) +
                  " on a worker thread";
      updateClock();
      return;
    }
    ui.building = false;
    ui.launchMs = 0.0;
    ui.status = "measuring configuration " + std::to_string(next_ + 1) + " of " + std::to_string(queued);
    if (next_ + 1 < queued)
      for (const auto& [nextFile, nextOptions] : programsOf(next_ + 1, device))
        compute.prefetchKernelFile(nextFile, nextOptions);
    const std::shared_ptr<const Buffer> in(picture_, picture_ ? &picture_->in : nullptr),
        out(picture_, picture_ ? &picture_->out : nullptr);
    if (target_ == SweepTarget::NBody)
      trial_ = SweepTrial::nbody(compute, worker_.get(), *system_, nbody_.queue[next_], params_, ui.repetitions,
                                 kSweepBatchMs);
    else if (target_ == SweepTarget::Rotate)
      trial_ = SweepTrial::rotate(compute, worker_.get(), in, out, layout_, rotateParams_, rotate_.queue[next_],
                                  ui.repetitions, kSweepBatchMs);
    else if (target_ == SweepTarget::Histogram)
      trial_ = SweepTrial::histogram(compute, worker_.get(), in, out, layout_, histogram_.queue[next_],
                                     ui.repetitions, kSweepBatchMs);
    else
      trial_ = SweepTrial::transpose(compute, worker_.get(), in, out, layout_, transpose_.queue[next_],
                                     ui.repetitions, kSweepBatchMs);
  }
  updateClock();
  if (next_ >= queued) {
    const int best = bestRunIndex(ui.results);
    // The winner in the table's words (it said "blocked wg=128 unroll=8 B=1 S=1 fp32").
    finish(state, best < 0 ? "done: nothing ran"
                           : "done; best: " + plainConfigurationWords(ui.results[static_cast<size_t>(best)].name));
  }
}

bool SweepRunner::pollTrial(AppState& state, const DeviceDescriptor& device) {
  SweepUiState& ui = state.runs.sweep;
  if (!trial_->poll()) {
    ui.launchMs = trial_->longestLaunchMs();
    return false;
  }
  if (target_ == SweepTarget::NBody) {
    ui.results.push_back(nbodyRun(device, trial_->nbodyResult(), system_->size(), ui.repetitions));
    nbody_.results.push_back(nbody_.queue[next_]);
  } else if (target_ == SweepTarget::Rotate) {
    ui.results.push_back(rotateRun(device, trial_->rotateResult(), ui.repetitions));
    rotate_.results.push_back(rotate_.queue[next_]);
  } else if (target_ == SweepTarget::Histogram) {
    ui.results.push_back(histogramRun(device, trial_->histogramResult(), ui.repetitions));
    histogram_.results.push_back(histogram_.queue[next_]);
  } else {
    ui.results.push_back(transposeRun(device, trial_->transposeResult(), ui.repetitions));
    transpose_.results.push_back(transpose_.queue[next_]);
  }
  trial_.reset();
  ++next_;
  ++ui.done;
  return true;
}

void SweepRunner::stepInterop(AppState& state, const ComputeContext& compute) {
  SweepUiState& ui = state.runs.sweep;
  auto updateClock = [&] {
    ui.elapsedSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const size_t measured = next_, left = interop_.queue.size() - next_;
    ui.etaSeconds = measured > 0 ? ui.elapsedSeconds / static_cast<double>(measured) * static_cast<double>(left) : 0.0;
  };
  if (next_ >= interop_.queue.size()) {
    const int best = bestRunIndex(ui.results);
    finish(state, best < 0 ? "done: nothing ran"
                           : "done; best: " + plainConfigurationWords(ui.results[static_cast<size_t>(best)].name));
    return;
  }
  const InteropPath path = interop_.queue[next_];
  switch (interopPhase_) {
    case InteropPhase::Switch:
      if (state.interopPath != path) state.commands.push(SwitchInterop{path});  // the session switches before the next frame
      interopPhase_ = InteropPhase::WarmUp;
      warmupLeft_ = std::max(ui.warmupFrames, 1);
      break;
    case InteropPhase::WarmUp:
      if (state.interopPath != path && !state.switching.interop && !state.commands.has<SwitchInterop>()) {
        // The switch failed: the session said why in interopMessage.
        RunRecord r;
        r.name = std::string("interop ") + interopPathName(path);
        r.status = "failed: " + state.interopMessage;
        r.meta = runMetadataFor(compute.device());
        r.meta.interop = interopPathName(path);
        ui.results.push_back(std::move(r));
        interop_.results.push_back(path);
        ++next_, ++ui.done;
        interopPhase_ = InteropPhase::Switch;
        break;
      }
      if (--warmupLeft_ <= 0) {
        interopPhase_ = InteropPhase::Record;
        frameMs_.clear(), kernelMs_.clear();
        recordStart_ = std::chrono::steady_clock::now();
      }
      break;
    case InteropPhase::Record: {
      // Readings of the frame just drawn on this path.
      frameMs_.push_back(state.stats.frameMs);
      kernelMs_.push_back(sampleScene(state).kernelMs);
      if (static_cast<int>(frameMs_.size()) < ui.repetitions) break;
      const SceneSample sample = sampleScene(state);
      RunRecord r;
      r.name = std::string("interop ") + interopPathName(path) + ": " + sample.sceneName;
      r.meta = runMetadataFor(compute.device());
      r.meta.scene = sample.sceneName;
      r.meta.interop = interopPathName(path);
      r.meta.parameters = sceneParameters(state);
      r.m.frames = frameMs_.size();
      r.m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - recordStart_).count();
      r.m.fps = r.m.seconds > 0 ? static_cast<double>(r.m.frames) / r.m.seconds : 0.0;
      r.m.frameMs = summarize(frameMs_);
      r.m.kernelMs = summarize(kernelMs_);
      // Frames per second is what the interop path changes: it is this sweep's rate.
      r.m.rate = r.m.frameMs.median > 0 ? 1000.0 / r.m.frameMs.median : 0.0;
      r.m.rateUnit = "FPS (median frame)";
      ui.results.push_back(std::move(r));
      interop_.results.push_back(path);
      ++next_, ++ui.done;
      interopPhase_ = InteropPhase::Switch;
      break;
    }
  }
  updateClock();
}

}  // namespace ks
