#pragma once
// One rotation configuration measured on a device, as transpose_benchmark.h does
// for transposes: build, 3 untimed runs, then `iterations` timed runs, each timed
// as the sum of its commands (the forward variant runs clear, scatter, resolve).
// Used by `--bench rotate` and the UI's rotate sweep.
#include <memory>
#include <string>
#include <vector>

#include "compute/image_layout.h"
#include "compute/image_rotate.h"
#include "compute/paced_image_trial.h"

namespace ks {

struct RotateMeasurement : ImageOpMeasurement<RotateConfig> {
  RotateParams params;
};

// `in` holds `layout`, `out` has room for rotatedLayout(layout, params). Never throws.
RotateMeasurement measureRotate(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                const RotateParams& params, const RotateConfig& config, int iterations);

// measureRotate for callers that must never wait (the UI's sweep): the launches
// are enqueued a few at a time (PacedLaunches) and polled. The program must
// already be built; `in` and `out` must outlive the trial's launches. Never
// throws: failures land in the result's `problem`. The launches go on `queue`,
// the first one in the first poll() (as TransposeTrial's).
class RotateTrial : public ImageOpTrial<RotateMeasurement> {
 public:
  RotateTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout, const RotateParams& params,
              const RotateConfig& config, int iterations, double batchBudgetMs);
};

}  // namespace ks
