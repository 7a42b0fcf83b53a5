#include "compute/nbody_simulation.h"

#include <algorithm>
#include <vector>

namespace ks {

NBodySimulation::NBodySimulation(ComputeContext& compute, InteropBackend& interop, const NBodySystem& system,
                                 const NBodyConfig& config)
    : compute_(compute), interop_(&interop) {
  kernel_ = std::make_unique<NBodyKernel>(compute, config);
  state_ = std::make_unique<NBodyDeviceState>(compute, system, config);
  display_ = interop.createBuffer(state_->padded() * 4 * sizeof(float));
  refreshDisplay();
}

void NBodySimulation::setConfig(const NBodyConfig& config) {
  auto kernel = std::make_unique<NBodyKernel>(compute_, config);
  // Precision and padding belong to the device state: move the bodies over
  // (through the host, in double) when they change.
  const NBodyConfig& old = kernel_->config();
  if (config.fp64 != old.fp64 || nbodyPaddedCount(bodies(), config) != state_->padded()) {
    auto state = std::make_unique<NBodyDeviceState>(compute_, state_->download(compute_.queue()), config);
    auto display = state->padded() != state_->padded()
                       ? interop_->createBuffer(state->padded() * 4 * sizeof(float))
                       : std::move(display_);
    state_ = std::move(state);
    display_ = std::move(display);
    refreshDisplay();
  }
  kernel_ = std::move(kernel);
}

void NBodySimulation::setSystem(const NBodySystem& system) {
  auto state = std::make_unique<NBodyDeviceState>(compute_, system, kernel_->config());
  auto display = state->padded() != state_->padded() ? interop_->createBuffer(state->padded() * 4 * sizeof(float))
                                                      : std::move(display_);
  state_ = std::move(state);
  display_ = std::move(display);
  refreshDisplay();
}

void NBodySimulation::rebindInterop(InteropBackend& interop) {
  display_ = interop.createBuffer(state_->padded() * 4 * sizeof(float));
  interop_ = &interop;
  refreshDisplay();
}

void NBodySimulation::refreshDisplay() {
  const NBodySystem system = state_->download(compute_.queue());
  std::vector<float> display(state_->padded() * 4, 0.0f);
  for (size_t i = 0; i < system.size(); ++i) {
    for (int c = 0; c < 3; ++c) display[i * 4 + c] = static_cast<float>(system.positions[i][c]);
    display[i * 4 + 3] = static_cast<float>(glm::length(glm::dvec3(system.velocities[i])));
  }
  display_->acquireForCompute(compute_.queue());
  clCheck(clEnqueueWriteBuffer(compute_.queue().get(), display_->clMem(), CL_TRUE, 0, display.size() * sizeof(float),
                               display.data(), 0, nullptr, nullptr),
          "clEnqueueWriteBuffer (display refresh)");
  display_->releaseForDisplay(compute_.queue());
}

NBodyStepTiming NBodySimulation::advance(int steps, const NBodyParams& params) {
  NBodyStepTiming timing;
  display_->acquireForCompute(compute_.queue());
  std::vector<Event> events(static_cast<size_t>(std::max(steps, 0)));
  for (int s = 0; s < steps; ++s) {
    kernel_->enqueueStep(compute_.queue(), state_->positionsIn(), state_->positionsOut(), state_->velocities(),
                         display_->clMem(), state_->padded(), params, &events[static_cast<size_t>(s)]);
    state_->swap();
  }
  compute_.queue().finish();
  display_->releaseForDisplay(compute_.queue());
  for (const Event& e : events) timing.kernelMs += e.elapsedMs();
  timing.steps = steps;
  timing.interop = display_->timings();
  return timing;
}

NBodySystem NBodySimulation::download() const { return state_->download(compute_.queue()); }

}  // namespace ks
