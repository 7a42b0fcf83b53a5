#pragma once
// The OpenCL side of a running app: the device list, the active device's
// ComputeContext and the scene built on it. Switching device replaces both, and
// keeps the old ones when the new device fails.
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "app/app_state.h"
#include "app/cli.h"
#include "app/pattern_scene.h"
#include "compute/compute_context.h"
#include "compute/device_selection.h"

namespace ks {

class RenderSurface;

// A failure that ends start-up, with the exit code to leave with.
class StartupError : public std::runtime_error {
 public:
  StartupError(int exitCode, const std::string& message) : std::runtime_error(message), exitCode_(exitCode) {}
  int exitCode() const { return exitCode_; }

 private:
  int exitCode_;
};

// Locates kernels/ (StartupError kExitKernelsMissing when absent).
std::filesystem::path locateKernelsDir(const AppOptions& options);
// Enumerates devices (StartupError kExitNoOpenClPlatform / kExitNoUsableDevice when there are none).
DeviceCatalog requireDevices();
// One line per device, numbered as --device counts them.
std::string describeDeviceList(const std::vector<DeviceDescriptor>& devices);

class Session {
 public:
  Session(const AppOptions& options, const Settings& settings, const RenderSurface& surface, AppState& state);
  // Acts on state.requestedDevice; failures go to state.deviceMessage and the log.
  void applyRequests(AppState& state);
  void update(AppState& state, double seconds);
  void draw(int viewportW, int viewportH) const;
  const ComputeContext& compute() const { return *compute_; }

 private:
  // Builds a context and scene for devices[index]; throws on failure, leaving the current ones.
  void activate(const std::vector<DeviceDescriptor>& devices, size_t index, AppState& state);
  std::filesystem::path kernelsDir_;
  std::unique_ptr<ComputeContext> compute_;
  std::unique_ptr<PatternScene> scene_;
  std::unique_ptr<ImageQuad> quad_;
  double animationTime_ = 0.0;
};

}  // namespace ks
