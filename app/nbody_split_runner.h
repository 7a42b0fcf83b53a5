#pragma once
// The viewer's N-body step split over several devices of one platform (issue
// 24): a DeviceGroup and NBodyMultiDevice (compute/nbody_multi_device.h) beside
// the display device's simulation, which only draws. Each frame's steps run on
// the group a frame behind, as one device runs them: a frame completes the step
// the last frame left running and launches its own, which runs while GL draws
// the completed one; no device waits for the drawing or the exchange within a
// frame. The positions the kernels wrote for drawing are gathered on the host
// and written into the display device's shared buffer (the usual interop path).
// The slices follow what each device spends on its share of a step: its kernel
// and the other work it does first (compute/nbody_slice_balance.h).
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/nbody_split_state.h"
#include "compute/device_group.h"
#include "compute/nbody_multi_device.h"
#include "compute/nbody_slice_balance.h"
#include "compute/nbody_split_invariants.h"

namespace ks {

class NBodySplitRunner {
 public:
  // Builds the kernel of `config` on every device and uploads `system`. Throws
  // with a message for the user (devices of two platforms, a failed build, ...).
  NBodySplitRunner(const std::vector<DeviceDescriptor>& devices, const std::filesystem::path& kernelsDir,
                   const NBodySystem& system, const NBodyConfig& config);
  // The same on a group made beforehand (app/nbody_split_start.h: its builds are
  // then in the devices' program caches).
  NBodySplitRunner(std::unique_ptr<DeviceGroup> group, const NBodySystem& system, const NBodyConfig& config);
  // Completes the step the last frame left running (waiting for it) and fills the
  // figures of `split` from the steps completed since the last call (per step,
  // their mean); re-sizes the slices when the devices did not finish together.
  // Returns whether a step completed: then displayValues() are new. Between this
  // and launchSteps every device holds the same bodies (measure them there).
  bool completeSteps(NBodySplitReadings& split);
  // Launches `steps` steps; all but the last complete at once (each needs the
  // positions of the one before); the last runs on after the call.
  void launchSteps(int steps, const NBodyParams& params);
  // Whether a step runs that no completeSteps has seen; whether it has finished (never blocks).
  bool stepPending() const { return multi_->stepPending(); }
  bool pendingStepFinished() const;
  // x, y, z and speed of every padded body after the last completed step, for the
  // display device: padded() * 4 floats in pinned host memory, read beside each
  // step's exchange; null before the first step completes.
  const float* displayValues() { return multi_->displayOnHost(); }
  size_t padded() const { return multi_->padded(); }
  NBodySystem download() { return multi_->download(); }
  size_t devices() const { return multi_->devices(); }
  const NBodyConfig& config() const { return multi_->config(); }
  // Energy and momenta over all devices' slices (compute/nbody_split_invariants.h):
  // the meters are made on the first call (throws ProgramBuildError or ClError).
  NBodySplitInvariants& invariants();
  NBodyMultiDevice& multi() { return *multi_; }

 private:
  std::unique_ptr<DeviceGroup> group_;  // declared first: destroyed after the devices' buffers
  std::unique_ptr<NBodyMultiDevice> multi_;
  std::unique_ptr<NBodySplitInvariants> invariants_;  // declared after multi_: destroyed first (waits for its reads)
  // New slices from `costs` when they would shorten the slowest share, counted
  // by work-groups per compute unit (nbodyPredictedSlowestMs); whether they were made.
  bool resizeIfFaster(const std::vector<NBodyDeviceCost>& costs);
  std::vector<std::vector<NBodyDeviceCost>> sinceRebalance_;  // each frame's costs per device since the last re-size
  std::vector<NBodyMultiStepTimes> completed_;  // steps completed since the last figures
  bool firstFrameSeen_ = false;   // since the start or the last re-size
  bool rebalancedOnce_ = false;   // the early first look at the costs is done
};

// The devices of `wanted` as a split, or why they cannot be one (empty): all of
// one platform, available, at least one. `display` is the display device.
std::string nbodySplitProblem(const std::vector<DeviceDescriptor>& devices, const std::vector<size_t>& wanted,
                              size_t display);

// `--devices` for the viewer: the indices into `devices` (AppState::devices) of
// the devices `request` names on `platformIndex` (the display device's). Throws
// std::runtime_error with a message for the user (resolveDeviceList's).
std::vector<size_t> nbodySplitIndices(const std::vector<DeviceDescriptor>& devices, int platformIndex,
                                      const DeviceListRequest& request);

// Whether `wanted` is the display device alone (or nothing): no split.
inline bool nbodySplitIsDisplayAlone(const std::vector<size_t>& wanted, size_t display) {
  return wanted.empty() || (wanted.size() == 1 && wanted.front() == display);
}

}  // namespace ks
