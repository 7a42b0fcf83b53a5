#pragma once
// A binary semaphore GL and OpenCL share on the GPU (Vulkan-exported, imported by
// both: GL_EXT_semaphore_fd, cl_khr_external_semaphore_opaque_fd). The external-
// memory path hands each buffer over with two of them, as those extensions ask of
// memory that two APIs share: one the OpenCL release signals and GL waits on
// before it reads, one GL signals after its reads and OpenCL waits on before the
// next acquire. Internal to compute/interop.
#include <glad/gl.h>
#include <CL/cl_ext.h>

#include <memory>
#include <string>

#include "compute/cl_objects.h"

namespace ks {

class ComputeContext;
class ExportedSemaphore;
class VulkanExporter;

struct SemaphoreFunctions {
  clCreateSemaphoreWithPropertiesKHR_fn create = nullptr;
  clEnqueueWaitSemaphoresKHR_fn wait = nullptr;
  clEnqueueSignalSemaphoresKHR_fn signal = nullptr;
  clReleaseSemaphoreKHR_fn release = nullptr;
};

// The functions of the platform, or empty with `why` set when something is missing
// (the device's extension, GL's, Vulkan's export, the platform's entry points).
SemaphoreFunctions semaphoreSupport(const ComputeContext& compute, const VulkanExporter& exporter, std::string* why);

class SharedSemaphore {
 public:
  // Throws InteropError / ClError / VulkanError naming the step that failed.
  SharedSemaphore(ComputeContext& compute, const VulkanExporter& exporter, const SemaphoreFunctions& fns);
  ~SharedSemaphore();
  SharedSemaphore(const SharedSemaphore&) = delete;
  SharedSemaphore& operator=(const SharedSemaphore&) = delete;
  // GL commands issued after this wait until the semaphore is signalled; `buffer`
  // is the GL buffer whose contents the signaller handed over.
  void glWait(GLuint buffer);
  // Signalled once the GL commands issued before it (those reading `buffer`) are done.
  void glSignal(GLuint buffer);
  void clWait(Queue& queue);
  // `done`: the signal command's event (the last command of a hand-over).
  void clSignal(Queue& queue, Event& done);

 private:
  std::unique_ptr<ExportedSemaphore> exported_;
  SemaphoreFunctions fns_;
  GLuint gl_ = 0;
  cl_semaphore_khr cl_ = nullptr;
  int clFd_ = -1;  // the fd OpenCL imported, when the runtime left it open (ours to close)
};

}  // namespace ks
