#pragma once
// The live N-body simulation: device state, the chosen kernel variant, and the
// GL vertex buffer it writes positions into through the interop layer. Every
// change (variant, N, interop path) keeps the simulation's state, and a change
// that fails leaves the running simulation as it was.
#include <memory>
#include <vector>

#include "compute/interop/interop.h"
#include "compute/compute_context.h"
#include "compute/nbody_gpu.h"
#include "compute/nbody_invariants.h"

namespace ks {

// Of the steps that finished since the last advance (those enqueued one frame
// earlier: steps run while GL draws the previous positions, and are timed once
// done, never waited for in a steady frame).
struct NBodyStepTiming {
  double kernelMs = 0.0;  // sum of the steps' kernel times (OpenCL events)
  int steps = 0;          // 0: none finished (the first frame)
  InteropTimings interop;
};

class NBodySimulation {
 public:
  NBodySimulation(ComputeContext& compute, InteropBackend& interop, const NBodySystem& system,
                  const NBodyConfig& config);
  void setConfig(const NBodyConfig& config);
  void setSystem(const NBodySystem& system);
  void rebindInterop(InteropBackend& interop);
  // Enqueues `steps` steps, writing the display buffer GL does not draw now;
  // returns the timing of the previous call's steps (see NBodyStepTiming).
  NBodyStepTiming advance(int steps, const NBodyParams& params);
  // Whether the last advance's steps have finished (and were shown), waiting for them
  // at most `maxWaitMs`. A window frame that gets false launches no steps: it draws
  // the positions it has and the simulation goes at the device's pace, where advance
  // would wait for them (a CPU device stepping many bodies: frames of seconds).
  bool stepsDoneWithin(double maxWaitMs);
  // Enqueues a measurement of energy and momenta after the steps enqueued so far.
  void measureInvariants(NBodyInvariantsMeter& meter, const NBodyParams& params) {
    meter.enqueue(compute_.queue(), state_->positionsIn(), state_->velocities(), state_->bodies(), params);
  }
  // Waits for the steps in flight (save, verify, tests).
  NBodySystem download() const;

  // Draws these values (x, y, z, speed per padded body) instead of this
  // simulation's own: the step split over other devices (app/nbody_split_runner.h)
  // gathers them. Never waits for the copy: GL draws the previous positions until
  // it is done. `values` must stay as they are until displayWriteDone() (pinned
  // host memory the copy reads from without staging).
  void showDisplayValues(const float* values, size_t count);
  // The copy of the last showDisplayValues has finished (or there is none); never blocks.
  bool displayWriteDone() const { return displayWrite_.complete(); }
  // Waits for it: before its source is overwritten or freed.
  void waitForDisplayWrite();
  // An update of the display buffer was released and not yet seen finished.
  bool displayUpdatePending() const { return display_->updatePending(); }

  // The newest finished positions, for drawing now; call drawnByGl after the draw.
  // Before the first positions are shown: waits for them, or with waitForFirst false
  // returns 0 (a window frame draws no bodies rather than wait for the first launch,
  // which compiles the kernel's machine code on PoCL: seconds).
  GLuint displayBufferForDrawing(bool waitForFirst = true);
  void drawnByGl() { display_->drawnByGl(); }
  size_t bodies() const { return state_->bodies(); }
  const NBodyKernel& kernel() const { return *kernel_; }
  const NBodyConfig& config() const { return kernel_->config(); }

 private:
  // Writes the display buffer from the current state (after anything that
  // replaced it), so a paused simulation still shows its bodies.
  void refreshDisplay();
  // Makes `state` the simulation's, with a display buffer of its padded size
  // (the old one kept where the size is the same), and shows it. Nothing is
  // replaced if making the buffer throws.
  void adoptState(std::unique_ptr<NBodyDeviceState> state);
  // Copies `values` into the display buffer GL does not draw now; `wait`: until
  // they are shown, else the copy is only enqueued (displayWrite_ its event).
  void writeDisplay(const float* values, size_t count, bool wait);
  ComputeContext& compute_;
  InteropBackend* interop_;  // the backend the display buffer comes from
  std::unique_ptr<NBodyKernel> kernel_;
  std::unique_ptr<NBodyDeviceState> state_;
  std::unique_ptr<SharedBufferPair> display_;
  std::vector<Event> inFlight_;  // the last advance's kernel events
  Event displayWrite_;           // the last showDisplayValues copy (its source must outlive it)
};

}  // namespace ks
