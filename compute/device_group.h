#pragma once
// Several OpenCL devices of one platform working on one job (the N-body step
// split over devices): one ComputeContext per device over a single OpenCL
// context, so host memory pinned for one is pinned for all of them.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/device_list.h"

namespace ks {

class DeviceGroup {
 public:
  // Throws std::runtime_error (deviceGroupProblem) or ClError.
  DeviceGroup(const std::vector<DeviceDescriptor>& devices, const std::filesystem::path& kernelsDir);
  size_t size() const { return members_.size(); }
  ComputeContext& operator[](size_t i) { return *members_[i]; }
  const ComputeContext& operator[](size_t i) const { return *members_[i]; }
  cl_context context() const { return context_.get(); }
  void setExtraBuildOptions(const std::string& options);

 private:
  ContextHandle context_;
  std::vector<std::unique_ptr<ComputeContext>> members_;
};

}  // namespace ks
