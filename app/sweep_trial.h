#pragma once
// One sweep configuration being measured (an NBodyTrial, TransposeTrial, RotateTrial or
// HistogramTrial),
// driven so that no frame waits for its launches (issue 22).
//
// On a GPU the trial's launches go on the context's queue, a batch of about
// kSweepBatchMs at a time, and each frame polls it (as before). On a CPU device
// one launch alone can take far longer than a frame (a 2048x2048 RGBA transpose:
// about 250 ms on PoCL), and the scene's own work queued behind it held the frame
// for the whole launch. There the trial is driven on the sweep's worker thread
// (compute/background_runs) with a queue of its own: the worker enqueues a batch
// and waits for it, and the frame only asks whether the whole trial is done.
//
// Abandoning a trial (Cancel, a device switch, the sweep panel going away) never
// waits: the worker stops after the launch in flight. What the launches use (the
// kernel, the device buffers, the transpose's input and output) belongs to the
// job the worker holds, so it stays alive until the worker lets go of it.
#include <atomic>
#include <memory>

#include "compute/background_runs.h"
#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/histogram_sweep.h"
#include "compute/image_layout.h"
#include "compute/nbody_benchmark.h"
#include "compute/rotate_benchmark.h"
#include "compute/transpose_benchmark.h"

namespace ks {

class SweepTrial {
 public:
  // `worker`: null to poll in the frame on the context's queue; else the worker
  // that drives it (only while no other run is busy on it). The program must be
  // built already (ComputeContext::kernelFileReady).
  static std::unique_ptr<SweepTrial> nbody(ComputeContext& compute, BackgroundRuns* worker, const NBodySystem& system,
                                           const NBodyConfig& config, const NBodyParams& params, int iterations,
                                           double batchBudgetMs);
  // `in` holds `layout`, `out` has room for its transpose; the trial shares them.
  static std::unique_ptr<SweepTrial> transpose(ComputeContext& compute, BackgroundRuns* worker,
                                               std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> out,
                                               const ImageLayout& layout, const TransposeConfig& config,
                                               int iterations, double batchBudgetMs);
  // `in` holds `layout`, `out` has room for its rotation by `params`; the trial shares them.
  static std::unique_ptr<SweepTrial> rotate(ComputeContext& compute, BackgroundRuns* worker,
                                            std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> out,
                                            const ImageLayout& layout, const RotateParams& params,
                                            const RotateConfig& config, int iterations, double batchBudgetMs);
  // `in` holds `layout`, `bins` has room for histogramBinCount(layout) cl_uints; the trial shares them.
  static std::unique_ptr<SweepTrial> histogram(ComputeContext& compute, BackgroundRuns* worker,
                                               std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> bins,
                                               const ImageLayout& layout, const HistogramConfig& config,
                                               int iterations, double batchBudgetMs);
  // Stops driving it (after the launch in flight, on the worker); never waits.
  ~SweepTrial();
  SweepTrial(const SweepTrial&) = delete;
  SweepTrial& operator=(const SweepTrial&) = delete;

  // Never waits. True once the result is ready (measured, or failed).
  bool poll();
  // The longest launch so far, device time (0 before the first finished).
  double longestLaunchMs() const;
  // Once poll() has returned true, the result of the kind made.
  NBodyMeasurement nbodyResult() const;
  TransposeMeasurement transposeResult() const;
  RotateMeasurement rotateResult() const;
  HistogramMeasurement histogramResult() const;

 private:
  struct Job;
  template <class Trial> struct Driving;
  // The job of a trial made on the worker's queue (when there is a worker) or the context's.
  template <class Trial, class... Args>
  static std::unique_ptr<SweepTrial> make(ComputeContext& compute, BackgroundRuns* worker,
                                          std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> out,
                                          Args&&... args);
  template <class Trial> auto resultOf() const;
  SweepTrial(std::shared_ptr<Job> job, BackgroundRuns* worker);
  void startOnWorker();
  std::shared_ptr<Job> job_;  // shared with the worker's run while it drives it
  BackgroundRuns* worker_;
  bool done_ = false;
};

}  // namespace ks
