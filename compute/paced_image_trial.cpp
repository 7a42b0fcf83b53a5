#include "compute/paced_image_trial.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "compute/kernel_files.h"
#include "compute/paced_launches.h"
#include "compute/sample_stats.h"

namespace ks {
namespace {

double commandsMs(const ImageOpEvents& events) {
  double ms = 0.0;
  for (const ImageOpCommand& c : events.commands) ms += c.event.elapsedMs();
  return ms;
}

// A batch this long takes every launch left at once: what a caller that waits wants.
constexpr double kWholeMeasurementMs = 1e12;

}  // namespace

// PacedLaunches times one event a launch: the last command's. The earlier
// commands of a launch are kept here and added to it.
struct PacedImageTrial::Running {
  Running(Queue& queue, ImageOpLaunch run, int iterations, double batchBudgetMs)
      : launch(std::move(run)),
        launches(
            queue,
            [&queue, this](Event* event) {
              ImageOpEvents events;
              launch(queue, events);
              if (events.commands.empty()) throw std::logic_error("an image operation's run enqueued no command");
              *event = std::move(events.commands.back().event);
              events.commands.pop_back();
              earlier[launched++] = std::move(events);
            },
            kWarmups, iterations, batchBudgetMs) {}
  ImageOpLaunch launch;
  std::map<int, ImageOpEvents> earlier;  // by launch number
  int launched = 0;
  PacedLaunches launches;
};

PacedImageTrial::PacedImageTrial(ComputeContext& compute, Queue& queue, const std::string& kernelFile,
                                 const ImageOpPrepare& prepare, size_t bytesPerRun, int iterations,
                                 double batchBudgetMs)
    : bytesPerRun_(bytesPerRun) {
  try {
    times_.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kernelFile));
    running_ = std::make_unique<Running>(queue, prepare(), std::max(iterations, 1), batchBudgetMs);
  } catch (const ProgramBuildError& e) {
    times_.problem = std::string(e.what()) + "\n" + e.build().log;
  } catch (const std::exception& e) {
    times_.problem = e.what();
  }
}

PacedImageTrial::~PacedImageTrial() = default;

double PacedImageTrial::longestRunMs() const { return running_ ? running_->launches.longestLaunchMs() : 0.0; }

bool PacedImageTrial::poll() {
  if (!running_) return true;
  try {
    if (!running_->launches.poll()) return false;
    times_.runMs = running_->launches.timedMs();
    // The timed launches are the last ones: add their earlier commands' times.
    for (size_t i = 0; i < times_.runMs.size(); ++i)
      times_.runMs[i] += commandsMs(running_->earlier[kWarmups + static_cast<int>(i)]);
    // A run time that is not a positive finite number is a failure, not a rate.
    const double median = summarize(times_.runMs).median;
    if (!(median > 0.0) || !std::isfinite(median)) throw std::runtime_error("the runs have no valid device time");
    times_.gigabytesPerSecond = imageGigabytesPerSecond(bytesPerRun_, median);
  } catch (const std::exception& e) {
    times_.problem = e.what();
  }
  running_.reset();
  return true;
}

ImageRunTimes measureImageRuns(ComputeContext& compute, const std::string& kernelFile, const ImageOpPrepare& prepare,
                               size_t bytesPerRun, int iterations) {
  PacedImageTrial trial(compute, compute.queue(), kernelFile, prepare, bytesPerRun, iterations, kWholeMeasurementMs);
  try {
    while (!trial.poll()) compute.queue().finish();
  } catch (const std::exception& e) {  // the wait itself failed: the trial's launches are gone with the device
    ImageRunTimes failed = trial.times();
    failed.problem = e.what();
    return failed;
  }
  return trial.times();
}

}  // namespace ks
