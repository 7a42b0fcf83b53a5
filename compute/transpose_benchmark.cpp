#include "compute/transpose_benchmark.h"

#include <algorithm>

#include "compute/kernel_files.h"
#include "compute/paced_launches.h"
#include "compute/sample_stats.h"

namespace ks {

TransposeMeasurement measureTranspose(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                      const TransposeConfig& config, int iterations) {
  TransposeMeasurement r;
  r.config = config;
  r.layout = layout;
  try {
    r.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kTransposeKernelFile));
    ImageTransposer t(compute, config);
    t.prepare(layout.channels);
    const ImageLayout outLayout = transposedLayout(layout);
    for (int i = 0; i < 3; ++i) t.run(compute.queue(), in, layout, out, outLayout);
    compute.queue().finish();
    for (int i = 0; i < std::max(iterations, 1); ++i) {
      ImageOpEvents events;
      t.run(compute.queue(), in, layout, out, outLayout, &events);
      r.runMs.push_back(events.elapsedMs());
    }
    const double median = summarize(r.runMs).median;
    r.gigabytesPerSecond = imageGigabytesPerSecond(imageOpBytes(ImageOp::Transpose, layout, outLayout), median);
  } catch (const ProgramBuildError& e) {
    r.problem = std::string(e.what()) + "\n" + e.build().log;
  } catch (const std::exception& e) {
    r.problem = e.what();
  }
  return r;
}

struct TransposeTrial::Running {
  Running(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout, const TransposeConfig& config,
          int iterations, double batchBudgetMs)
      : transposer(compute, config),
        launches(
            queue,
            [&queue, this, in, out, layout](Event* event) {
              ImageOpEvents events;
              transposer.run(queue, in, layout, out, transposedLayout(layout), &events);
              *event = std::move(events.commands.front().event);  // one command: "transpose"
            },
            3, iterations, batchBudgetMs) {
    transposer.prepare(layout.channels);
  }
  ImageTransposer transposer;
  PacedLaunches launches;
};

TransposeTrial::TransposeTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout,
                               const TransposeConfig& config, int iterations, double batchBudgetMs) {
  result_.config = config;
  result_.layout = layout;
  try {
    result_.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kTransposeKernelFile));
    running_ = std::make_unique<Running>(compute, queue, in, out, layout, config, std::max(iterations, 1),
                                         batchBudgetMs);
  } catch (const ProgramBuildError& e) {
    result_.problem = std::string(e.what()) + "\n" + e.build().log;
    running_.reset();
  } catch (const std::exception& e) {
    result_.problem = e.what();
    running_.reset();
  }
}

TransposeTrial::~TransposeTrial() = default;

double TransposeTrial::longestRunMs() const { return running_ ? running_->launches.longestLaunchMs() : 0.0; }

bool TransposeTrial::poll() {
  if (!running_) return true;
  try {
    if (!running_->launches.poll()) return false;
    result_.runMs = running_->launches.timedMs();
    const double median = summarize(result_.runMs).median;
    result_.gigabytesPerSecond =
        imageGigabytesPerSecond(imageOpBytes(ImageOp::Transpose, result_.layout, transposedLayout(result_.layout)),
                                median);
  } catch (const std::exception& e) {
    result_.problem = e.what();
  }
  running_.reset();
  return true;
}

}  // namespace ks
