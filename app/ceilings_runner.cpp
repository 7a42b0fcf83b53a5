#include "app/ceilings_runner.h"

#include <exception>
#include <string>

#include "app/app_state.h"
#include "compute/cl_error.h"
#include "compute/compute_context.h"

namespace ks {

void CeilingsRunner::start(ComputeContext& compute, AppState& state) {
  stop();
  state.commands.take<MeasureCeilings>();  // asked of the device before: a new one starts from its cache
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

void CeilingsRunner::stop() {
  worker_.reset();  // waits for the piece running: it uses the measurement's buffers
  sceneDone_ = Event();
  measurement_.reset();
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

void CeilingsRunner::release(AppState& state) {
  sceneDone_ = Event();
  state.ceilings.holdsDevice = false;
}

void CeilingsRunner::step(ComputeContext& compute, AppState& state) {
  DeviceCeilings& c = state.ceilings;
  if (state.commands.takeAny<MeasureCeilings>() && !measurement_) begin(compute, state);
  if (!measurement_) return;
  try {
    if (worker_ && worker_->busy()) {
      if (!worker_->poll()) return;  // the piece still runs: this frame goes on without it
      release(state);  // the scene steps in this frame, before the next piece
      c.progress = measurement_->progress();
      if (measurement_->done()) finish(compute, state);
      return;
    }
    // A sweep measuring on a CPU device's cores: measured beside it, both would be wrong.
    if (state.runs.sweep.holdsDevice) {
      release(state);
      c.progress = "waiting for the sweep to finish";
      return;
    }
    if (!sceneDone_) {
      if (!measurement_->readyForPiece()) {
        c.progress = measurement_->progress();
        return;
      }
      // From now on the scene holds its steps; the piece starts once the device has done
      // what the scene enqueued before.
      clCheck(clEnqueueMarkerWithWaitList(compute.queue().get(), 0, nullptr, sceneDone_.out()),
              "clEnqueueMarkerWithWaitList (device ceilings)");
      compute.queue().flush();
      c.holdsDevice = true;
    }
    if (!sceneDone_.complete()) return;
    sceneDone_ = Event();
    if (!worker_) worker_ = std::make_unique<BackgroundRuns>(compute.context(), compute.device().id);
    worker_->start([measurement = measurement_.get()](Queue& queue) { measurement->runPiece(queue); });
  } catch (const std::exception& e) {
    // The worker's queue or the marker failed (a piece's own errors become its figure's):
    // the measurement ends, said in the log, and the scene runs on.
    worker_.reset();
    release(state);
    measurement_.reset();
    c.measuring = false;
    c.progress.clear();
    state.report(std::string("the device's ceilings were not measured: ") + e.what());
  }
}

void CeilingsRunner::finish(ComputeContext& compute, AppState& state) {
  DeviceCeilings& c = state.ceilings;
  c.measured = measurement_->result();
  measurement_.reset();
  c.measuring = false;
  c.holdsDevice = false;
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
