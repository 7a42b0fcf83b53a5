#pragma once
// OpenCL devices for the tests: whether there is one, and a context on the one
// the kernel tests run on. Needs ks_compute.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "compute/compute_context.h"
#include "compute/device_catalog.h"

namespace ks::test {

// Empty when an OpenCL device is usable, else why not (for KS_NEED("opencl", ...)).
std::string openClMissing();

// The kernels the device tests build: the source tree's, or $KS_KERNELS_DIR when
// set (scripts/mutation-check.sh points it at a copy with a deliberate bug).
inline std::filesystem::path testKernelsDir() {
  const char* dir = std::getenv("KS_KERNELS_DIR");
  return dir && *dir ? std::filesystem::path(dir) : std::filesystem::path(KERNELSCOPE_SOURCE_KERNELS_DIR);
}

// A device as the catalog would list it, without runtime handles (platform and id
// stay null): for tests of what is chosen from a list of devices.
inline DeviceDescriptor fakeDevice(int platformIndex, int deviceIndex, const std::string& platformName,
                                   const std::string& name, DeviceKind kind = DeviceKind::Other) {
  DeviceDescriptor d;
  d.platformIndex = platformIndex;
  d.deviceIndex = deviceIndex;
  d.platformName = platformName;
  d.name = name;
  d.kind = kind;
  return d;
}

// A context on a GPU when there is one (the GPU machine also lists PoCL), else
// on any available device, with testKernelsDir(); null when there is none.
std::unique_ptr<ComputeContext> makeTestCompute();

// makeTestCompute's context, made once for the whole test executable (each
// context builds its kernels again: slow on PoCL); null when there is no device.
ComputeContext* sharedTestCompute();

// A fixture for tests that run kernels on sharedTestCompute(): without a usable
// OpenCL device the test skips and says why (fails where KS_REQUIRE lists opencl).
class SharedComputeTest : public ::testing::Test {
 protected:
  void SetUp() override;
  ComputeContext* compute_ = nullptr;
};

}  // namespace ks::test
