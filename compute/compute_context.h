#pragma once
// Everything OpenCL for one chosen device: context, profiling queue, program
// cache and the kernels directory. Replacing this object switches devices.
#include <filesystem>
#include <memory>
#include <string>

#include "compute/cl_objects.h"
#include "compute/device_catalog.h"
#include "compute/program_cache.h"

namespace ks {

class ComputeContext {
 public:
  ComputeContext(const DeviceDescriptor& device, std::filesystem::path kernelsDir);

  const DeviceDescriptor& device() const { return device_; }
  cl_context context() const { return context_.get(); }
  Queue& queue() { return queue_; }
  ProgramCache& programs() { return *programs_; }
  const ProgramCache& programs() const { return *programs_; }
  const std::filesystem::path& kernelsDir() const { return kernelsDir_; }

  // Reads kernels/<file> and builds it (through the cache) for this device.
  std::shared_ptr<const ProgramBuild> buildKernelFile(const std::string& file, const std::string& options = {});

 private:
  DeviceDescriptor device_;
  std::filesystem::path kernelsDir_;
  ContextHandle context_;
  Queue queue_;
  std::unique_ptr<ProgramCache> programs_;
};

}  // namespace ks
