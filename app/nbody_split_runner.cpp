#include "app/nbody_split_runner.h"

#include <algorithm>

#include "compute/sample_stats.h"

namespace ks {
namespace {

// Re-size the slices from the median costs of this many frames since the last
// re-size, and only when the slowest device's median is noticeably above the
// mean: one frame's times jump about (devices that share a host's cores, a
// GPU's clock), and moving the velocities of the bodies that change device
// costs a trip through the host. The first re-size comes early, after a few
// frames (the very first left out: first launches cost more): equal GPUs start
// with equal slices, and the display device's drawing (8.4 ms a frame beside
// 140 ms kernels on four H200s: a balance of 96 %) is known from the start. The
// bar is that 96 %'s, not 95 %: four H200s at N = 1M lose 6 ms a frame to it.
constexpr size_t kFramesBeforeFirstRebalance = 4;
constexpr size_t kFramesBetweenRebalances = 20;
constexpr double kRebalanceBelow = 0.98;
// A re-size must shorten the slowest share by this much by its prediction.
constexpr double kGainAtLeast = 0.995;

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

bool NBodySplitRunner::resizeIfFaster(const std::vector<NBodyDeviceCost>& costs) {
  const std::vector<NBodySlice> next = multi_->balancedSlices(costs);
  if (next == multi_->slices()) return false;
  std::vector<unsigned> computeUnits;
  for (size_t d = 0; d < group_->size(); ++d) computeUnits.push_back((*group_)[d].device().computeUnits);
  double slowest = 0.0;
  for (const NBodyDeviceCost& c : costs) slowest = std::max(slowest, c.totalMs());
  // Only a cut whose slowest share is shorter by the compute units' count, not only by the bodies.
  const double predicted = nbodyPredictedSlowestMs(multi_->slices(), next, nbodyBodiesPerGroup(multi_->config()),
                                                   computeUnits, costs);
  if (!(predicted < slowest * kGainAtLeast)) return false;
  multi_->setSlices(next);
  return true;
}

bool NBodySplitRunner::pendingStepFinished() const {
  return !multi_->stepPending() || multi_->pendingStepFinished();
}

void NBodySplitRunner::launchSteps(int steps, const NBodyParams& params) {
  for (int s = 0; s < steps; ++s) {
    if (multi_->stepPending()) completed_.push_back(multi_->completeStep());
    multi_->launch(params);
  }
}

bool NBodySplitRunner::completeSteps(NBodySplitReadings& split) {
  const bool completedOne = multi_->stepPending();
  if (completedOne) completed_.push_back(multi_->completeStep());
  if (completed_.empty()) return false;
  const size_t k = multi_->devices();
  std::vector<NBodyDeviceCost> costs(k);
  double exchangeMs = 0.0, stepMs = 0.0;
  const double steps = static_cast<double>(completed_.size());
  for (const NBodyMultiStepTimes& t : completed_) {
    for (size_t d = 0; d < k && d < t.kernelMs.size(); ++d) {
      costs[d].kernelMs += t.kernelMs[d] / steps;
      costs[d].otherMs += t.waitMs[d] / steps;
    }
    exchangeMs += t.exchangeMs / steps;
    stepMs += t.stepMs / steps;
  }
  completed_.clear();
  split.sliceBodies.clear();
  for (const NBodySlice& slice : multi_->slices()) split.sliceBodies.push_back(slice.count);
  split.deviceKernelMs.clear();
  split.deviceOtherMs.clear();
  for (const NBodyDeviceCost& c : costs) {
    split.deviceKernelMs.push_back(c.kernelMs);
    split.deviceOtherMs.push_back(c.otherMs);
  }
  split.exchangeMs = exchangeMs;
  split.stepMs = stepMs;
  split.loadBalance = nbodyCostBalance(costs);
  ++split.timedFrames;
  split.recent.push_back({split.deviceKernelMs, exchangeMs, stepMs, split.deviceOtherMs});
  if (split.recent.size() > NBodySplitReadings::kRecentFrames) split.recent.pop_front();
  if (k < 2) return completedOne;
  // The frame after a re-size or the start is left out: its launches were the first.
  if (!firstFrameSeen_) {
    firstFrameSeen_ = true;
    return completedOne;
  }
  sinceRebalance_.push_back(costs);
  const size_t due = rebalancedOnce_ ? kFramesBetweenRebalances : kFramesBeforeFirstRebalance - 1;
  if (sinceRebalance_.size() < due) return completedOne;
  const std::vector<NBodyDeviceCost> medians = nbodyMedianCosts(sinceRebalance_);
  sinceRebalance_.clear();
  rebalancedOnce_ = true;
  if (nbodyCostBalance(medians) < kRebalanceBelow && resizeIfFaster(medians)) {
    ++split.rebalances;
    firstFrameSeen_ = false;
  }
  return completedOne;
}

}  // namespace ks
