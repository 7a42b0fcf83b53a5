#include "app/sweep_trial.h"

#include <exception>
#include <string>
#include <utility>

namespace ks {

struct SweepTrial::Job {
  // Before the trials: they go first, these after the launches that use them.
  std::shared_ptr<const Buffer> in, out;
  std::unique_ptr<NBodyTrial> nbody;
  std::unique_ptr<TransposeTrial> transpose;
  std::unique_ptr<RotateTrial> rotate;
  std::atomic<bool> stop{false};           // set by the frame's thread: the worker stops after its launch
  std::atomic<double> longestMs{0.0};      // written by the worker, read by the frame's thread
  std::string failure;                     // the worker's queue failed (read once the run has finished)

  bool pollTrial() { return nbody ? nbody->poll() : rotate ? rotate->poll() : transpose->poll(); }
  double trialLongestMs() const {
    return nbody ? nbody->longestStepMs() : rotate ? rotate->longestRunMs() : transpose->longestRunMs();
  }
};

SweepTrial::SweepTrial(std::shared_ptr<Job> job, BackgroundRuns* worker) : job_(std::move(job)), worker_(worker) {
  if (worker_) startOnWorker();
}

std::unique_ptr<SweepTrial> SweepTrial::nbody(ComputeContext& compute, BackgroundRuns* worker,
                                              const NBodySystem& system, const NBodyConfig& config,
                                              const NBodyParams& params, int iterations, double batchBudgetMs) {
  auto job = std::make_shared<Job>();
  Queue& queue = worker ? worker->queue() : compute.queue();
  job->nbody = std::make_unique<NBodyTrial>(compute, queue, system, config, params, iterations, batchBudgetMs);
  return std::unique_ptr<SweepTrial>(new SweepTrial(std::move(job), worker));
}

std::unique_ptr<SweepTrial> SweepTrial::transpose(ComputeContext& compute, BackgroundRuns* worker,
                                                  std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> out,
                                                  const ImageLayout& layout, const TransposeConfig& config,
                                                  int iterations, double batchBudgetMs) {
  auto job = std::make_shared<Job>();
  job->in = std::move(in);
  job->out = std::move(out);
  Queue& queue = worker ? worker->queue() : compute.queue();
  job->transpose = std::make_unique<TransposeTrial>(compute, queue, job->in->get(), job->out->get(), layout, config,
                                                    iterations, batchBudgetMs);
  return std::unique_ptr<SweepTrial>(new SweepTrial(std::move(job), worker));
}

std::unique_ptr<SweepTrial> SweepTrial::rotate(ComputeContext& compute, BackgroundRuns* worker,
                                               std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> out,
                                               const ImageLayout& layout, const RotateParams& params,
                                               const RotateConfig& config, int iterations, double batchBudgetMs) {
  auto job = std::make_shared<Job>();
  job->in = std::move(in);
  job->out = std::move(out);
  Queue& queue = worker ? worker->queue() : compute.queue();
  job->rotate = std::make_unique<RotateTrial>(compute, queue, job->in->get(), job->out->get(), layout, params, config,
                                              iterations, batchBudgetMs);
  return std::unique_ptr<SweepTrial>(new SweepTrial(std::move(job), worker));
}

void SweepTrial::startOnWorker() {
  worker_->start([job = job_](Queue& queue) {
    // A trial's poll never waits; here, off the frame, each batch it enqueues is
    // waited for before the next. Stopping is looked at between launches.
    while (!job->stop.load()) {
      if (job->pollTrial()) return;
      job->longestMs.store(job->trialLongestMs());
      try {
        queue.finish();
      } catch (const std::exception& e) {
        job->failure = e.what();  // the device failed: waiting again would fail again
        return;
      }
    }
  });
}

SweepTrial::~SweepTrial() {
  if (worker_ && !done_) job_->stop.store(true);
}

bool SweepTrial::poll() {
  if (done_) return true;
  if (!worker_) {
    done_ = job_->pollTrial();
    if (!done_) job_->longestMs.store(job_->trialLongestMs());
    return done_;
  }
  try {
    done_ = worker_->poll();
  } catch (const std::exception& e) {  // what the worker's own wait for the queue threw
    job_->failure = e.what();
    done_ = true;
  }
  return done_;
}

double SweepTrial::longestLaunchMs() const { return job_->longestMs.load(); }

NBodyMeasurement SweepTrial::nbodyResult() const {
  NBodyMeasurement r = job_->nbody->result();
  if (!job_->failure.empty() && r.problem.empty()) r.problem = job_->failure;
  return r;
}

TransposeMeasurement SweepTrial::transposeResult() const {
  TransposeMeasurement r = job_->transpose->result();
  if (!job_->failure.empty() && r.problem.empty()) r.problem = job_->failure;
  return r;
}

RotateMeasurement SweepTrial::rotateResult() const {
  RotateMeasurement r = job_->rotate->result();
  if (!job_->failure.empty() && r.problem.empty()) r.problem = job_->failure;
  return r;
}

}  // namespace ks
