#pragma once
// OpenCL devices for the tests: whether there is one, and a context on the one
// the kernel tests run on. Needs ks_compute.
#include <memory>
#include <string>

#include "compute/compute_context.h"

namespace ks::test {

// Empty when an OpenCL device is usable, else why not (for KS_REQUIRE / GTEST_SKIP).
std::string openClMissing();

// A context on a GPU when there is one (the GPU machine also lists PoCL), else
// on any available device, with the source tree's kernels; null when there is none.
std::unique_ptr<ComputeContext> makeTestCompute();

}  // namespace ks::test
