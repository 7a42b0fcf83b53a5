#include "compute/transpose_benchmark.h"

#include <memory>

namespace ks {
namespace {

// Builds the transposer, and what one run enqueues (one command: "transpose").
ImageOpPrepare prepareTranspose(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                const TransposeConfig& config) {
  return [&compute, in, out, layout, config] {
    auto transposer = std::make_shared<ImageTransposer>(compute, config);
    transposer->prepare(layout.channels);
    return ImageOpLaunch([transposer, in, out, layout](Queue& queue, ImageOpEvents& events) {
      transposer->run(queue, in, layout, out, transposedLayout(layout), &events);
    });
  };
}

size_t transposeBytes(const ImageLayout& layout) {
  return imageOpBytes(ImageOp::Transpose, layout, transposedLayout(layout));
}

}  // namespace

TransposeMeasurement measureTranspose(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                      const TransposeConfig& config, int iterations) {
  TransposeMeasurement r = unmeasured<TransposeMeasurement>(layout, config);
  static_cast<ImageRunTimes&>(r) = measureImageRuns(compute, kTransposeKernelFile,
                                                    prepareTranspose(compute, in, out, layout, config),
                                                    transposeBytes(layout), iterations);
  return r;
}

TransposeTrial::TransposeTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout,
                               const TransposeConfig& config, int iterations, double batchBudgetMs)
    : ImageOpTrial(unmeasured<TransposeMeasurement>(layout, config), compute, queue, kTransposeKernelFile,
                   prepareTranspose(compute, in, out, layout, config), transposeBytes(layout), iterations,
                   batchBudgetMs) {}

}  // namespace ks
