#include "app/kernel_builds.h"

namespace ks {

std::string startKernelBuilds(ComputeContext& compute, const std::vector<ProgramToBuild>& builds) {
  std::string building;
  for (const ProgramToBuild& b : builds) {
    if (compute.kernelFileReady(b.file, b.options)) continue;
    compute.prefetchKernelFile(b.file, b.options);
    if (compute.kernelFileReady(b.file, b.options)) continue;
    if (building.find(b.what) == std::string::npos) building += (building.empty() ? "" : ", ") + b.what;
  }
  return building;
}

std::string buildingKernelText(const std::string& what, const DeviceDescriptor& device) {
  return "building kernel " + what + " for " + device.displayName();
}

}  // namespace ks
