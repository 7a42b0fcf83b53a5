#include "test_devices.h"

#include <exception>

#include "compute/device_catalog.h"
#include "compute/device_selection.h"
#include "test_require.h"

namespace ks::test {

std::string openClMissing() {
  try {
    const DeviceCatalog catalog = enumerateDevices();
    if (catalog.platformCount == 0) return "no OpenCL platform (the ICD loader found no driver)";
    const DeviceChoice choice = selectDevice(catalog.devices, {});
    if (!choice.index) return "no usable OpenCL device: " + choice.reason;
    return {};
  } catch (const std::exception& e) {
    return std::string("cannot list OpenCL platforms: ") + e.what();
  }
}

std::unique_ptr<ComputeContext> makeTestCompute() {
  DeviceCatalog catalog = enumerateDevices();
  for (const auto& d : catalog.devices)
    if (d.available && d.kind == DeviceKind::Gpu)
      return std::make_unique<ComputeContext>(d, testKernelsDir());
  for (const auto& d : catalog.devices)
    if (d.available) return std::make_unique<ComputeContext>(d, testKernelsDir());
  return nullptr;
}

ComputeContext* sharedTestCompute() {
  static std::unique_ptr<ComputeContext> compute = makeTestCompute();
  return compute.get();
}

void SharedComputeTest::SetUp() {
  KS_NEED("opencl", openClMissing());
  compute_ = sharedTestCompute();
  ASSERT_NE(compute_, nullptr) << "an OpenCL device is listed, but none is available";
}

}  // namespace ks::test
