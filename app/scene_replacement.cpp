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
  if (state.requestedDevice && *state.requestedDevice < state.devices.size() &&
      state.activeDevice != state.requestedDevice)
    return {"switching to " + state.devices[*state.requestedDevice].displayName()};
  if (state.requestedScene && *state.requestedScene != state.scene)
    return {std::string("opening ") + sceneName(*state.requestedScene)};
  if (state.requestedInterop && *state.requestedInterop != state.interopPath)
    return {std::string("switching to the ") + interopPathName(*state.requestedInterop) + " interop path"};
  return {};
}

}  // namespace ks
