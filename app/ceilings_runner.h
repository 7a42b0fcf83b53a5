#pragma once
// Keeps state.ceilings for the active device: taken from the ceilings cache
// (state.ceilingsFile) when the device was measured before, else measured. A
// window run measures one micro-benchmark per frame (each a few short launches),
// so the UI never stalls for long while the device is measured; a headless run
// measures at once, so its state dump, summary and run records carry them.
// The Device info panel's "Measure again" (state.ceilings.measureRequested)
// measures anew and replaces the cached entry.
#include <memory>

#include "compute/ceiling_benchmarks.h"

namespace ks {

struct AppState;
class ComputeContext;

class CeilingsRunner {
 public:
  // A device became active: its cached ceilings, or a measurement begins.
  void start(ComputeContext& compute, AppState& state);
  // Once per frame: acts on "Measure again", runs the next micro-benchmark.
  void step(ComputeContext& compute, AppState& state);
  // Before the context goes away.
  void stop() { measurement_.reset(); }

 private:
  std::unique_ptr<CeilingMeasurement> measurement_;
  void begin(ComputeContext& compute, AppState& state);
  void finish(ComputeContext& compute, AppState& state);
};

}  // namespace ks
