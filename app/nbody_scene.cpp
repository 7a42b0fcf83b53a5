#include "app/nbody_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "app/app_state.h"
#include "app/kernel_builds.h"
#include "app/scene_start_builds.h"
#include "lab/tuning_cache.h"
#include "compute/kernel_files.h"
#include "compute/nbody_invariants.h"
#include "compute/nbody_variants.h"
#include "compute/nbody_benchmark.h"
#include "compute/nbody_step_budget.h"
#include "compute/nbody_tuning.h"
#include "compute/plain_config_words.h"
#include "render/particle_drawing_trial.h"

namespace ks {

namespace {

// What the N-body panel and the Log say about a configuration: plain words, not the
// short name the records keep ("blocked kernel: 256 work-items per group, ...").
std::string configurationInWords(const NBodyConfig& config) {
  return plainConfigurationWords(describeNBodyConfig(config));
}

// What the panel and the summary say about how the particles were drawn.
std::string describeParticleDrawing(const ParticleRenderer& renderer, ParticleDrawing asked) {
  std::string text = std::string("drawn with ") + particleDrawingLabel(renderer.lastDrawing());
  const ParticleDrawingTrial& trial = renderer.trial();
  // Timestamps around a draw that GL carries out later (llvmpipe) hold almost none of its
  // work: "0.000 ms" read as free drawing.
  auto msText = [](double ms) {
    char text[32];
    std::snprintf(text, sizeof text, ms < 0.0005 ? "under 0.001 ms" : "%.3f ms", ms);
    return std::string(text);
  };
  const std::string times = "compute shaders " + msText(trial.medianMs(ParticleDrawing::ComputeSplat)) +
                            ", point sprites " + msText(trial.medianMs(ParticleDrawing::PointSprites)) +
                            " a frame on the GPU";
  if (!renderer.splatNotUsedReason().empty())
    text += " (compute shaders cannot draw here: " + renderer.splatNotUsedReason() + ")";
  else if (asked == ParticleDrawing::Automatic)
    text += trial.decided() ? std::string(", the faster measured: ") + times : std::string(", measuring both ways");
  return text;
}

// Speed at the top of the colour map: twice the RMS speed of the bodies, so most
// of the map is in use from the first frame.
float typicalSpeedScale(const NBodySystem& system) {
  double sum = 0.0;
  for (const auto& v : system.velocities) sum += glm::dot(glm::dvec3(v), glm::dvec3(v));
  const double rms = system.size() ? std::sqrt(sum / static_cast<double>(system.size())) : 0.0;
  return rms > 1e-9 ? static_cast<float>(2.0 * rms) : 1.0f;
}

// Additive sprites saturate to white when many overlap: start dimmer for large N.
float brightnessFor(size_t bodies) {
  return static_cast<float>(std::clamp(std::sqrt(20000.0 / static_cast<double>(std::max<size_t>(bodies, 1))), 0.12, 1.0));
}

std::string errorText(const std::exception& e) {
  const ErrorReport report = reportError(e);
  return report.buildLog.empty() ? report.message : report.message + "\n" + report.buildLog;
}

// At most this many bodies in the probe step (about 40 ms on two CPU cores): fewer
// fit in the caches and run faster per pair, predicting too many bodies.
constexpr size_t kProbeBodies = 2048;

// Lowers choices.bodies to what the device steps within kStartStepBudgetMs, measured
// with a short run of `config` at up to kProbeBodies; says why in the log.
void fitBodiesToDevice(ComputeContext& compute, NBodyChoices& choices, NBodyReadings& readings,
                       const NBodyConfig& config, AppState& state) {
  const size_t wanted = static_cast<size_t>(choices.bodies);
  const size_t probeBodies = std::min(wanted, kProbeBodies);
  std::string problem;
  const NBodyPresetDefaults defaults = nbodyPresetDefaults(choices.preset, probeBodies);
  const NBodySystem probe = makeNBodyPreset(choices.preset, probeBodies, static_cast<uint64_t>(choices.seed));
  const double ms = probeNBodyStepMs(compute, probe, config, defaults.params, &problem);
  if (!problem.empty()) return;  // the scene's own start says what is wrong
  // A frame takes the preset's steps: their time together must fit the budget.
  const StartBodies choice = chooseStartBodies(wanted, probeBodies, ms, defaults.stepsPerFrame);
  if (choice.why.empty()) return;
  choices.bodies = static_cast<int>(choice.bodies);
  readings.message = choice.why;
  state.report("N-body on " + compute.device().displayName() + ": " + choice.why);
}

}  // namespace

NBodyScene::NBodyScene(ComputeContext& compute, InteropBackend& interop, AppState& state, double stepWaitMs,
                       std::optional<NBodySystem> start)
    : compute_(compute), stepWaitMs_(stepWaitMs) {
  NBodyChoices& choices = state.nbody.choices;
  NBodyReadings& readings = state.nbody.readings_;
  choices.bodies = std::max(choices.bodies, 1);
  if (!start && choices.fitBodiesToDevice) {
    choices.fitBodiesToDevice = false;
    const NBodyConfig config = choices.configFromUser ? choices.config
                                                 : preferredNBodyConfig(state.runs.tuning, compute.device(),
                                                                        static_cast<size_t>(choices.bodies));
    fitBodiesToDevice(compute, choices, readings, config, state);
  }
  const NBodyPresetDefaults defaults = nbodyPresetDefaults(choices.preset, static_cast<size_t>(choices.bodies));
  NBodySystem system;
  if (start) {
    system = std::move(*start);
  } else {
    system = makeNBodyPreset(choices.preset, static_cast<size_t>(choices.bodies), static_cast<uint64_t>(choices.seed));
    choices.params = defaults.params;
    if (!choices.keepSavedStepsAndBrightness) choices.stepsPerFrame = defaults.stepsPerFrame;
  }
  cameraDistance_ = defaults.cameraDistance;
  // A sweep's cached winner for this device first, then the built-in table.
  const NBodyConfig tuned = preferredNBodyConfig(state.runs.tuning, compute.device(), system.size());
  if (!choices.configFromUser) choices.config = tuned;
  try {
    simulation_ = std::make_unique<NBodySimulation>(compute, interop, system, choices.config);
  } catch (const KernelsDirError&) {
    throw;  // no configuration can help
  } catch (const std::exception& e) {
    if (choices.config == tuned) throw;
    // The user's configuration does not run on this device: start tuned, say why.
    readings.message = "the " + configurationInWords(choices.config) + " cannot run here (" + errorText(e) +
                       "); using the " + configurationInWords(tuned);
    state.report(readings.message);
    choices.config = tuned;
    simulation_ = std::make_unique<NBodySimulation>(compute, interop, system, choices.config);
  }
  if (choices.autoSpeedScale) choices.style.maxSpeed = typicalSpeedScale(system);
  if (!start && !choices.keepSavedStepsAndBrightness) choices.style.brightness = brightnessFor(system.size());
  choices.keepSavedStepsAndBrightness = false;  // a reset or the next start takes the preset's again
  cameraResetDue_ = true;
  // A device switch (or the scene opened again) splits over the same devices
  // again, if the new display device's platform has them.
  if (readings.split.active() && !choices.split.requested) choices.split.requested = readings.split.running;
  readings.split.running.clear();
  // The energy meter now, as the kernel above: before the first frame. Made in the
  // first frame, its program compiled there (0.4-1 s on PoCL, issue 22); opened from
  // the UI or on a device switch, the program was built off the frame already.
  if (choices.conservation.on) makeMeter(state, choices.config.fp64, true);
  publishRunning(state);
}

void NBodyScene::rebindInterop(InteropBackend& interop) { simulation_->rebindInterop(interop); }

void NBodyScene::reloadKernels(AppState& state) {
  // The same configuration again: the build goes through the program cache with
  // the file's new text; setConfig keeps the running kernel when it throws.
  simulation_->setConfig(simulation_->config());
  // The split's devices build the new text too (off the frame; the split runs on meanwhile),
  // as do those of a split being prepared.
  if (splitStart_) beginSplit(std::vector<size_t>(splitStart_->wanted()), state);
  else if (split_) beginSplit(state.nbody.readings_.split.running, state);
  meter_.reset();  // nbody_invariants.cl may have changed too
  meterFailed_ = false;
  restartConservation();
  publishRunning(state);
}

std::vector<ProgramToBuild> NBodyScene::programsInUse(const AppState&) const {
  // The display device's: a split's other devices build off the frame already (beginSplit).
  const NBodyConfig& config = simulation_->config();
  std::vector<ProgramToBuild> builds = {{kNBodyKernelFile, nbodyBuildOptions(config), "n-body " + describeNBodyConfig(config)}};
  if (meter_) builds.push_back(energyMeterBuild(compute_.device(), meterFp64_));
  return builds;
}

void NBodyScene::publishRunning(AppState& state) const {
  NBodyReadings& readings = state.nbody.readings_;
  readings.runningBodies = simulation_->bodies();
  readings.runningConfig = simulation_->config();
  readings.kernelInfo = simulation_->kernel().info();
  const NBodyKernel& k = simulation_->kernel();
  KernelWork work = nbodyStepWork(simulation_->bodies(), k.config());
  // Split over K devices, the timed kernel is one device's: its slice (about N / K
  // bodies, the slices start equal) against all N, a K-th of the step's work.
  if (split_ && split_->devices() > 1) work = scaledWork(work, 1.0 / static_cast<double>(split_->devices()));
  state.activeKernels = {{"n-body step", describeNBodyConfig(k.config()), kNBodyKernelFile, k.build().options,
                          k.build().buildMs, k.build().fromDisk, k.info(), "nbody step", work}};
}

void NBodyScene::resetSystem(AppState& state) {
  NBodyChoices& choices = state.nbody.choices;
  NBodyReadings& readings = state.nbody.readings_;
  const size_t bodies = static_cast<size_t>(std::max(choices.bodies, 1));
  try {
    const NBodySystem system = makeNBodyPreset(choices.preset, bodies, static_cast<uint64_t>(choices.seed));
    simulation_->setSystem(system);
    restartConservation();
    const NBodyPresetDefaults defaults = nbodyPresetDefaults(choices.preset, bodies);
    choices.params = defaults.params;
    choices.stepsPerFrame = defaults.stepsPerFrame;
    cameraDistance_ = defaults.cameraDistance;
    if (choices.autoSpeedScale) choices.style.maxSpeed = typicalSpeedScale(system);
    choices.style.brightness = brightnessFor(bodies);
    readings.steps = 0;
    cameraResetDue_ = true;
    readings.message = "reset: " + std::to_string(bodies) + " bodies, " + nbodyPresetName(choices.preset) +
                       " preset, seed " + std::to_string(choices.seed);
  } catch (const std::exception& e) {
    readings.message = "cannot make " + std::to_string(bodies) + " bodies: " + errorText(e) + "; keeping " +
                 std::to_string(simulation_->bodies());
    state.report(readings.message);
    choices.bodies = static_cast<int>(simulation_->bodies());
  }
}

bool NBodyScene::chosenProgramBuilt(AppState& state) {
  const NBodyConfig& chosen = state.nbody.choices.config;
  // Headless runs wait; a refused configuration builds nothing: setConfig says why at once.
  if (state.headless || !nbodyConfigProblem(chosen, compute_.device()).empty()) {
    clearPreparing(state);
    return true;
  }
  const std::vector<ProgramToBuild> builds = {
      {kNBodyKernelFile, nbodyBuildOptions(chosen), "n-body " + plainConfigurationWords(describeNBodyConfig(chosen))}};
  if (const std::string building = startKernelBuilds(compute_, builds); !building.empty()) {
    preparingText_ = state.preparing = buildingKernelText(building, compute_.device());
    return false;
  }
  clearPreparing(state);
  return true;
}

void NBodyScene::clearPreparing(AppState& state) {
  if (!preparingText_.empty() && state.preparing == preparingText_) state.preparing.clear();
  preparingText_.clear();
}

void NBodyScene::applyRequests(AppState& state) {
  applySplitRequest(state);
  NBodyChoices& choices = state.nbody.choices;
  NBodyReadings& readings = state.nbody.readings_;
  // Several of one kind pushed in one frame act once, as the request flags did.
  const bool resetAsked = state.commands.takeAny<ResetNBody>(), saveAsked = state.commands.takeAny<SaveNBodyState>(),
             loadAsked = state.commands.takeAny<LoadNBodyState>(), verifyAsked = state.commands.takeAny<VerifyNBody>();
  // A new configuration or system goes to the display device's simulation: a
  // split hands its bodies back first and is built again afterwards.
  std::vector<size_t> splitAgain;
  // A configuration whose program still builds is not a change yet: the old one runs on.
  const bool configChange = !(choices.config == simulation_->config()) && chosenProgramBuilt(state);
  if (choices.config == simulation_->config()) clearPreparing(state);  // chosen back while it built
  if (split_ && (configChange || resetAsked || loadAsked ||
                 static_cast<size_t>(std::max(choices.bodies, 1)) != simulation_->bodies()))
    splitAgain = joinSplit(state);
  if (configChange) {
    try {
      simulation_->setConfig(choices.config);
      restartConservation();
      readings.message = "running the " + configurationInWords(choices.config);
    } catch (const std::exception& e) {
      readings.message = "the " + configurationInWords(choices.config) + " failed: " + errorText(e) +
                         "\nstill running the " + configurationInWords(simulation_->config());
      state.report(readings.message);
      if (dynamic_cast<const ProgramBuildError*>(&e)) {
        const auto& build = dynamic_cast<const ProgramBuildError&>(e).build();
        state.buildFailures.push_back({build.label + " " + build.options, compute_.device().displayName(), build.error,
                                       build.log});
      }
      choices.config = simulation_->config();
    }
  }
  if (resetAsked || static_cast<size_t>(std::max(choices.bodies, 1)) != simulation_->bodies()) {
    resetSystem(state);
  }
  if (saveAsked) {
    try {
      saveNBodySystem(currentSystem(), state.nbody.statePath);
      readings.message = "saved " + std::to_string(simulation_->bodies()) + " bodies to " + state.nbody.statePath;
    } catch (const std::exception& e) {
      readings.message = e.what();
      state.report(readings.message);
    }
  }
  if (loadAsked) {
    const Result<NBodySystem> loaded = readNBodySystem(state.nbody.statePath);
    if (loaded) {
      try {
        const NBodySystem& system = loaded.value();
        simulation_->setSystem(system);
        restartConservation();
        choices.bodies = static_cast<int>(system.size());
        readings.steps = 0;
        readings.message = "loaded " + std::to_string(system.size()) + " bodies from " + state.nbody.statePath;
      } catch (const std::exception& e) {  // the device could not take the bodies
        readings.message = "load failed, state unchanged: " + reportError(e).message;
        state.report(readings.message);
      }
    } else {
      readings.message = "load failed, state unchanged: " + std::string(loaded.error().what());
      state.report(readings.message);
    }
  }
  if (verifyAsked) {
    try {
      const NBodyVerification v = verifyNBodyStep(compute_, currentSystem(), simulation_->config(), choices.params);
      readings.verification = v.summary();
    } catch (const std::exception& e) {
      readings.verification = std::string("verification failed to run: ") + errorText(e);
    }
    state.report("verify the " + configurationInWords(simulation_->config()) + ": " + readings.verification);
  }
  if (!splitAgain.empty()) beginSplit(splitAgain, state);
  publishRunning(state);
}

void NBodyScene::dropFailedMeter(AppState& state, const std::string& why) {
  NBodyConservationReadings& c = state.nbody.readings_.conservation;
  c.unavailable = "energy and momenta are not measured: " + why;
  if (split_) {
    splitMeterFailed_ = true;  // the single device's meter stays for when the split ends
  } else {
    meter_.reset();
    meterFailed_ = true;
  }
  state.report(c.unavailable);
}

void NBodyScene::collectConservation(AppState& state) {
  NBodyConservationReadings& c = state.nbody.readings_.conservation;
  // While split each device measures its slice (NBodySplitInvariants); a
  // measurement of the other kind, from before a switch, is not waited for.
  if (split_ ? splitMeterFailed_ : !meter_) return;
  std::optional<NBodyInvariants> measured;
  double kernelMs = 0.0;
  try {
    if (split_) {
      NBodySplitInvariants& meters = split_->invariants();
      measured = meters.poll();
      kernelMs = meters.lastKernelMs();
    } else {
      measured = meter_->poll();
      kernelMs = meter_->lastKernelMs();
    }
  } catch (const std::exception& e) {
    dropFailedMeter(state, errorText(e));
    return;
  }
  // A measurement of a system or configuration changed since is of no use.
  if (!measured || pendingGeneration_ != conservationGeneration_ || pendingFromSplit_ != (split_ != nullptr)) return;
  c.kernelMs = kernelMs;
  c.lastStep = pendingStep_;
  if (baselineGeneration_ != conservationGeneration_) {
    baseline_ = measured;
    baselineGeneration_ = conservationGeneration_;
    c.baselineStep = pendingStep_;
    c.baseline = "step " + std::to_string(pendingStep_) + " (the " + configurationInWords(simulation_->config()) + ")";
    c.hasDrift = false;
    c.energyDrift.clear();
    return;
  }
  c.drift = nbodyDrift(*measured, *baseline_);
  c.hasDrift = true;
  c.energyDrift.push_back(static_cast<float>(c.drift.energy));
  constexpr size_t kKept = 600;
  if (c.energyDrift.size() > kKept) c.energyDrift.erase(c.energyDrift.begin());
}

bool NBodyScene::makeMeter(AppState& state, bool fp64, bool mayCompile) {
  if (meterFailed_ && meterFp64_ == fp64) return false;  // said once; a kernel reload tries again
  // In a frame: only once its program is built, on a worker thread (the measurements
  // start from a later baseline meanwhile).
  if (!mayCompile && !startKernelBuilds(compute_, {energyMeterBuild(compute_.device(), fp64)}).empty()) return false;
  NBodyConservationReadings& c = state.nbody.readings_.conservation;
  meterFp64_ = fp64;
  meterFailed_ = false;
  try {
    meter_ = std::make_unique<NBodyInvariantsMeter>(compute_, fp64);
    c.sumsInDouble = meter_->sumsInDouble();
    c.unavailable.clear();
  } catch (const std::exception& e) {
    dropFailedMeter(state, errorText(e));
    return false;
  }
  return true;
}

void NBodyScene::measureConservation(AppState& state, bool afterSteps) {
  NBodyChoices& choices = state.nbody.choices;
  NBodyReadings& readings = state.nbody.readings_;
  NBodyConservationReadings& c = readings.conservation;
  if (!choices.conservation.on) return;
  // A split step under way: the devices are between two states until it completes
  // (advanceSplit measures then).
  if (split_ && split_->stepPending()) return;
  const bool fp64 = simulation_->config().fp64;
  if (split_) {
    if (splitMeterFailed_) return;  // said once; the next split tries again
  } else if ((!meter_ || meterFp64_ != fp64) && !makeMeter(state, fp64, false)) {
    return;
  }
  if (!(choices.params == baselineParams_)) {  // dt, G, softening or damping changed: another system to conserve
    baselineParams_ = choices.params;
    restartConservation();
  }
  try {
    if (split_ ? split_->invariants().busy() : meter_->busy()) return;
    if (split_) c.sumsInDouble = split_->invariants().sumsInDouble();
  } catch (const std::exception& e) {  // the split's meters are made on first use
    dropFailedMeter(state, errorText(e));
    return;
  }
  const bool wantBaseline = baselineGeneration_ != conservationGeneration_;
  const unsigned every = static_cast<unsigned>(std::max(choices.conservation.everySteps, 1));
  if (!wantBaseline && (!afterSteps || readings.steps - lastMeasuredStep_ < every))
    return;
  try {
    if (split_)
      split_->invariants().enqueue(split_->multi(), choices.params);
    else
      simulation_->measureInvariants(*meter_, choices.params);
  } catch (const std::exception& e) {
    dropFailedMeter(state, e.what());
    return;
  }
  pendingFromSplit_ = split_ != nullptr;
  pendingGeneration_ = conservationGeneration_;
  pendingStep_ = lastMeasuredStep_ = readings.steps;
}

void NBodyScene::update(AppState& state, double seconds) {
  NBodyChoices& choices = state.nbody.choices;
  NBodyReadings& readings = state.nbody.readings_;
  applyRequests(state);  // publishes what runs, kernel info included
  collectConservation(state);
  measureConservation(state, false);  // a baseline first, before the steps change the state
  // Taken even when the scene resets the camera anyway, so that it is not done again next frame.
  const bool cameraResetAsked = state.commands.takeAny<ResetCamera>();
  if (std::exchange(cameraResetDue_, false) || cameraResetAsked) camera_.reset(cameraDistance_);
  camera_.update(seconds);

  // While a sweep measures on a CPU device's cores the simulation holds: its steps
  // would wait for the sweep's launches, each frame with them, and skew the timings.
  // So it does while a piece of the device's ceilings runs (app/ceilings_runner.h).
  const bool stepAsked = state.commands.takeAny<StepNBody>();
  const int steps = state.runs.sweep.holdsDevice || state.ceilings.holdsDevice ? 0
                    : choices.paused                  ? (stepAsked ? 1 : 0)
                                                 : std::clamp(choices.stepsPerFrame, 1, 1000);
  if (steps == 0) {
    readings.stepsPerSecond = 0.0;
    try {
      if (split_) settleSplit(state);
    } catch (const std::exception& e) {
      readings.message = std::string("step failed: ") + errorText(e);
      state.report(readings.message);
    }
    return;
  }
  try {
    if (split_) return advanceSplit(state, steps, seconds);
    // A window frame waits for the last frame's steps a little at most (stepWaitMs_),
    // then draws the positions it has: the simulation goes at the device's pace and
    // the window at its own. Headless runs (benchmarks, --frames) wait, frame by step.
    secondsSinceSteps_ += seconds;
    if (!state.headless && !simulation_->stepsDoneWithin(stepWaitMs_)) return;
    const NBodyStepTiming t = simulation_->advance(steps, choices.params);
    readings.steps += static_cast<unsigned long long>(steps);
    measureConservation(state, true);
    readings.stepsPerSecond = secondsSinceSteps_ > 0 ? steps / secondsSinceSteps_ : 0.0;
    secondsSinceSteps_ = 0.0;
    // Kernel times arrive a frame late (the steps run while GL draws): the last
    // frame's steps, none on the first frame.
    if (t.steps > 0) {
      readings.kernelMs = t.kernelMs / t.steps;
      const double n = static_cast<double>(simulation_->bodies());
      readings.interactionsPerSecond = t.kernelMs > 0 ? n * n * t.steps / (t.kernelMs * 1e-3) : 0.0;
      state.breakdown.kernelMs = t.kernelMs;
      ++readings.timedSteps;  // the profiler records each timing once
    }
    state.breakdown.acquireMs = t.interop.acquireMs;
    state.breakdown.releaseMs = t.interop.releaseMs;
    state.breakdown.copyMs = t.interop.copyMs;
  } catch (const std::exception& e) {
    choices.paused = true;
    readings.message = std::string("step failed, paused: ") + errorText(e);
    state.report(readings.message);
  }
}

void NBodyScene::draw(AppState& state, int viewportW, int viewportH) {
  if (viewportW <= 0 || viewportH <= 0) return;
  // Into the part of the window the panels leave free (state.sceneArea, y down).
  const ScreenRect& area = state.sceneArea;
  const int x0 = static_cast<int>(area.x0 * viewportW), x1 = static_cast<int>(area.x1 * viewportW);
  const int y0 = static_cast<int>((1.0f - area.y1) * viewportH), y1 = static_cast<int>((1.0f - area.y0) * viewportH);
  const int w = std::max(x1 - x0, 1), h = std::max(y1 - y0, 1);
  glViewport(x0, y0, w, h);
  // A window frame draws no bodies until the first positions are in (never waits for them).
  const GLuint positions = simulation_->displayBufferForDrawing(state.headless);
  if (positions == 0) {
    glViewport(0, 0, viewportW, viewportH);
    return;
  }
  renderer_.draw(positions, simulation_->bodies(),
                 camera_.projection(static_cast<float>(w) / static_cast<float>(h)) * camera_.view(),
                 state.nbody.choices.style);
  glViewport(0, 0, viewportW, viewportH);
  simulation_->drawnByGl();
  DrawingTextKey key{renderer_.lastDrawing(), state.nbody.choices.style.drawing, renderer_.trial().decided(),
                     renderer_.splatNotUsedReason()};
  if (key != drawingTextKey_) {
    state.nbody.readings_.particleDrawing = describeParticleDrawing(renderer_, state.nbody.choices.style.drawing);
    drawingTextKey_ = std::move(key);
  }
}

void NBodyScene::handleInput(float dx, float dy, bool leftDown, bool rightDown, float wheel, int viewportH) {
  if (leftDown) camera_.rotate(dx, dy);
  if (rightDown) camera_.pan(dx, dy, viewportH);
  if (wheel != 0.0f) camera_.zoom(wheel);
}

}  // namespace ks
