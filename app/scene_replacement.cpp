#include "app/scene_replacement.h"

#include "compute/interop/interop_path.h"

namespace ks {

namespace {

const char* sceneName(SceneKind kind) {
  switch (kind) {
    case SceneKind::NBody: return "the N-body simulation";
    case SceneKind::Image: return "the image lab";
    case SceneKind::Julia: return "the Julia demo";
  }
  return "another scene";
}

}  // namespace

Replacement pendingReplacement(const AppState& state) {
  const PendingSwitches& switching = state.switching;
  if (switching.device && *switching.device < state.devices.size() && state.activeDevice != switching.device)
    return {"switching to " + state.devices[*switching.device].displayName()};
  if (switching.scene && *switching.scene != state.scene)
    return {std::string("opening ") + sceneName(*switching.scene)};
  if (switching.interop && *switching.interop != state.interopPath)
    return {std::string("switching to the ") + interopPathName(*switching.interop) + " interop path"};
  return {};
}

}  // namespace ks
