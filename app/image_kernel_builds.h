#pragma once
// The programs the image lab's next run needs, built off the frame first
// (app/kernel_builds.h: choosing a variant never built before compiled it in the
// frame that ran it, 230-480 ms on PoCL). Until every one has finished, frames go
// on showing the previous result and the panel says which kernel is building.
#include <vector>

#include "app/kernel_builds.h"
#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"

namespace ks {

// The programs a pipeline builds for `channels`: those of each configuration given
// (null: its runner is built already, or the transpose is off); configurations the
// device refuses are left out (the run says why without building).
std::vector<ProgramToBuild> imagePipelineBuilds(const RotateConfig* rotate, const TransposeConfig* transpose,
                                                const HistogramConfig* histogram, int channels,
                                                const DeviceDescriptor& device);

}  // namespace ks
