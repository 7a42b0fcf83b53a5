#include "compute/device_catalog.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "compute/cl_objects.h"

namespace ks {

const char* deviceKindName(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::Gpu: return "GPU";
    case DeviceKind::Cpu: return "CPU";
    case DeviceKind::Accelerator: return "Accelerator";
    case DeviceKind::Other: break;
  }
  return "Other";
}

bool DeviceDescriptor::hasExtension(const std::string& ext) const {
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end() ||
         std::find(platformExtensions.begin(), platformExtensions.end(), ext) != platformExtensions.end();
}

std::string DeviceDescriptor::displayName() const { return name + " (" + platformName + ")"; }

int DeviceDescriptor::openclMajorVersion() const {
  int major = 0, minor = 0;
  return std::sscanf(deviceVersion.c_str(), "OpenCL %d.%d", &major, &minor) == 2 ? major : 0;
}

bool DeviceDescriptor::isNvidia() const {
  return vendor.find("NVIDIA") != std::string::npos || platformName.find("NVIDIA") != std::string::npos;
}

std::vector<std::string> splitExtensions(const std::string& list) {
  std::vector<std::string> out;
  std::istringstream in(list);
  for (std::string ext; in >> ext;) out.push_back(ext);
  std::sort(out.begin(), out.end());
  return out;
}

static DeviceKind kindOf(cl_device_type type) {
  if (type & CL_DEVICE_TYPE_GPU) return DeviceKind::Gpu;
  if (type & CL_DEVICE_TYPE_CPU) return DeviceKind::Cpu;
  if (type & CL_DEVICE_TYPE_ACCELERATOR) return DeviceKind::Accelerator;
  return DeviceKind::Other;
}

static DeviceDescriptor describeDevice(cl_device_id id) {
  DeviceDescriptor d;
  d.id = id;
  d.name = deviceInfoString(id, CL_DEVICE_NAME);
  d.vendor = deviceInfoString(id, CL_DEVICE_VENDOR);
  d.driverVersion = deviceInfoString(id, CL_DRIVER_VERSION);
  d.deviceVersion = deviceInfoString(id, CL_DEVICE_VERSION);
  d.openclCVersion = deviceInfoString(id, CL_DEVICE_OPENCL_C_VERSION);
  d.kind = kindOf(deviceInfo<cl_device_type>(id, CL_DEVICE_TYPE));
  d.available = deviceInfo<cl_bool>(id, CL_DEVICE_AVAILABLE) && deviceInfo<cl_bool>(id, CL_DEVICE_COMPILER_AVAILABLE);
  d.computeUnits = deviceInfo<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
  d.clockMHz = deviceInfo<cl_uint>(id, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  d.globalMemBytes = deviceInfo<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
  d.localMemBytes = deviceInfo<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE);
  d.maxAllocBytes = deviceInfo<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  d.maxWorkGroupSize = deviceInfo<size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  d.maxWorkItemSizes = deviceInfoSizes(id, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  d.extensions = splitExtensions(deviceInfoString(id, CL_DEVICE_EXTENSIONS));
  // An OpenCL 3.0 query: older devices answer CL_INVALID_VALUE, which here means
  // "not reported" (left 0), not an error.
  cl_device_atomic_capabilities fences = 0;
  if (clGetDeviceInfo(id, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof fences, &fences, nullptr) == CL_SUCCESS)
    d.atomicFenceCapabilities = fences;
  return d;
}

DeviceCatalog enumerateDevices() {
  DeviceCatalog catalog;
  const auto platforms = platformIds();
  catalog.platformCount = static_cast<int>(platforms.size());
  for (size_t p = 0; p < platforms.size(); ++p) {
    try {
      const std::string platformName = platformInfoString(platforms[p], CL_PLATFORM_NAME);
      const std::string platformVendor = platformInfoString(platforms[p], CL_PLATFORM_VENDOR);
      const std::string platformVersion = platformInfoString(platforms[p], CL_PLATFORM_VERSION);
      const auto platformExtensions = splitExtensions(platformInfoString(platforms[p], CL_PLATFORM_EXTENSIONS));
      const auto ids = deviceIds(platforms[p]);
      for (size_t i = 0; i < ids.size(); ++i) {
        DeviceDescriptor d = describeDevice(ids[i]);
        d.platform = platforms[p];
        d.platformIndex = static_cast<int>(p);
        d.deviceIndex = static_cast<int>(i);
        d.platformName = platformName;
        d.platformVendor = platformVendor;
        d.platformVersion = platformVersion;
        d.platformExtensions = platformExtensions;
        catalog.devices.push_back(std::move(d));
      }
    } catch (const ClError& e) {
      catalog.warnings.push_back("platform " + std::to_string(p) + " skipped: " + e.what());
    }
  }
  return catalog;
}

}  // namespace ks
