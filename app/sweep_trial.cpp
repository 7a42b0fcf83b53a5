#include "app/sweep_trial.h"

#include <exception>
#include <type_traits>
#include <string>
#include <utility>

namespace ks {

struct SweepTrial::Job {
  // Before the trial: it goes first, these after the launches that use them.
  std::shared_ptr<const Buffer> in, out;
  // The trial of whichever kind, driven through these two (Driving<Trial> below).
  virtual bool pollTrial() = 0;
  virtual double trialLongestMs() const = 0;
  virtual ~Job() = default;
  std::atomic<bool> stop{false};           // set by the frame's thread: the worker stops after its launch
  std::atomic<double> longestMs{0.0};      // written by the worker, read by the frame's thread
  std::string failure;                     // the worker's queue failed (read once the run has finished)
};

template <class Trial>
struct SweepTrial::Driving : Job {
  std::unique_ptr<Trial> trial;
  bool pollTrial() override { return trial->poll(); }
  double trialLongestMs() const override {
    if constexpr (std::is_same_v<Trial, NBodyTrial>) return trial->longestStepMs();
    else return trial->longestRunMs();
  }
};

SweepTrial::SweepTrial(std::shared_ptr<Job> job, BackgroundRuns* worker) : job_(std::move(job)), worker_(worker) {
  if (worker_) startOnWorker();
}

template <class Trial, class... Args>
std::unique_ptr<SweepTrial> SweepTrial::make(ComputeContext& compute, BackgroundRuns* worker,
                                             std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> out,
                                             Args&&... args) {
  auto job = std::make_shared<Driving<Trial>>();
  job->in = std::move(in);
  job->out = std::move(out);
  Queue& queue = worker ? worker->queue() : compute.queue();
  if constexpr (std::is_same_v<Trial, NBodyTrial>)
    job->trial = std::make_unique<Trial>(compute, queue, std::forward<Args>(args)...);
  else
    job->trial = std::make_unique<Trial>(compute, queue, job->in->get(), job->out->get(), std::forward<Args>(args)...);
  return std::unique_ptr<SweepTrial>(new SweepTrial(std::move(job), worker));
}

std::unique_ptr<SweepTrial> SweepTrial::nbody(ComputeContext& compute, BackgroundRuns* worker,
                                              const NBodySystem& system, const NBodyConfig& config,
                                              const NBodyParams& params, int iterations, double batchBudgetMs) {
  return make<NBodyTrial>(compute, worker, nullptr, nullptr, system, config, params, iterations, batchBudgetMs);
}

std::unique_ptr<SweepTrial> SweepTrial::transpose(ComputeContext& compute, BackgroundRuns* worker,
                                                  std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> out,
                                                  const ImageLayout& layout, const TransposeConfig& config,
                                                  int iterations, double batchBudgetMs) {
  return make<TransposeTrial>(compute, worker, std::move(in), std::move(out), layout, config, iterations,
                              batchBudgetMs);
}

std::unique_ptr<SweepTrial> SweepTrial::rotate(ComputeContext& compute, BackgroundRuns* worker,
                                               std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> out,
                                               const ImageLayout& layout, const RotateParams& params,
                                               const RotateConfig& config, int iterations, double batchBudgetMs) {
  return make<RotateTrial>(compute, worker, std::move(in), std::move(out), layout, params, config, iterations,
                           batchBudgetMs);
}

std::unique_ptr<SweepTrial> SweepTrial::histogram(ComputeContext& compute, BackgroundRuns* worker,
                                                  std::shared_ptr<const Buffer> in, std::shared_ptr<const Buffer> bins,
                                                  const ImageLayout& layout, const HistogramConfig& config,
                                                  int iterations, double batchBudgetMs) {
  return make<HistogramTrial>(compute, worker, std::move(in), std::move(bins), layout, config, iterations,
                              batchBudgetMs);
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

// The trial's result, with the worker's failure where the trial itself saw none.
template <class Trial>
auto SweepTrial::resultOf() const {
  auto r = static_cast<const Driving<Trial>&>(*job_).trial->result();
  if (!job_->failure.empty() && r.problem.empty()) r.problem = job_->failure;
  return r;
}

NBodyMeasurement SweepTrial::nbodyResult() const { return resultOf<NBodyTrial>(); }
TransposeMeasurement SweepTrial::transposeResult() const { return resultOf<TransposeTrial>(); }
RotateMeasurement SweepTrial::rotateResult() const { return resultOf<RotateTrial>(); }
HistogramMeasurement SweepTrial::histogramResult() const { return resultOf<HistogramTrial>(); }

}  // namespace ks
