#include "app/ceilings_runner.h"

#include "app/app_state.h"
#include "compute/compute_context.h"

namespace ks {

void CeilingsRunner::start(ComputeContext& compute, AppState& state) {
  measurement_.reset();
  DeviceCeilings& c = state.ceilings;
  c = DeviceCeilings{};
  c.peak = peakFp32(compute.device(), &c.peakUnknownWhy);
  if (const MeasuredCeilings* cached = state.ceilingsCache.find(compute.device())) {
    c.measured = *cached;
    c.source = "from the cache, measured " + cached->time;
    return;
  }
  begin(compute, state);
}

void CeilingsRunner::begin(ComputeContext& compute, AppState& state) {
  measurement_ = std::make_unique<CeilingMeasurement>(compute);
  state.ceilings.measuring = true;
  state.ceilings.progress = measurement_->progress();
  if (state.headless) {
    measurement_->runToEnd();
    finish(compute, state);
  }
}

void CeilingsRunner::step(ComputeContext& compute, AppState& state) {
  DeviceCeilings& c = state.ceilings;
  if (c.measureRequested) {
    c.measureRequested = false;
    if (!measurement_) begin(compute, state);
  }
  if (!measurement_) return;
  // A sweep measuring on a CPU device's cores: measured beside it, both would be wrong,
  // and each frame would wait for its launches.
  if (state.runs.sweep.holdsDevice) {
    c.progress = "waiting for the sweep to finish";
    return;
  }
  if (measurement_->step()) finish(compute, state);
  else c.progress = measurement_->progress();
}

void CeilingsRunner::finish(ComputeContext& compute, AppState& state) {
  DeviceCeilings& c = state.ceilings;
  c.measured = measurement_->result();
  measurement_.reset();
  c.measuring = false;
  c.progress.clear();
  c.source = "measured " + c.measured.time;
  for (const CeilingFigure& f : c.measured.figures)
    if (!f.error.empty() && f.error.rfind("not available", 0) != 0) {
      state.report("a device ceiling was not measured: " + f.error);
      break;
    }
  state.ceilingsCache.devices[tuningKey(compute.device())] = c.measured;
  if (!state.ceilingsFile.empty())
    if (const std::string error = saveCeilingsCache(state.ceilingsCache, state.ceilingsFile); !error.empty())
      state.report(error);
}

}  // namespace ks
