#include "compute/device_group.h"

#include <cstdio>
#include <stdexcept>

#include "compute/cl_error.h"

namespace ks {

static void CL_CALLBACK reportGroupContextError(const char* message, const void*, size_t, void*) {
  // Asynchronous driver errors: visible in the terminal, never fatal.
  std::fprintf(stderr, "kernelscope: OpenCL context (several devices): %s\n", message);
}

DeviceGroup::DeviceGroup(const std::vector<DeviceDescriptor>& devices, const std::filesystem::path& kernelsDir) {
  if (std::string problem = deviceGroupProblem(devices); !problem.empty()) throw std::runtime_error(problem);
  std::vector<cl_device_id> ids;
  for (const DeviceDescriptor& d : devices) ids.push_back(d.id);
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(devices.front().platform), 0};
  cl_int status = CL_SUCCESS;
  context_ = ContextHandle(clCreateContext(props, static_cast<cl_uint>(ids.size()), ids.data(),
                                           reportGroupContextError, nullptr, &status));
  if (status != CL_SUCCESS) throw ClError(status, "clCreateContext", "several devices of " + devices.front().platformName);
  for (const DeviceDescriptor& d : devices)
    members_.push_back(std::make_unique<ComputeContext>(d, kernelsDir, context_));
}

void DeviceGroup::setExtraBuildOptions(const std::string& options) {
  for (auto& m : members_) m->setExtraBuildOptions(options);
}

}  // namespace ks
