#pragma once
// The live N-body simulation: device state, the chosen kernel variant, and the
// GL vertex buffer it writes positions into through the interop layer. Every
// change (variant, N, interop path) keeps the simulation's state, and a change
// that fails leaves the running simulation as it was.
#include <memory>

#include "compute/interop/interop.h"
#include "compute/nbody_gpu.h"

namespace ks {

struct NBodyStepTiming {
  double kernelMs = 0.0;  // sum of the steps' kernel times (OpenCL events)
  int steps = 0;
  InteropTimings interop;
};

class NBodySimulation {
 public:
  NBodySimulation(ComputeContext& compute, InteropBackend& interop, const NBodySystem& system,
                  const NBodyConfig& config);
  void setConfig(const NBodyConfig& config);
  void setSystem(const NBodySystem& system);
  void rebindInterop(InteropBackend& interop);
  // `steps` steps (0 just refreshes nothing); the display buffer is acquired
  // around them and released for drawing afterwards.
  NBodyStepTiming advance(int steps, const NBodyParams& params);
  NBodySystem download() const;

  GLuint displayBuffer() const { return display_->glBuffer(); }
  size_t bodies() const { return state_->bodies(); }
  const NBodyKernel& kernel() const { return *kernel_; }
  const NBodyConfig& config() const { return kernel_->config(); }

 private:
  // Writes the display buffer from the current state (after anything that
  // replaced it), so a paused simulation still shows its bodies.
  void refreshDisplay();
  ComputeContext& compute_;
  InteropBackend* interop_;  // the backend the display buffer comes from
  std::unique_ptr<NBodyKernel> kernel_;
  std::unique_ptr<NBodyDeviceState> state_;
  std::unique_ptr<SharedBuffer> display_;
};

}  // namespace ks
