#pragma once
// The viewer's N-body step split over several devices of one platform (issue
// 24): a DeviceGroup and NBodyMultiDevice (compute/nbody_multi_device.h) beside
// the display device's simulation, which only draws. Each frame's steps run on
// the group; the positions the kernels wrote for drawing are gathered on the
// host and written into the display device's shared buffer (the usual interop
// path). The slices follow the devices' measured speed.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/nbody_split_state.h"
#include "compute/device_group.h"
#include "compute/nbody_multi_device.h"
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
  // Runs `steps` steps (waiting for them); fills the figures of `split` (per
  // step, this frame's mean) and re-sizes the slices when the devices did not
  // finish together.
  void advance(int steps, const NBodyParams& params, NBodySplitState& split);
  // x, y, z and speed of every padded body after the last advance, for the display
  // device: padded() * 4 floats in pinned host memory, read beside each step's exchange.
  const float* displayValues() const { return multi_->displayOnHost(); }
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
  std::vector<std::vector<double>> sinceRebalance_;  // each frame's kernel times per device since the last re-size
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
