#pragma once
// One transpose configuration measured on a device: build, 3 untimed runs, then
// `iterations` timed runs (one profiling event each). Used by `--bench transpose`
// and the UI's sweep panel.
#include <memory>
#include <string>
#include <vector>

#include "compute/image_layout.h"
#include "compute/image_transpose.h"
#include "compute/paced_image_trial.h"

namespace ks {

using TransposeMeasurement = ImageOpMeasurement<TransposeConfig>;

// `in` holds `layout`, `out` has room for its transpose. Never throws.
TransposeMeasurement measureTranspose(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                      const TransposeConfig& config, int iterations);

// measureTranspose for callers that must never wait (the UI's sweep): the same
// 3 warm-up and timed runs, enqueued a few at a time (PacedLaunches, batches of
// about `batchBudgetMs`) and polled. The program must already be built. `in`
// and `out` must outlive the trial's launches (OpenCL keeps buffers that queued
// commands use). Never throws: failures land in the result's `problem`. The
// launches go on `queue`, the first one in the first poll() (as NBodyTrial's).
class TransposeTrial : public ImageOpTrial<TransposeMeasurement> {
 public:
  TransposeTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout,
                 const TransposeConfig& config, int iterations, double batchBudgetMs);
};

}  // namespace ks
