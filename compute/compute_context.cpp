#include "compute/compute_context.h"

#include <cstdio>

#include "compute/kernel_files.h"

namespace ks {

static void CL_CALLBACK reportContextError(const char* message, const void*, size_t, void*) {
  // Asynchronous driver errors: visible in the terminal, never fatal.
  std::fprintf(stderr, "kernelscope: OpenCL context: %s\n", message);
}

ComputeContext::ComputeContext(const DeviceDescriptor& device, std::filesystem::path kernelsDir)
    : device_(device), kernelsDir_(std::move(kernelsDir)) {
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device.platform),
                                         0};
  cl_int status = CL_SUCCESS;
  cl_device_id id = device.id;
  context_ = ContextHandle(clCreateContext(props, 1, &id, reportContextError, nullptr, &status));
  if (status != CL_SUCCESS) throw ClError(status, "clCreateContext", device.displayName());
  queue_ = Queue(context_.get(), device.id);
  programs_ = std::make_unique<ProgramCache>(context_.get(), device.id);
}

std::shared_ptr<const ProgramBuild> ComputeContext::buildKernelFile(const std::string& file,
                                                                    const std::string& options) {
  return programs_->get(file, readKernelSource(kernelsDir_, file), options);
}

}  // namespace ks
