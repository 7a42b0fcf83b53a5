#pragma once
// The UI's sweeps, run from the frame loop without ever waiting for the device:
// each configuration's program is built on a worker thread, then its warm-up and
// K timed launches are enqueued a batch at a time (about kSweepBatchMs of device
// work, one launch on a slow CPU device), median kept. On a GPU the frame polls
// them (a frame waits for at most one batch: the scene's own work queues behind
// it); on a CPU device, where one launch can take longer than a frame, they run on
// the sweep's worker thread with a queue of its own (app/sweep_trial), so the
// window keeps drawing and Cancel acts at once. A trial abandoned (Cancel, a device
// switch, quitting) is never waited for by a frame. Acts on state.runs.sweep's requests:
// start builds the plan with compute/sweep_plan (refused combinations listed,
// never run), cancel stops queueing (launches in flight finish on their own),
// apply-best puts the winner into the scene and the tuning cache (every kind but
// interop paths, which are the choice of the moment).
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/app_state.h"
#include "app/sweep_trial.h"
#include "compute/background_runs.h"
#include "compute/cl_objects.h"
#include "compute/image_layout.h"
#include "compute/histogram_sweep.h"
#include "compute/image_transpose.h"
#include "compute/interop/interop_path.h"
#include "compute/nbody_benchmark.h"
#include "compute/nbody_model.h"
#include "compute/rotate_benchmark.h"
#include "compute/sweep_plan.h"
#include "compute/transpose_benchmark.h"

namespace ks {

class Session;

// The bodies an N-body sweep runs: the Sweep panel's number, or (0) the scene's.
size_t sweptBodies(const AppState& state);

// Whether a sweep on `device` runs its launches on a worker thread rather than
// polling them in the frame: CPU devices, where one launch can outlast a frame.
bool sweepLaunchesOffTheFrame(const DeviceDescriptor& device);

// Device work enqueued at once by a sweep: what a frame may wait for.
constexpr double kSweepBatchMs = 40.0;
// A launch longer than this pauses the window noticeably (the panel warns).
constexpr double kSmoothLaunchMs = 100.0;

class SweepRunner {
 public:
  SweepRunner();
  // A trial in flight on a worker stops after its launch; the workers are joined
  // (at most one launch each: quitting does not wait for a whole configuration).
  ~SweepRunner();
  void step(AppState& state, Session& session);

 private:
  // The trial in flight dropped; its worker, still busy with the launch in flight,
  // finishes it in the background (retired_), never waited for by a frame.
  void dropTrial();
  void pollRetiredWorkers();
  // state.runs.sweep.holdsDevice: while a worker runs launches on the CPU device,
  // a dropped trial's last one included.
  void publishHold(SweepUiState& ui) const;
  void start(AppState& state, ComputeContext& compute);
  void finish(AppState& state, const std::string& status);
  // The trial in flight polled; its result recorded once ready. True when it is.
  bool pollTrial(AppState& state, const DeviceDescriptor& device);
  void applyBest(AppState& state, const ComputeContext& compute);
  // Interop sweep: one frame of the switch / warm-up / record cycle.
  void stepInterop(AppState& state, const ComputeContext& compute);
  // The kernel files and build options configuration `index` of the queue runs with.
  std::vector<std::pair<std::string, std::string>> programsOf(size_t index, const DeviceDescriptor& device) const;
  // Whether all of them are built; those that are not are started building on a worker.
  bool programsReady(size_t index, ComputeContext& compute) const;
  // The image sweeps' picture: layout_ from the panel, a picture_ to be made with
  // room for `outBytes` of output. False when the device cannot hold it (ui.status says why).
  bool choosePicture(SweepUiState& ui, const DeviceDescriptor& device, size_t outBytes);
  // Rotate sweep (app/sweep_runner_rotate.cpp): the plan queued and its buffers made;
  // false when it cannot start (ui.status says why).
  bool startRotate(AppState& state, ComputeContext& compute);
  // Into the image lab, and into the device's tuning entry (saved by applyBest).
  void applyRotateBest(AppState& state, size_t best, TuningEntry& entry);
  // Histogram sweep (app/sweep_runner_histogram.cpp), as the rotate's.
  bool startHistogram(AppState& state, ComputeContext& compute);
  void applyHistogramBest(AppState& state, size_t best, TuningEntry& entry);
  size_t queuedCount() const;  // configurations the device runs in this sweep

  bool active_ = false;
  bool cancelled_ = false;  // the last sweep stopped before it measured every configuration
  const ComputeContext* compute_ = nullptr;  // the context the sweep runs on (a device switch cancels it)
  SweepTarget target_ = SweepTarget::NBody;
  // One kind's plan: what the device runs, in order, and what the results
  // (state.runs.sweep.results) were measured with, index for index.
  template <class Config>
  struct KindPlan {
    std::vector<Config> queue, results;
  };
  KindPlan<NBodyConfig> nbody_;
  KindPlan<TransposeConfig> transpose_;
  KindPlan<RotateConfig> rotate_;
  KindPlan<HistogramConfig> histogram_;
  KindPlan<InteropPath> interop_;
  // A plan's refused configurations become results at once (each a record of `refusedRun(config, why)`),
  // its valid ones the kind's queue; the panel's counts follow.
  template <class Config, class RefusedRun>
  static void queuePlan(SweepUiState& ui, KindPlan<Config>& kind, const SweepPlan<Config>& plan,
                        const RefusedRun& refusedRun) {
    for (const auto& refused : plan.refused) {
      ui.results.push_back(refusedRun(refused.first, refused.second));
      kind.results.push_back(refused.first);
    }
    kind.queue = plan.valid;
    ui.total = plan.total();
    ui.refused = plan.refused.size();
  }
  RotateParams rotateParams_;
  size_t next_ = 0;  // the configuration measured now (a trial in flight) or next
  std::unique_ptr<SweepTrial> trial_;  // the configuration measured now, if any
  // CPU devices: the thread the trials run on, made at the sweep's start.
  std::unique_ptr<BackgroundRuns> worker_;
  std::vector<std::unique_ptr<BackgroundRuns>> retired_;  // finishing a dropped trial's launch
  enum class InteropPhase { Switch, WarmUp, Record } interopPhase_ = InteropPhase::Switch;
  int warmupLeft_ = 0;
  InteropPath originalPath_ = InteropPath::Host;
  std::vector<double> frameMs_, kernelMs_;
  std::chrono::steady_clock::time_point recordStart_;
  std::optional<NBodySystem> system_;
  NBodyParams params_;
  size_t bodies_ = 0;  // what the N-body sweep runs at
  ImageLayout layout_;
  // The image sweeps' picture, shared with their trials (and with the worker that makes it):
  // `out` has room for the output (a transpose, a rotation or the histogram's bins).
  struct SweepPicture {
    Buffer in, out;
  };
  std::shared_ptr<SweepPicture> picture_;
  size_t outBytes_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace ks
