#pragma once
// What the OpenCL runtime offers: every platform's devices as plain data, so the
// selection logic and the UI can work on it without touching OpenCL.
#include <CL/cl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ks {

enum class DeviceKind { Gpu, Cpu, Accelerator, Other };
const char* deviceKindName(DeviceKind kind);

struct DeviceDescriptor {
  // Position as the runtime lists it: the numbers `--platform` / `--device` accept.
  int platformIndex = 0;
  int deviceIndex = 0;  // within its platform
  std::string platformName, platformVendor, platformVersion;
  std::vector<std::string> platformExtensions;
  std::string name, vendor, driverVersion, deviceVersion, openclCVersion;
  DeviceKind kind = DeviceKind::Other;
  bool available = true;          // CL_DEVICE_AVAILABLE && CL_DEVICE_COMPILER_AVAILABLE
  cl_uint computeUnits = 0;
  cl_uint clockMHz = 0;
  uint64_t globalMemBytes = 0, localMemBytes = 0, maxAllocBytes = 0;
  size_t maxWorkGroupSize = 0;
  std::vector<size_t> maxWorkItemSizes;
  std::vector<std::string> extensions;
  // CL_DEVICE_ATOMIC_FENCE_CAPABILITIES (OpenCL 3.0 devices; 0 where it cannot be asked).
  cl_device_atomic_capabilities atomicFenceCapabilities = 0;
  // Filled in by the GL share probe for the current GL context; false until probed.
  bool sharesCurrentGlContext = false;
  // Runtime handles: not used by selection logic (tests pass fakes with nulls).
  cl_platform_id platform = nullptr;
  cl_device_id id = nullptr;

  bool hasExtension(const std::string& ext) const;
  bool hasGlSharing() const { return hasExtension("cl_khr_gl_sharing"); }
  bool hasExternalMemoryFd() const { return hasExtension("cl_khr_external_memory_opaque_fd"); }
  std::string displayName() const;  // "NVIDIA H200 (NVIDIA CUDA)"
  int openclMajorVersion() const;   // from deviceVersion "OpenCL 3.0 ...": 3; 0 when unreadable
  bool isNvidia() const;
};

struct DeviceCatalog {
  std::vector<DeviceDescriptor> devices;
  int platformCount = 0;
  std::vector<std::string> warnings;  // platforms that could not be queried
};

// Asks the ICD loader for every platform and device. A platform that fails to
// answer is skipped with a warning rather than hiding the others.
DeviceCatalog enumerateDevices();

std::vector<std::string> splitExtensions(const std::string& list);

}  // namespace ks
