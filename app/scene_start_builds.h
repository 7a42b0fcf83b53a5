#pragma once
// The programs a scene builds as it starts on a device (its constructor and first
// frame), so that a device switch can build them off the frame before it replaces
// the running scene (app/device_switch.h). A program left out here is still built,
// in the frame that starts the scene, as before.
#include <vector>

#include "app/app_state.h"
#include "app/kernel_builds.h"

namespace ks {

std::vector<ProgramToBuild> sceneStartBuilds(SceneKind kind, const DeviceDescriptor& device, const AppState& state);

// The N-body energy meter's program for positions in double (`fp64`) or single precision.
ProgramToBuild energyMeterBuild(const DeviceDescriptor& device, bool fp64);

}  // namespace ks
