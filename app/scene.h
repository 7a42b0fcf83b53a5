#pragma once
// What the frame loop runs and draws: the N-body lab or the Julia demo. A scene
// lives on one ComputeContext; the Session replaces it when the device changes
// and rebinds its GL-visible objects when the interop path changes.
#include <optional>
#include <vector>

#include "app/kernel_builds.h"
#include "compute/compute_context.h"
#include "compute/interop/interop.h"
#include "compute/nbody_model.h"

namespace ks {

struct AppState;

class Scene {
 public:
  virtual ~Scene() = default;
  virtual void rebindInterop(InteropBackend& interop) = 0;
  // Acts on the scene's requests in `state`, runs its kernels, fills the readings.
  virtual void update(AppState& state, double seconds) = 0;
  // Draws into the current framebuffer; mouse input for the view comes in `state`-free
  // form through handleInput.
  virtual void draw(AppState& state, int viewportW, int viewportH) = 0;
  // Mouse input not taken by the UI (drag, wheel), in pixels.
  virtual void handleInput(float dx, float dy, bool leftDown, bool rightDown, float wheel, int viewportH) {
    (void)dx, (void)dy, (void)leftDown, (void)rightDown, (void)wheel, (void)viewportH;
  }
  // Rebuilds the scene's programs from the kernel files as they are now (hot
  // reload). All or nothing: throws (ProgramBuildError with the log, ...) and
  // keeps the running kernels when any build fails.
  virtual void reloadKernels(AppState& state) = 0;
  // The programs reloadKernels builds: a hot reload builds those of the changed files
  // off the frame first (app/kernel_builds.h), the running kernels going on meanwhile,
  // and reloads once they are built. One left out compiles in the frame that reloads.
  virtual std::vector<ProgramToBuild> programsInUse(const AppState& state) const {
    (void)state;
    return {};
  }
  // Never waits: true while work the scene started still runs on another thread
  // (the image lab's run on a CPU device); once false, that work is dropped and the
  // scene may go without waiting. A switch to another scene is put off until then.
  virtual bool finishing() { return false; }
  // The N-body bodies, so a device switch can carry them over.
  virtual std::optional<NBodySystem> snapshot() { return std::nullopt; }
};

}  // namespace ks
