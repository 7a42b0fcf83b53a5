#include "compute/rotate_benchmark.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "compute/kernel_files.h"
#include "compute/paced_launches.h"
#include "compute/sample_stats.h"

namespace ks {
namespace {

// GB/s from the median run; a run time that is not a positive finite number is a failure, not a rate.
double rotateRate(const RotateMeasurement& m) {
  const double median = summarize(m.runMs).median;
  if (!(median > 0.0) || !std::isfinite(median)) throw std::runtime_error("the runs have no valid device time");
  return imageGigabytesPerSecond(imageOpBytes(ImageOp::Rotate, m.layout, rotatedLayout(m.layout, m.params)), median);
}

double commandsMs(const ImageOpEvents& events) {
  double ms = 0.0;
  for (const ImageOpCommand& c : events.commands) ms += c.event.elapsedMs();
  return ms;
}

}  // namespace

RotateMeasurement measureRotate(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                const RotateParams& params, const RotateConfig& config, int iterations) {
  RotateMeasurement r;
  r.config = config;
  r.layout = layout;
  r.params = params;
  try {
    r.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kRotateKernelFile));
    ImageRotator rotator(compute, config);
    rotator.prepare(layout.channels);
    const ImageLayout outLayout = rotatedLayout(layout, params);
    for (int i = 0; i < 3; ++i) rotator.run(compute.queue(), in, layout, out, outLayout, params);
    compute.queue().finish();
    for (int i = 0; i < std::max(iterations, 1); ++i) {
      ImageOpEvents events;
      rotator.run(compute.queue(), in, layout, out, outLayout, params, &events);
      compute.queue().finish();
      r.runMs.push_back(commandsMs(events));
    }
    r.gigabytesPerSecond = rotateRate(r);
  } catch (const ProgramBuildError& e) {
    r.problem = std::string(e.what()) + "\n" + e.build().log;
  } catch (const std::exception& e) {
    r.problem = e.what();
  }
  return r;
}

// PacedLaunches times one event a launch: the last command's. The earlier
// commands of a launch (the forward variant's clear and scatter; an image
// variant's upload in its first, untimed launch) are kept here and added.
struct RotateTrial::Running {
  Running(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout,
          const RotateParams& params, const RotateConfig& config, int iterations, double batchBudgetMs)
      : rotator(compute, config),
        launches(
            queue,
            [&queue, this, in, out, layout, params](Event* event) {
              ImageOpEvents events;
              rotator.run(queue, in, layout, out, rotatedLayout(layout, params), params, &events);
              *event = std::move(events.commands.back().event);
              events.commands.pop_back();
              earlier[launched++] = std::move(events);
            },
            kWarmups, iterations, batchBudgetMs) {
    rotator.prepare(layout.channels);
  }
  static constexpr int kWarmups = 3;
  ImageRotator rotator;
  std::map<int, ImageOpEvents> earlier;  // by launch number
  int launched = 0;
  PacedLaunches launches;
};

RotateTrial::RotateTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout,
                         const RotateParams& params, const RotateConfig& config, int iterations, double batchBudgetMs) {
  result_.config = config;
  result_.layout = layout;
  result_.params = params;
  try {
    result_.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kRotateKernelFile));
    running_ = std::make_unique<Running>(compute, queue, in, out, layout, params, config, std::max(iterations, 1),
                                         batchBudgetMs);
  } catch (const ProgramBuildError& e) {
    result_.problem = std::string(e.what()) + "\n" + e.build().log;
    running_.reset();
  } catch (const std::exception& e) {
    result_.problem = e.what();
    running_.reset();
  }
}

RotateTrial::~RotateTrial() = default;

double RotateTrial::longestRunMs() const { return running_ ? running_->launches.longestLaunchMs() : 0.0; }

bool RotateTrial::poll() {
  if (!running_) return true;
  try {
    if (!running_->launches.poll()) return false;
    result_.runMs = running_->launches.timedMs();
    // The timed launches are the last ones: add their earlier commands' times.
    for (size_t i = 0; i < result_.runMs.size(); ++i)
      result_.runMs[i] += commandsMs(running_->earlier[Running::kWarmups + static_cast<int>(i)]);
    result_.gigabytesPerSecond = rotateRate(result_);
  } catch (const std::exception& e) {
    result_.problem = e.what();
  }
  running_.reset();
  return true;
}

}  // namespace ks
