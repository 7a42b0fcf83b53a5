#include "compute/rotate_benchmark.h"

#include <memory>

namespace ks {
namespace {

// Builds the rotator, and what one run enqueues.
ImageOpPrepare prepareRotate(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                             const RotateParams& params, const RotateConfig& config) {
  return [&compute, in, out, layout, params, config] {
    auto rotator = std::make_shared<ImageRotator>(compute, config);
    rotator->prepare(layout.channels);
    return ImageOpLaunch([rotator, in, out, layout, params](Queue& queue, ImageOpEvents& events) {
      rotator->run(queue, in, layout, out, rotatedLayout(layout, params), params, &events);
    });
  };
}

size_t rotateBytes(const ImageLayout& layout, const RotateParams& params) {
  return imageOpBytes(ImageOp::Rotate, layout, rotatedLayout(layout, params));
}

RotateMeasurement rotateMeasurement(const ImageLayout& layout, const RotateParams& params, const RotateConfig& config) {
  auto r = unmeasured<RotateMeasurement>(layout, config);
  r.params = params;
  return r;
}

}  // namespace

RotateMeasurement measureRotate(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                const RotateParams& params, const RotateConfig& config, int iterations) {
  RotateMeasurement r = rotateMeasurement(layout, params, config);
  static_cast<ImageRunTimes&>(r) = measureImageRuns(compute, kRotateKernelFile,
                                                    prepareRotate(compute, in, out, layout, params, config),
                                                    rotateBytes(layout, params), iterations);
  return r;
}

RotateTrial::RotateTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout,
                         const RotateParams& params, const RotateConfig& config, int iterations, double batchBudgetMs)
    : ImageOpTrial(rotateMeasurement(layout, params, config), compute, queue, kRotateKernelFile,
                   prepareRotate(compute, in, out, layout, params, config), rotateBytes(layout, params), iterations,
                   batchBudgetMs) {}

}  // namespace ks
