#include "compute/nbody_simulation.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace ks {

NBodySimulation::NBodySimulation(ComputeContext& compute, InteropBackend& interop, const NBodySystem& system,
                                 const NBodyConfig& config)
    : compute_(compute), interop_(&interop) {
  kernel_ = std::make_unique<NBodyKernel>(compute, config);
  state_ = std::make_unique<NBodyDeviceState>(compute, system, config);
  display_ = std::make_unique<SharedBufferPair>(interop, state_->padded() * 4 * sizeof(float));
  refreshDisplay();
}

void NBodySimulation::setConfig(const NBodyConfig& config) {
  auto kernel = std::make_unique<NBodyKernel>(compute_, config);
  // Precision and padding belong to the device state: move the bodies over
  // (through the host, in double) when they change.
  const NBodyConfig& old = kernel_->config();
  if (config.fp64 != old.fp64 || nbodyPaddedCount(bodies(), config) != state_->padded()) {
    adoptState(std::make_unique<NBodyDeviceState>(compute_, state_->download(compute_.queue()), config));
  }
  kernel_ = std::move(kernel);
}

void NBodySimulation::setSystem(const NBodySystem& system) {
  adoptState(std::make_unique<NBodyDeviceState>(compute_, system, kernel_->config()));
}

void NBodySimulation::adoptState(std::unique_ptr<NBodyDeviceState> state) {
  auto display = state->padded() != state_->padded()
                     ? std::make_unique<SharedBufferPair>(*interop_, state->padded() * 4 * sizeof(float))
                     : std::move(display_);
  state_ = std::move(state);
  display_ = std::move(display);
  refreshDisplay();
}

void NBodySimulation::rebindInterop(InteropBackend& interop) {
  display_.reset();  // its buffers belong to the old backend
  display_ = std::make_unique<SharedBufferPair>(interop, state_->padded() * 4 * sizeof(float));
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
  writeDisplay(display.data(), display.size(), true);
}

void NBodySimulation::showDisplayValues(const float* values, size_t count) {
  if (count != state_->padded() * 4)
    throw NBodyConfigError("the positions to draw are for " + std::to_string(count / 4) + " bodies, the display for " +
                           std::to_string(state_->padded()));
  display_->refresh();
  inFlight_.clear();  // steps from before the split are not this frame's: untimed
  writeDisplay(values, count, false);
}

void NBodySimulation::waitForDisplayWrite() {
  if (displayWrite_) displayWrite_.wait();
  displayWrite_ = Event();
}

void NBodySimulation::writeDisplay(const float* values, size_t count, bool wait) {
  // An update still in flight is waited for here (beginUpdate): one copy at a time.
  SharedBuffer& out = display_->beginUpdate(compute_.queue());
  const cl_int status = clEnqueueWriteBuffer(compute_.queue().get(), out.clMem(), wait ? CL_TRUE : CL_FALSE, 0,
                                             count * sizeof(float), values, 0, nullptr,
                                             wait ? nullptr : displayWrite_.out());
  if (status != CL_SUCCESS) {
    displayWrite_ = Event();
    display_->abandonUpdate(compute_.queue());
    throw ClError(status, "clEnqueueWriteBuffer (display refresh)");
  }
  display_->endUpdate(compute_.queue());
  if (wait) {
    display_->finishUpdates();
  } else {
    compute_.queue().flush();  // the copy starts now, not at the next blocking call
  }
}

NBodyStepTiming NBodySimulation::advance(int steps, const NBodyParams& params) {
  display_->refresh();
  if (steps <= 0) return {};  // an update must write every position: none without a step
  // Waits only if the previous frame's steps are still running: then the device,
  // not this frame's CPU work, is what limits the frame rate.
  SharedBuffer& out = display_->beginUpdate(compute_.queue());
  NBodyStepTiming timing;
  for (const Event& e : inFlight_) timing.kernelMs += e.elapsedMs();  // all finished: beginUpdate saw them done
  timing.steps = static_cast<int>(inFlight_.size());
  inFlight_.assign(static_cast<size_t>(std::max(steps, 0)), Event());
  try {
    for (int s = 0; s < steps; ++s) {
      kernel_->enqueueStep(compute_.queue(), state_->positionsIn(), state_->positionsOut(), state_->velocities(),
                           out.clMem(), state_->padded(), params, &inFlight_[static_cast<size_t>(s)]);
      state_->swap();
    }
  } catch (...) {
    inFlight_.clear();
    display_->abandonUpdate(compute_.queue());
    throw;
  }
  display_->endUpdate(compute_.queue());
  timing.interop = display_->timings();
  return timing;
}

bool NBodySimulation::stepsDoneWithin(double maxWaitMs) {
  const auto start = std::chrono::steady_clock::now();
  display_->refresh();
  // Polled, not waited for: OpenCL has no wait with a time limit. A GPU's steps end
  // within the first polls; a sleep between later ones leaves a CPU device its cores.
  for (int polls = 0; display_->updatePending(); ++polls) {
    const double waited = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (waited >= maxWaitMs) return false;
    if (polls < 200) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(500));
    display_->refresh();
  }
  return true;
}

GLuint NBodySimulation::displayBufferForDrawing(bool waitForFirst) {
  display_->refresh();
  if (!display_->shown()) {
    if (!waitForFirst) return 0;
    display_->finishUpdates();  // nothing drawn yet: wait for the first positions
  }
  return display_->shown()->glBuffer();
}

NBodySystem NBodySimulation::download() const { return state_->download(compute_.queue()); }

}  // namespace ks
