// NBodyScene's step split over several devices (issue 24): acting on the
// request of the Devices panel or --devices, handing the bodies between the
// display device and the split, and stepping the split each frame.
#include <algorithm>

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

void clearFigures(NBodySplitState& split) {
  split.sliceBodies.clear();
  split.deviceKernelMs.clear();
  split.exchangeMs = split.stepMs = split.loadBalance = 0.0;
  split.recent.clear();
}

}  // namespace

void NBodyScene::applySplitRequest(AppState& state) {
  NBodySplitState& split = state.nbody.split;
  if (!split.requested) return;
  std::vector<size_t> wanted = std::move(*split.requested);
  split.requested.reset();
  const size_t display = state.activeDevice.value_or(state.devices.size());
  if (nbodySplitIsDisplayAlone(wanted, display)) {
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
  if (split_ && wanted == split.running) return;
  startSplit(wanted, state);
}

bool NBodyScene::startSplit(const std::vector<size_t>& wanted, AppState& state) {
  NBodyState& nb = state.nbody;
  NBodySplitState& split = nb.split;
  const std::string still =
      split_ ? "still split over " + deviceNames(state, split.running) : "still on " + compute_.device().displayName() + " alone";
  const size_t display = state.activeDevice.value_or(state.devices.size());
  if (const std::string problem = nbodySplitProblem(state.devices, wanted, display); !problem.empty()) {
    split.message = "cannot split the N-body step over " + deviceNames(state, wanted) + ": " + problem + "; " + still;
    state.report(split.message);
    return false;
  }
  std::vector<DeviceDescriptor> devices;
  for (size_t i : wanted) devices.push_back(state.devices[i]);
  try {
    // The bodies as they are now (from the running split, if any): the state goes on.
    auto runner = std::make_unique<NBodySplitRunner>(devices, compute_.kernelsDir(), currentSystem(),
                                                     simulation_->config());
    split_ = std::move(runner);
  } catch (const std::exception& e) {
    if (const auto* build = dynamic_cast<const ProgramBuildError*>(&e)) {
      state.buildFailures.push_back({build->build().label + " " + build->build().options,
                                     deviceNames(state, wanted), build->build().error, build->build().log});
      state.panels.buildLog = true;
    }
    split.message = "cannot split the N-body step over " + deviceNames(state, wanted) + ": " + failureText(e) +
                    "; " + still;
    state.report(split.message);
    return false;
  }
  split.running = wanted;
  clearFigures(split);
  publishRunning(state);  // the timed kernel is now one device's slice
  nb.conservation.unavailable = "energy and momenta are not measured while the step is split over several devices";
  split.message = "the N-body step is split over " + std::to_string(wanted.size()) +
                  (wanted.size() == 1 ? " device, " : " devices, ") + deviceNames(state, wanted) + "; device " +
                  std::to_string(display) + " draws";
  state.report(split.message);
  return true;
}

std::vector<size_t> NBodyScene::joinSplit(AppState& state) {
  if (!split_) return {};
  // setSystem throws before it changes anything: on failure the split runs on.
  simulation_->setSystem(split_->download());
  split_.reset();
  NBodySplitState& split = state.nbody.split;
  std::vector<size_t> ran = std::move(split.running);
  split.running.clear();
  clearFigures(split);
  state.nbody.conservation.unavailable.clear();
  restartConservation();
  publishRunning(state);
  return ran;
}

void NBodyScene::advanceSplit(AppState& state, int steps, double seconds) {
  NBodyState& nb = state.nbody;
  split_->advance(steps, nb.params, nb.split);
  simulation_->showDisplayValues(split_->displayValues(), split_->padded() * 4);
  nb.steps += static_cast<unsigned long long>(steps);
  nb.stepsPerSecond = seconds > 0 ? steps / seconds : 0.0;
  // The step's kernel time is the slowest device's; the rate counts the whole
  // step, exchange included, as --bench nbody --devices does.
  const std::vector<double>& kernelMs = nb.split.deviceKernelMs;
  nb.kernelMs = kernelMs.empty() ? 0.0 : *std::max_element(kernelMs.begin(), kernelMs.end());
  const double n = static_cast<double>(simulation_->bodies());
  nb.interactionsPerSecond = nb.split.stepMs > 0 ? n * n / (nb.split.stepMs * 1e-3) : 0.0;
  state.breakdown.kernelMs = nb.kernelMs * steps;
  state.breakdown.acquireMs = state.breakdown.releaseMs = state.breakdown.copyMs = 0.0;
  ++nb.timedSteps;
}

}  // namespace ks
