#include "app/scene_start_builds.h"

#include <algorithm>

#include "compute/nbody_invariants.h"
#include "compute/nbody_variants.h"
#include "lab/tuning_cache.h"

namespace ks {

std::vector<ProgramToBuild> sceneStartBuilds(SceneKind kind, const DeviceDescriptor& device, const AppState& state) {
  switch (kind) {
    case SceneKind::Julia: return {{"pattern.cl", "", "Julia"}};
    // The pictures' conversion and levels, and the histogram's plot; the first run's
    // rotation and histogram are built off the frame by the scene itself.
    case SceneKind::Image: return {{"display.cl", "", "display"}};
    case SceneKind::NBody: break;
  }
  // As NBodyScene chooses: the user's configuration, else the tuned one for the
  // bodies carried over (those running), and the energy meter when it is on.
  const NBodyChoices& chosen = state.nbody.choices;
  const size_t running = state.nbody.readings().runningBodies;
  const size_t bodies = state.scene == SceneKind::NBody && running ? running
                                                                  : static_cast<size_t>(std::max(chosen.bodies, 1));
  const NBodyConfig config =
      chosen.configFromUser ? chosen.config : preferredNBodyConfig(state.runs.tuning, device, bodies);
  // The status bar names the operation and variant; the settings in shorthand meant nothing there.
  std::vector<ProgramToBuild> builds = {{kNBodyKernelFile, nbodyBuildOptions(config), "n-body " + config.variant}};
  if (chosen.conservation.on) builds.push_back(energyMeterBuild(device, config.fp64));
  return builds;
}

ProgramToBuild energyMeterBuild(const DeviceDescriptor& device, bool fp64) {
  return {kNBodyInvariantsKernelFile, nbodyInvariantsBuildOptions(device, fp64), "energy meter"};
}

}  // namespace ks
