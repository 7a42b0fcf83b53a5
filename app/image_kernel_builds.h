#pragma once
// The image lab's kernels built off the frame (issue 22: choosing a variant never
// built before compiled it in the frame that ran it, 230-480 ms on PoCL). Before
// the lab runs a pipeline, the programs it needs are started on worker threads
// (ComputeContext::prefetchKernelFile); until every one has finished, frames go on
// showing the previous result and the panel says which kernel is building. Then
// the run builds from the program cache without compiling; a build that failed
// comes back from there with its log, as before.
#include <string>
#include <vector>

#include "compute/compute_context.h"
#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"

namespace ks {

struct ImageKernelBuild {
  std::string file, options;
  std::string what;  // the configuration, for "building kernel ..."
};

// The programs a pipeline of these configurations builds for `channels` (the
// transpose's only when `transpose`); configurations the device refuses are left
// out (the run says why without building).
std::vector<ImageKernelBuild> imagePipelineBuilds(const RotateConfig& rotate, bool transpose,
                                                  const TransposeConfig& transposeConfig,
                                                  const HistogramConfig& histogram, int channels,
                                                  const DeviceDescriptor& device);

// Starts those not built yet; never waits. Empty once every one has finished (built
// or failed), else what still builds, in words ("rotate bilinear wg=32x8 ppi=4").
std::string startImageKernelBuilds(ComputeContext& compute, const std::vector<ImageKernelBuild>& builds);

}  // namespace ks
