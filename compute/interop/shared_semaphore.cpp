#include "compute/interop/shared_semaphore.h"

#include <fcntl.h>
#include <unistd.h>

#include "compute/compute_context.h"
#include "compute/interop/interop.h"
#include "compute/interop/vulkan_exporter.h"
#include "render/gl_check.h"

namespace ks {
namespace {

// CL_SEMAPHORE_DEVICE_HANDLE_LIST_KHR of the final cl_khr_external_semaphore. Debian
// 12's OpenCL headers (2023.02) predate it; their 0x2051 is refused with
// CL_INVALID_PROPERTY by NVIDIA's driver 580 (measured on an H200, 2026-11-26).
constexpr cl_semaphore_properties_khr kSemaphoreDeviceHandleList = 0x2053;
constexpr cl_semaphore_properties_khr kSemaphoreDeviceHandleListEnd = 0;

template <typename Fn>
Fn platformFn(cl_platform_id platform, const char* name) {
  return reinterpret_cast<Fn>(clGetExtensionFunctionAddressForPlatform(platform, name));
}

}  // namespace

SemaphoreFunctions semaphoreSupport(const ComputeContext& compute, const VulkanExporter& exporter, std::string* why) {
  const DeviceDescriptor& d = compute.device();
  auto fail = [why](const std::string& reason) {
    if (why) *why = reason;
    return SemaphoreFunctions{};
  };
  if (!d.hasExtension("cl_khr_external_semaphore_opaque_fd"))
    return fail("the device does not list cl_khr_external_semaphore_opaque_fd");
  if (!GLAD_GL_EXT_semaphore || !GLAD_GL_EXT_semaphore_fd) return fail("the GL context lacks GL_EXT_semaphore_fd");
  if (!exporter.exportsSemaphores()) return fail("the Vulkan device does not export semaphores");
  SemaphoreFunctions f;
  f.create = platformFn<clCreateSemaphoreWithPropertiesKHR_fn>(d.platform, "clCreateSemaphoreWithPropertiesKHR");
  f.wait = platformFn<clEnqueueWaitSemaphoresKHR_fn>(d.platform, "clEnqueueWaitSemaphoresKHR");
  f.signal = platformFn<clEnqueueSignalSemaphoresKHR_fn>(d.platform, "clEnqueueSignalSemaphoresKHR");
  f.release = platformFn<clReleaseSemaphoreKHR_fn>(d.platform, "clReleaseSemaphoreKHR");
  if (!f.create || !f.wait || !f.signal || !f.release)
    return fail("the platform does not export the cl_khr_semaphore functions");
  return f;
}

SharedSemaphore::SharedSemaphore(ComputeContext& compute, const VulkanExporter& exporter,
                                 const SemaphoreFunctions& fns)
    : exported_(exporter.createSemaphore()), fns_(fns) {
  glCheck("a GL call before the semaphore import (its error was still pending)");
  glGenSemaphoresEXT(1, &gl_);
  glCheck("glGenSemaphoresEXT");
  const int glFd = exported_->exportFd();
  glImportSemaphoreFdEXT(gl_, GL_HANDLE_TYPE_OPAQUE_FD_EXT, glFd);
  try {
    glCheck("glImportSemaphoreFdEXT");  // only a successful import takes the fd
  } catch (...) {
    close(glFd);
    glDeleteSemaphoresEXT(1, &gl_);
    throw;
  }
  const int clFd = exported_->exportFd();
  const cl_semaphore_properties_khr props[] = {
      CL_SEMAPHORE_TYPE_KHR,
      CL_SEMAPHORE_TYPE_BINARY_KHR,
      CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
      static_cast<cl_semaphore_properties_khr>(clFd),
      kSemaphoreDeviceHandleList,
      reinterpret_cast<cl_semaphore_properties_khr>(compute.device().id),
      kSemaphoreDeviceHandleListEnd,
      0};
  cl_int status = CL_SUCCESS;
  cl_ = fns_.create(compute.context(), props, &status);
  if (status != CL_SUCCESS || !cl_) {
    close(clFd);
    glDeleteSemaphoresEXT(1, &gl_);
    throw ClError(status, "clCreateSemaphoreWithPropertiesKHR (semaphore import)");
  }
  if (fcntl(clFd, F_GETFD) != -1) clFd_ = clFd;  // as for memory: the extension does not say who closes it
}

SharedSemaphore::~SharedSemaphore() {
  if (cl_) fns_.release(cl_);
  if (clFd_ >= 0) close(clFd_);
  if (gl_) glDeleteSemaphoresEXT(1, &gl_);
}

void SharedSemaphore::glWait(GLuint buffer) {
  glWaitSemaphoreEXT(gl_, 1, &buffer, 0, nullptr, nullptr);
  glCheck("glWaitSemaphoreEXT");
}

void SharedSemaphore::glSignal(GLuint buffer) {
  glSignalSemaphoreEXT(gl_, 1, &buffer, 0, nullptr, nullptr);
  glFlush();  // the signal must reach the GPU: OpenCL waits for it
  glCheck("glSignalSemaphoreEXT");
}

void SharedSemaphore::clWait(Queue& queue) {
  clCheck(fns_.wait(queue.get(), 1, &cl_, nullptr, 0, nullptr, nullptr), "clEnqueueWaitSemaphoresKHR");
}

void SharedSemaphore::clSignal(Queue& queue, Event& done) {
  clCheck(fns_.signal(queue.get(), 1, &cl_, nullptr, 0, nullptr, done.out()), "clEnqueueSignalSemaphoresKHR");
}

}  // namespace ks
