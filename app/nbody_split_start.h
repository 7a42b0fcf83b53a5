#pragma once
// Starting the viewer's N-body step split over several devices (issue 24)
// without holding a frame: a worker thread makes the devices' OpenCL context and
// compiles the step's kernel (and the energy meter's) on every device at once,
// while the display device steps on alone. Once ready, finish() makes the
// runner from the bodies as they are then (the builds come from the devices'
// program caches), so the simulation goes on from where it is.
#include <filesystem>
#include <future>
#include <memory>
#include <vector>

#include "app/nbody_split_runner.h"

namespace ks {

class NBodySplitStart {
 public:
  // `wanted`: indices into AppState::devices, `devices` their descriptors.
  NBodySplitStart(std::vector<size_t> wanted, std::vector<DeviceDescriptor> devices,
                  std::filesystem::path kernelsDir, const NBodyConfig& config);
  ~NBodySplitStart();  // a start given up waits here for its worker
  NBodySplitStart(const NBodySplitStart&) = delete;
  NBodySplitStart& operator=(const NBodySplitStart&) = delete;

  const std::vector<size_t>& wanted() const { return wanted_; }
  const NBodyConfig& config() const { return config_; }
  // The worker is done (built, or failed); never blocks.
  bool ready() const;
  // The runner for `system` (waits for the worker if not ready). Throws what the
  // worker met (devices of two platforms, ProgramBuildError, ClError) or the
  // runner's own errors, with messages for the user.
  std::unique_ptr<NBodySplitRunner> finish(const NBodySystem& system);

 private:
  std::vector<size_t> wanted_;
  NBodyConfig config_;
  std::future<std::unique_ptr<DeviceGroup>> group_;
};

}  // namespace ks
