#pragma once
// The OpenCL side of a running app: the device list, the active device's
// ComputeContext, the interop backend and the scene built on them. Switching
// device or interop path replaces what it must, and keeps the old objects when
// the new ones fail.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/ceilings_runner.h"
#include "app/cli.h"
#include "app/device_switch.h"
#include "app/scene.h"
#include "compute/compute_context.h"
#include "compute/device_selection.h"
#include "compute/gl_share_probe.h"
#include "compute/interop/interop.h"
#include "compute/kernel_watcher.h"
#include "core/error.h"

namespace ks {

class RenderSurface;

// A failure that ends start-up, with the exit code to leave with.
class StartupError : public Error {
 public:
  StartupError(int exitCode, const std::string& message, ErrorDetails details = {})
      : Error(message, exitCode, std::move(details)) {}
};

// Locates kernels/ (StartupError kExitKernelsMissing when absent).
std::filesystem::path locateKernelsDir(const AppOptions& options);
// Enumerates devices (StartupError kExitNoOpenClPlatform / kExitNoUsableDevice when there are none).
DeviceCatalog requireDevices();
// One line per device, numbered as --device counts them.
std::string describeDeviceList(const std::vector<DeviceDescriptor>& devices);

// The devices (from requireDevices), GL-sharing probed, and the one to start on: --platform/--device
// when given, else the device used last time, else the default order. Throws
// StartupError when nothing fits.
struct StartDevice {
  std::vector<DeviceDescriptor> devices;
  size_t index = 0;
  std::string reason;
  std::vector<std::string> notes;  // probe warnings for the log
};
StartDevice chooseStartDevice(DeviceCatalog catalog, const AppOptions& options, const Settings& settings,
                              const GlContextHandles& gl);

class Session {
 public:
  Session(DeviceCatalog catalog, const AppOptions& options, const Settings& settings, const RenderSurface& surface,
          AppState& state);
  // Takes the SwitchDevice, OpenScene and SwitchInterop commands into state.switching
  // and acts on them (device, then scene, then interop path); failures go to the
  // state's messages and log, and the running objects stay.
  void applyRequests(AppState& state);
  void update(AppState& state, double seconds);
  void draw(AppState& state, int viewportW, int viewportH);
  // Mouse input the UI did not take (drag deltas and wheel, in pixels).
  void handleInput(float dx, float dy, bool leftDown, bool rightDown, float wheel, int viewportH);
  // Hot reload: every half second (throttled here, so the frame loop may call it
  // every frame) looks for edited kernel files and rebuilds the scene's programs.
  void pollKernelFiles(AppState& state);
  // The same without the throttle; returns the files that changed. Their programs
  // build off the frame (the running kernels go on); the reload follows once they
  // are built, in a later applyRequests.
  std::vector<std::string> reloadChangedKernels(AppState& state);
  // Whether changed kernel files still wait for their programs to build.
  bool reloadPending() const { return !reloadFiles_.empty(); }
  // Rebuilds the running scene's programs after `files` changed: on success the
  // log says "kernels/<file> changed: rebuilt"; a failed build keeps the running
  // programs, lands in the build log and says "... build failed, previous program kept".
  void reloadKernels(const std::vector<std::string>& files, AppState& state);
  const ComputeContext& compute() const { return *compute_; }
  ComputeContext& compute() { return *compute_; }  // for the UI's sweeps, between frames
  // Whether work the session started still runs on another thread (the scene's run,
  // a split start's builds, program builds); never waits. Quitting does not wait for it.
  bool workInFlight();
  // The N-body bodies as they are now (empty in other scenes).
  std::optional<NBodySystem> snapshot() { return scene_->snapshot(); }
  // Changes whenever the scene is replaced: panels built before point at its GL objects
  // (app/lab_renderer.h), so the frame that replaces it builds them again.
  unsigned long long sceneGeneration() const { return sceneGeneration_; }

 private:
  // Builds context, interop and scene for devices[index]; throws on failure,
  // leaving the current ones. `carry` is the N-body state to continue with;
  // `prepared`: the device's context, made before (app/device_switch.h).
  void activate(size_t index, AppState& state, std::optional<NBodySystem> carry = std::nullopt,
                std::unique_ptr<ComputeContext> prepared = nullptr);
  // A device asked for: prepared off the frame first; true once the switch is done
  // or refused, false while its kernels build (the running scene goes on).
  bool switchDevice(size_t index, AppState& state);
  std::unique_ptr<Scene> makeScene(SceneKind kind, ComputeContext& compute, InteropBackend& interop, AppState& state,
                                   std::optional<NBodySystem> carry);
  // The path to use on `compute`: the user's choice when it is available there,
  // else the best available one (with a message saying why).
  InteropPath choosePath(const std::vector<InteropPathStatus>& statuses, AppState& state) const;
  void switchInterop(InteropPath path, AppState& state);
  // The one gate for requests that replace the scene or what it runs on (scene,
  // device, interop path): true (said once in the log) while they wait for the
  // scene's work on another thread.
  bool holdReplacement(AppState& state);
  void takeSwitchCommands(AppState& state);
  // Hot reload's second half: starts the changed files' programs the scene uses on
  // worker threads and reloads once none still builds (the status bar says which).
  void continueReload(AppState& state);

  std::filesystem::path kernelsDir_;
  std::optional<std::filesystem::path> programCacheDir_;  // on-disk binaries; empty: memory only
  KernelWatcher kernelWatcher_;
  std::chrono::steady_clock::time_point lastKernelPoll_;
  std::vector<std::string> reloadFiles_;  // changed kernel files whose programs still build
  GlContextHandles gl_;
  std::optional<InteropPath> wantedInterop_;  // from --interop or the UI; empty: automatic
  std::optional<bool> imageRunsOnWorker_;     // AppOptions::imageRunsOnWorker
  double nbodyStepWaitMs_;                    // AppOptions::nbodyStepWaitMs
  std::string heldReplacement_;  // the replacement the log last said waits
  DeviceSwitch deviceSwitch_;    // a device switch being prepared (its contexts are its own)
  // Declared in dependency order: destroyed scene first, context last.
  std::unique_ptr<ComputeContext> compute_;
  std::unique_ptr<InteropBackend> interop_;
  std::unique_ptr<Scene> scene_;
  unsigned long long sceneGeneration_ = 0;
  CeilingsRunner ceilings_;  // measures on compute_: goes before it
};

}  // namespace ks
