#include "app/nbody_split_runner.h"

#include <algorithm>

#include "compute/sample_stats.h"

namespace ks {
namespace {

// Re-size the slices from the median kernel times of this many frames since the
// last re-size, and only when the slowest device's median is noticeably above
// the mean: one frame's times jump about (devices that share a host's cores, a
// GPU's clock), and moving the velocities of the bodies that change device
// costs a trip through the host.
constexpr size_t kFramesBetweenRebalances = 20;
constexpr double kRebalanceBelow = 0.95;

}  // namespace

std::string nbodySplitProblem(const std::vector<DeviceDescriptor>& devices, const std::vector<size_t>& wanted,
                              size_t display) {
  if (wanted.empty()) return "no devices were chosen";
  std::vector<DeviceDescriptor> chosen;
  for (size_t i : wanted) {
    if (i >= devices.size()) return "there is no device " + std::to_string(i);
    if (!devices[i].available) return devices[i].displayName() + " is not available";
    chosen.push_back(devices[i]);
  }
  if (std::string problem = deviceGroupProblem(chosen); !problem.empty()) return problem;
  // The display device reads the gathered positions; it need not compute, but the
  // devices that do are of its platform, as the Devices panel offers them.
  if (display < devices.size() && devices[display].platformIndex != chosen.front().platformIndex)
    return "the devices must be of the display device's platform (" + devices[display].platformName + ")";
  return {};
}

std::vector<size_t> nbodySplitIndices(const std::vector<DeviceDescriptor>& devices, int platformIndex,
                                      const DeviceListRequest& request) {
  std::vector<size_t> indices;
  for (const DeviceDescriptor& chosen : resolveDeviceList(devices, platformIndex, request))
    for (size_t i = 0; i < devices.size(); ++i)
      if (devices[i].platformIndex == chosen.platformIndex && devices[i].deviceIndex == chosen.deviceIndex)
        indices.push_back(i);
  return indices;
}

NBodySplitRunner::NBodySplitRunner(const std::vector<DeviceDescriptor>& devices,
                                   const std::filesystem::path& kernelsDir, const NBodySystem& system,
                                   const NBodyConfig& config)
    : NBodySplitRunner(std::make_unique<DeviceGroup>(devices, kernelsDir), system, config) {}

NBodySplitRunner::NBodySplitRunner(std::unique_ptr<DeviceGroup> group, const NBodySystem& system,
                                   const NBodyConfig& config)
    : group_(std::move(group)), multi_(std::make_unique<NBodyMultiDevice>(*group_, system, config)) {
  multi_->gatherDisplayEachStep();
}

NBodySplitInvariants& NBodySplitRunner::invariants() {
  if (!invariants_) invariants_ = std::make_unique<NBodySplitInvariants>(*group_, multi_->config().fp64);
  return *invariants_;
}

void NBodySplitRunner::advance(int steps, const NBodyParams& params, NBodySplitState& split) {
  if (steps <= 0) return;
  const size_t k = multi_->devices();
  std::vector<double> kernelMs(k, 0.0);
  double exchangeMs = 0.0, stepMs = 0.0;
  for (int s = 0; s < steps; ++s) {
    const NBodyMultiStepTimes t = multi_->step(params);
    for (size_t d = 0; d < k; ++d) kernelMs[d] += t.kernelMs[d] / steps;
    exchangeMs += t.exchangeMs / steps;
    stepMs += t.stepMs / steps;
  }
  split.sliceBodies.clear();
  for (const NBodySlice& slice : multi_->slices()) split.sliceBodies.push_back(slice.count);
  split.deviceKernelMs = kernelMs;
  split.exchangeMs = exchangeMs;
  split.stepMs = stepMs;
  split.loadBalance = nbodyLoadBalance(kernelMs);
  ++split.timedFrames;
  split.recent.push_back({kernelMs, exchangeMs, stepMs});
  if (split.recent.size() > NBodySplitState::kRecentFrames) split.recent.pop_front();
  if (k < 2) return;
  sinceRebalance_.push_back(kernelMs);
  if (sinceRebalance_.size() < kFramesBetweenRebalances) return;
  std::vector<double> medians(k);
  for (size_t d = 0; d < k; ++d) {
    std::vector<double> samples;
    for (const auto& frame : sinceRebalance_) samples.push_back(frame[d]);
    medians[d] = summarize(samples).median;
  }
  sinceRebalance_.clear();
  if (nbodyLoadBalance(medians) < kRebalanceBelow && multi_->rebalance(medians)) ++split.rebalances;
}

}  // namespace ks
