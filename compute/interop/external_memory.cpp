// External-memory path: Vulkan allocates exportable device memory; GL imports
// one fd of it (GL_EXT_memory_object_fd) as buffer storage, OpenCL imports
// another (cl_khr_external_memory_opaque_fd) as a cl_mem. Both then address the
// same device memory: no copy at all. Ordering, without glFinish/clFinish: a GL
// fence after the draws that read it before the CL acquire, the release's event
// complete before GL draws it (SharedBuffer).
#include <CL/cl_ext.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>

#include "compute/compute_context.h"
#include "compute/interop/backends.h"
#include "compute/interop/vulkan_exporter.h"
#include "render/gl_check.h"

namespace ks {
namespace {

struct ExternalMemoryFunctions {
  clEnqueueAcquireExternalMemObjectsKHR_fn acquire = nullptr;
  clEnqueueReleaseExternalMemObjectsKHR_fn release = nullptr;
};

ExternalMemoryFunctions loadFunctions(cl_platform_id platform) {
  ExternalMemoryFunctions f;
  f.acquire = reinterpret_cast<clEnqueueAcquireExternalMemObjectsKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueAcquireExternalMemObjectsKHR"));
  f.release = reinterpret_cast<clEnqueueReleaseExternalMemObjectsKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueReleaseExternalMemObjectsKHR"));
  return f;
}

DeviceUuid deviceUuid(cl_device_id device) {
  DeviceUuid uuid{};
  clCheck(clGetDeviceInfo(device, CL_DEVICE_UUID_KHR, uuid.size(), uuid.data(), nullptr),
          "clGetDeviceInfo(CL_DEVICE_UUID_KHR)");
  return uuid;
}

class ExternalSharedBuffer final : public SharedBuffer {
 public:
  ExternalSharedBuffer(ComputeContext& compute, const VulkanExporter& exporter, ExternalMemoryFunctions fns,
                       size_t bytes)
      : fns_(fns) {
    bytes_ = bytes;
    memory_ = exporter.allocate(bytes);
    try {
      importIntoGl();
      importIntoCl(compute);
    } catch (...) {
      release();
      throw;
    }
  }
  ~ExternalSharedBuffer() override {
    waitUntilIdle();  // the Vulkan memory must outlive the commands that write it
    release();
  }

  void enqueueAcquire(Queue& queue) override {
    cl_mem mem = clMem_.get();
    clCheck(fns_.acquire(queue.get(), 1, &mem, 0, nullptr, nullptr), "clEnqueueAcquireExternalMemObjectsKHR");
  }
  void enqueueRelease(Queue& queue, Event& done) override {
    cl_mem mem = clMem_.get();
    clCheck(fns_.release(queue.get(), 1, &mem, 0, nullptr, done.out()), "clEnqueueReleaseExternalMemObjectsKHR");
  }

 private:
  // Each GL call is checked on its own, so the error names the call that failed.
  // Objects made before a failure are in members: release() (the constructor's
  // catch) deletes them.
  void importIntoGl() {
    // An error that some earlier, unchecked call left pending would otherwise be
    // blamed on the import's first call: it is reported as what it is.
    glCheck("a GL call before the external-memory import (its error was still pending)");
    glCreateMemoryObjectsEXT(1, &memoryObject_);
    glCheck("glCreateMemoryObjectsEXT");
    if (!memoryObject_) throw InteropError("glCreateMemoryObjectsEXT returned no memory object");
    // Exported only now, so that no failure above can leave it open.
    const int fd = memory_->exportFd();
    glImportMemoryFdEXT(memoryObject_, memory_->allocationBytes(), GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd);
    // Only a successful import hands the fd to GL (GL_EXT_memory_object_fd); on
    // failure it is still ours.
    try {
      glCheck("glImportMemoryFdEXT (the Vulkan memory)");
    } catch (...) {
      close(fd);
      throw;
    }
    glGenBuffers(1, &glBuffer_);
    glCheck("glGenBuffers (external memory)");
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
    glCheck("glBindBuffer (external memory)");
    glBufferStorageMemEXT(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes_), memoryObject_, 0);
    try {
      glCheck("glBufferStorageMemEXT");
    } catch (...) {
      glBindBuffer(GL_ARRAY_BUFFER, 0);
      throw;
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glCheck("glBindBuffer (external memory, unbind)");
  }

