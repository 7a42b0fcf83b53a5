#pragma once
// Exportable device memory from Vulkan, for the external-memory interop path:
// Vulkan allocates, GL and OpenCL each import an opaque fd of the same memory.
// libvulkan is opened at run time, so kernelscope starts where it is missing.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/error.h"

namespace ks {

class VulkanError : public Error {
 public:
  using Error::Error;
};
// Something the machine does not have (no libvulkan, no Vulkan device for the
// OpenCL device, an extension not listed), as opposed to a Vulkan call that
// failed: the external path is unavailable, not broken.
class VulkanMissing : public VulkanError {
 public:
  using VulkanError::VulkanError;
};

using DeviceUuid = std::array<uint8_t, 16>;

class VulkanExporter;

// One exportable allocation. Each exportFd() returns a new fd; the importer
// (GL or OpenCL) takes ownership of it.
class ExportedMemory {
 public:
  ~ExportedMemory();
  ExportedMemory(const ExportedMemory&) = delete;
  ExportedMemory& operator=(const ExportedMemory&) = delete;
  size_t bytes() const { return bytes_; }           // what was asked for
  size_t allocationBytes() const { return allocationBytes_; }  // what Vulkan allocated (>= bytes)
  int exportFd() const;

 private:
  friend class VulkanExporter;
  ExportedMemory() = default;
  std::shared_ptr<const VulkanExporter> owner_;
  void* memory_ = nullptr;  // VkDeviceMemory
  size_t bytes_ = 0, allocationBytes_ = 0;
};

// The Vulkan instance and devices live until the process exits, on purpose:
// on NVIDIA's driver (580, H200) vkDestroyInstance terminates the EGL display
// the app renders with (EGL_NOT_INITIALIZED afterwards, no current context).
class VulkanExporter : public std::enable_shared_from_this<VulkanExporter> {
 public:
  // Opens libvulkan (once), finds the physical device whose deviceUUID equals
  // `uuid` and a logical device with VK_KHR_external_memory_fd for it (once per
  // UUID). Throws VulkanError saying which step failed.
  static std::shared_ptr<VulkanExporter> create(const DeviceUuid& uuid);

  std::unique_ptr<ExportedMemory> allocate(size_t bytes) const;
  const std::string& deviceName() const;

  struct Device;  // one logical device, kept for the process lifetime

 private:
  explicit VulkanExporter(const Device& device) : device_(device) {}
  friend class ExportedMemory;
  const Device& device_;
};

}  // namespace ks
