#pragma once
// Keeps state.ceilings for the active device: taken from the ceilings cache
// (state.ceilingsFile) when the device was measured before, else measured. A
// window run measures one piece of a micro-benchmark at a time on a worker thread
// with a queue of its own, so that no frame waits for the pieces' launches (issue
// 22: run on the scene's queue, each piece also waited for the N-body step before
// it, and a kernel's first launch compiles on PoCL: frames of 0.4-12.7 s). The
// pieces are measured alone: a piece starts once the scene's queue has finished
// what was enqueued before it (a marker polled), and the N-body scene holds its
// steps while state.ceilings.holdsDevice (on a CPU both would share the cores, on a
// GPU the compute units; a figure measured beside them would be low, and cached).
// Between pieces the scene steps once. A headless run measures at once, so its
// state dump, summary and run records carry them.
// The Device info panel's "Measure again" (the MeasureCeilings command) measures
// anew and replaces the cached entry.
#include <memory>

#include "compute/background_runs.h"
#include "compute/ceiling_benchmarks.h"

namespace ks {

struct AppState;
class ComputeContext;

class CeilingsRunner {
 public:
  // A device became active: its cached ceilings, or a measurement begins.
  void start(ComputeContext& compute, AppState& state);
  // Once per frame: acts on "Measure again", polls the piece running, starts the next.
  void step(ComputeContext& compute, AppState& state);
  // Before the context goes away (waits for a piece running on the worker).
  void stop();
  // A piece runs on the worker (quitting need not wait for it).
  bool busy() const { return worker_ && worker_->busy(); }

 private:
  std::unique_ptr<CeilingMeasurement> measurement_;
  std::unique_ptr<BackgroundRuns> worker_;  // made with the first piece a window run measures
  Event sceneDone_;  // a marker after the scene's work: the next piece starts once it completes
  bool steppedSinceLast_ = true;  // the scene had a frame to step since the last piece
  void begin(ComputeContext& compute, AppState& state);
  void finish(ComputeContext& compute, AppState& state);
  void release(AppState& state);
};

}  // namespace ks