  void importIntoCl(ComputeContext& compute) {
    const int fd = memory_->exportFd();
    cl_device_id device = compute.device().id;
    const cl_mem_properties props[] = {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR,
                                       static_cast<cl_mem_properties>(fd),
                                       CL_DEVICE_HANDLE_LIST_KHR,
                                       reinterpret_cast<cl_mem_properties>(device),
                                       CL_DEVICE_HANDLE_LIST_END_KHR,
                                       0};
    cl_int status = CL_SUCCESS;
    clMem_ = MemHandle(clCreateBufferWithProperties(compute.context(), props, CL_MEM_READ_WRITE, bytes_, nullptr, &status));
    if (status != CL_SUCCESS) {
      close(fd);
      throw ClError(status, "clCreateBufferWithProperties (external memory import)");
    }
    // The extension does not say whether the import takes the fd. If it is still
    // open the runtime did not keep it for itself: ours to close after the cl_mem.
    if (fcntl(fd, F_GETFD) != -1) clFd_ = fd;
  }

  void release() {
    clMem_ = MemHandle();
    if (clFd_ >= 0) close(std::exchange(clFd_, -1));
    if (glBuffer_) glDeleteBuffers(1, &glBuffer_);
    glBuffer_ = 0;
    if (memoryObject_) glDeleteMemoryObjectsEXT(1, &memoryObject_);
    memoryObject_ = 0;
    memory_.reset();
  }

  ExternalMemoryFunctions fns_;
  std::unique_ptr<ExportedMemory> memory_;
  GLuint memoryObject_ = 0;
  int clFd_ = -1;
};

class ExternalBackend final : public InteropBackend {
 public:
  ExternalBackend(ComputeContext& compute, std::shared_ptr<VulkanExporter> exporter, ExternalMemoryFunctions fns)
      : compute_(compute), exporter_(std::move(exporter)), fns_(fns) {}
  InteropPath path() const override { return InteropPath::External; }
  std::unique_ptr<SharedBuffer> createBuffer(size_t bytes) override {
    return std::make_unique<ExternalSharedBuffer>(compute_, *exporter_, fns_, bytes);
  }

 private:
  ComputeContext& compute_;
  std::shared_ptr<VulkanExporter> exporter_;
  ExternalMemoryFunctions fns_;
};

// Everything but Vulkan: cheap checks, in the order a user would want them named.
std::string missingPrerequisite(const ComputeContext& compute) {
  const DeviceDescriptor& d = compute.device();
  if (!d.hasExtension("cl_khr_external_memory_opaque_fd"))
    return "the device does not list cl_khr_external_memory_opaque_fd";
  if (!d.hasExtension("cl_khr_device_uuid")) return "the device does not list cl_khr_device_uuid";
  const auto fns = loadFunctions(d.platform);
  if (!fns.acquire || !fns.release) return "the platform does not export clEnqueueAcquire/ReleaseExternalMemObjectsKHR";
  if (!GLAD_GL_EXT_memory_object || !GLAD_GL_EXT_memory_object_fd)
    return "the GL context lacks GL_EXT_memory_object_fd";
  return {};
}

}  // namespace

InteropPathStatus probeExternalPath(ComputeContext& compute) {
  if (std::string missing = missingPrerequisite(compute); !missing.empty())
    return {InteropPath::External, false, missing};
  try {
    auto exporter = VulkanExporter::create(deviceUuid(compute.device().id));
    return {InteropPath::External, true, "Vulkan device " + exporter->deviceName()};
  } catch (const VulkanMissing& e) {
    return {InteropPath::External, false, e.what()};  // not on this machine: unavailable
  } catch (const std::exception& e) {
    // Everything needed is there and a call failed: broken, with the real error.
    return {InteropPath::External, false, std::string("creating the Vulkan exporter failed: ") + e.what(), true};
  }
}

std::unique_ptr<InteropBackend> createExternalBackend(ComputeContext& compute) {
  if (std::string missing = missingPrerequisite(compute); !missing.empty())
    throw InteropError("external memory unavailable: " + missing);
  try {
    auto exporter = VulkanExporter::create(deviceUuid(compute.device().id));
    return std::make_unique<ExternalBackend>(compute, std::move(exporter), loadFunctions(compute.device().platform));
  } catch (const VulkanError& e) {
    throw InteropError(std::string("external memory unavailable: ") + e.what());
  }
}

}  // namespace ks
