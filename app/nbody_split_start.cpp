#include "app/nbody_split_start.h"

#include <chrono>

#include "compute/nbody_invariants.h"
#include "compute/nbody_variants.h"

namespace ks {
namespace {

// On the worker: the group's context, and every device's builds started together
// (ProgramCache::prefetch compiles each on a thread of its own), then waited for.
std::unique_ptr<DeviceGroup> prepareGroup(const std::vector<DeviceDescriptor>& devices,
                                          const std::filesystem::path& kernelsDir, const NBodyConfig& config) {
  auto group = std::make_unique<DeviceGroup>(devices, kernelsDir);
  const std::string stepOptions = nbodyBuildOptions(config);
  // The energy meter runs on the first device only (compute/nbody_split_invariants.h).
  ComputeContext& first = (*group)[0];
  const std::string meterOptions = nbodyInvariantsBuildOptions(first.device(), config.fp64);
  first.prefetchKernelFile(kNBodyInvariantsKernelFile, meterOptions);
  for (size_t d = 0; d < group->size(); ++d) (*group)[d].prefetchKernelFile(kNBodyKernelFile, stepOptions);
  for (size_t d = 0; d < group->size(); ++d) {
    // A failed build is not kept by the cache: said from here, so that the frame
    // that finishes the start does not compile it again.
    const auto step = (*group)[d].buildKernelFile(kNBodyKernelFile, stepOptions);
    if (!step->ok()) throw ProgramBuildError(step);
  }
  // The meter's build only warms the cache: its failure reaches the N-body panel
  // when energy is measured, and does not stop the split.
  first.buildKernelFile(kNBodyInvariantsKernelFile, meterOptions);
  return group;
}

}  // namespace

NBodySplitStart::NBodySplitStart(std::vector<size_t> wanted, std::vector<DeviceDescriptor> devices,
                                 std::filesystem::path kernelsDir, const NBodyConfig& config)
    : wanted_(std::move(wanted)), config_(config) {
  group_ = std::async(std::launch::async, [devices = std::move(devices), dir = std::move(kernelsDir), config] {
    return prepareGroup(devices, dir, config);
  });
}

NBodySplitStart::~NBodySplitStart() {
  if (group_.valid()) group_.wait();
}

bool NBodySplitStart::ready() const {
  return !group_.valid() || group_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

std::unique_ptr<NBodySplitRunner> NBodySplitStart::finish(const NBodySystem& system) {
  return std::make_unique<NBodySplitRunner>(group_.get(), system, config_);
}

}  // namespace ks
