// NBodyScene's step split over several devices (issue 24): acting on the
// request of the Devices panel or --devices, handing the bodies between the
// display device and the split, and stepping the split each frame.
#include <algorithm>
#include <utility>

#include "app/app_state.h"
#include "app/nbody_scene.h"
#include "compute/nbody_benchmark.h"

namespace ks {
namespace {

// "devices 0, 1 (pthread-..., Portable Computing Language)": numbers as the Devices
// panel shows them, each name once (several devices of one kind share one).
std::string deviceNames(const AppState& state, const std::vector<size_t>& indices) {
  std::string numbers, names;
  std::vector<std::string> seen;
  for (size_t i = 0; i < indices.size(); ++i) {
    numbers += (i ? ", " : "") + std::to_string(indices[i]);
    if (indices[i] >= state.devices.size()) continue;
    const std::string name = state.devices[indices[i]].displayName();
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
    seen.push_back(name);
    names += (names.empty() ? "" : "; ") + name;
  }
  return (indices.size() == 1 ? "device " : "devices ") + numbers + (names.empty() ? "" : " (" + names + ")");
}

std::string failureText(const std::exception& e) {
  if (const auto* build = dynamic_cast<const ProgramBuildError*>(&e))
    return std::string(build->what()) + " (the Build log panel has the compiler's output)";
  return e.what();
}

void clearFigures(NBodySplitReadings& split) {
  split.sliceBodies.clear();
  split.deviceKernelMs.clear();
  split.deviceOtherMs.clear();
  split.exchangeMs = split.stepMs = split.loadBalance = 0.0;
  split.recent.clear();
}

}  // namespace

NBodyScene::~NBodyScene() {
  // The display device's last copy may still read the split's pinned memory,
  // which goes with split_ (destroyed before simulation_).
  try {
    if (simulation_) simulation_->waitForDisplayWrite();
  } catch (const std::exception&) {
    // A failed copy read nothing more; nothing to report from a destructor.
  }
}

bool NBodyScene::finishing() {
  std::erase_if(givenUp_, [](const auto& start) { return start->ready(); });
  return !givenUp_.empty() || (splitStart_ && !splitStart_->ready());
}

void NBodyScene::applySplitRequest(AppState& state) {
  NBodySplitChoices& asked = state.nbody.choices.split;
  NBodySplitReadings& split = state.nbody.readings_.split;
  std::erase_if(givenUp_, [](const auto& start) { return start->ready(); });
  finishSplitStart(state);
  if (!asked.requested) return;
  std::vector<size_t> wanted = std::move(*asked.requested);
  asked.requested.reset();
  const bool atOnce = std::exchange(asked.startAtOnce, false);
  const size_t display = state.activeDevice.value_or(state.devices.size());
  if (nbodySplitIsDisplayAlone(wanted, display)) {
    if (splitStart_) {
      giveUpSplitStart(state);
      if (!split_) split.message = "the N-body step runs on " + compute_.device().displayName() + " alone";
    }
    if (!split_) return;
    try {
      joinSplit(state);
      split.message = "the N-body step runs on " + compute_.device().displayName() + " alone";
      state.report(split.message);
    } catch (const std::exception& e) {
      split.message = "could not bring the bodies back to " + compute_.device().displayName() + ": " +
                      failureText(e) + "; still split over " + deviceNames(state, split.running);
      state.report(split.message);
    }
    return;
  }
  if (splitStart_ && wanted == splitStart_->wanted()) return;  // under way
  if (split_ && wanted == split.running) {
    if (splitStart_) giveUpSplitStart(state);  // back to what runs
    return;
  }
  beginSplit(wanted, state, atOnce);
}

void NBodyScene::giveUpSplitStart(AppState& state) {
  if (!splitStart_) return;
  givenUp_.push_back(std::move(splitStart_));
  state.nbody.readings_.split.preparing.clear();
}

void NBodyScene::beginSplit(const std::vector<size_t>& wanted, AppState& state, bool atOnce) {
  NBodySplitReadings& split = state.nbody.readings_.split;
  const std::string still =
      split_ ? "still split over " + deviceNames(state, split.running) : "still on " + compute_.device().displayName() + " alone";
  const size_t display = state.activeDevice.value_or(state.devices.size());
  if (const std::string problem = nbodySplitProblem(state.devices, wanted, display); !problem.empty()) {
    split.message = "cannot split the N-body step over " + deviceNames(state, wanted) + ": " + problem + "; " + still;
    state.report(split.message);
    return;
  }
  std::vector<DeviceDescriptor> devices;
  for (size_t i : wanted) devices.push_back(state.devices[i]);
  giveUpSplitStart(state);
  try {
    splitStart_ = std::make_unique<NBodySplitStart>(wanted, std::move(devices), compute_.kernelsDir(),
                                                    simulation_->config());
  } catch (const std::exception& e) {  // no thread to build on
    split.message = "cannot split the N-body step over " + deviceNames(state, wanted) + ": " + e.what() + "; " + still;
    state.report(split.message);
    return;
  }
  split.preparing = wanted;
  split.message = "preparing " + std::to_string(wanted.size()) + (wanted.size() == 1 ? " device" : " devices") +
                  " for the N-body step (building its kernel on each); " +
                  (split_ ? "split over " + deviceNames(state, split.running) : "on " + compute_.device().displayName() + " alone") +
                  " until then";
  if (atOnce) return finishSplitStart(state, true);
  state.report(split.message);
}

void NBodyScene::finishSplitStart(AppState& state, bool wait) {
  if (!splitStart_ || (!wait && !splitStart_->ready())) return;
  NBodyReadings& readings = state.nbody.readings_;
  NBodySplitReadings& split = readings.split;
  std::unique_ptr<NBodySplitStart> start = std::move(splitStart_);
  split.preparing.clear();
  const std::vector<size_t> wanted = start->wanted();
  // The configuration changed while the kernels built: build the new one.
  if (!(start->config() == simulation_->config())) return beginSplit(wanted, state, wait);
  const std::string still =
      split_ ? "still split over " + deviceNames(state, split.running) : "still on " + compute_.device().displayName() + " alone";
  try {
    // The bodies as they are now (from the running split, if any): the state goes on.
    // The running split's pinned memory goes with it: its last copy must be done.
    const NBodySystem system = currentSystem();
    simulation_->waitForDisplayWrite();
    split_ = start->finish(system);
  } catch (const std::exception& e) {
    if (const auto* build = dynamic_cast<const ProgramBuildError*>(&e)) {
      state.buildFailures.push_back({build->build().label + " " + build->build().options,
                                     deviceNames(state, wanted), build->build().error, build->build().log});
      state.panels.buildLog = true;
    }
    split.message = "cannot split the N-body step over " + deviceNames(state, wanted) + ": " + failureText(e) +
                    "; " + still;
    state.report(split.message);
    return;
  }
  split.running = wanted;
  clearFigures(split);
  splitMeterFailed_ = false;
  if (!meterFailed_) readings.conservation.unavailable.clear();  // a failure of the last split's meters
  publishRunning(state);  // the timed kernel is now one device's slice
  const size_t display = state.activeDevice.value_or(state.devices.size());
  split.message = "the N-body step is split over " + std::to_string(wanted.size()) +
                  (wanted.size() == 1 ? " device, " : " devices, ") + deviceNames(state, wanted) + "; device " +
                  std::to_string(display) + " draws";
  state.report(split.message);
}

std::vector<size_t> NBodyScene::joinSplit(AppState& state) {
  if (!split_) return {};
  // setSystem throws before it changes anything: on failure the split runs on.
  simulation_->setSystem(split_->download());
  simulation_->waitForDisplayWrite();  // the last copy read the split's pinned memory
  split_.reset();
  NBodySplitReadings& split = state.nbody.readings_.split;
  std::vector<size_t> ran = std::move(split.running);
  split.running.clear();
  clearFigures(split);
  if (!meterFailed_) state.nbody.readings_.conservation.unavailable.clear();  // a failure of the split's meters
  publishRunning(state);
  return ran;
}

void NBodyScene::advanceSplit(AppState& state, int steps, double seconds) {
  NBodyChoices& choices = state.nbody.choices;
  NBodyReadings& readings = state.nbody.readings_;
  // The last frame's copy to the display device read the pinned memory that the
  // steps launched below write (two buffers take turns): long done unless the
  // display device lags a frame behind.
  simulation_->waitForDisplayWrite();
  const unsigned long long timed = readings.split.timedFrames;
  split_->completeSteps(readings.split);  // the step the last frame left running
  measureConservation(state, true);  // between steps: every device holds the same bodies
  // This frame's steps run while GL draws the last one's positions, as one device's do.
  split_->launchSteps(steps, choices.params);
  readings.steps += static_cast<unsigned long long>(steps);
  showSplitValues();
  readings.stepsPerSecond = seconds > 0 ? steps / seconds : 0.0;
  if (readings.split.timedFrames == timed) return;  // the first frame: nothing completed yet
  // The step's kernel time is the slowest device's; the rate counts the whole
  // step, exchange included, as --bench nbody --devices does.
  const std::vector<double>& kernelMs = readings.split.deviceKernelMs;
  readings.kernelMs = kernelMs.empty() ? 0.0 : *std::max_element(kernelMs.begin(), kernelMs.end());
  const double n = static_cast<double>(simulation_->bodies());
  readings.interactionsPerSecond = readings.split.stepMs > 0 ? n * n / (readings.split.stepMs * 1e-3) : 0.0;
  state.breakdown.kernelMs = readings.kernelMs * steps;
  state.breakdown.acquireMs = state.breakdown.releaseMs = state.breakdown.copyMs = 0.0;
  ++readings.timedSteps;
}

void NBodyScene::settleSplit(AppState& state) {
  // Paused: the step launched last shows once it has finished, without waiting for it.
  if (!split_->stepPending() || !split_->pendingStepFinished()) return;
  simulation_->waitForDisplayWrite();
  split_->completeSteps(state.nbody.readings_.split);
  showSplitValues();
}

void NBodyScene::showSplitValues() {
  if (const float* values = split_->displayValues()) simulation_->showDisplayValues(values, split_->padded() * 4);
}

}  // namespace ks
