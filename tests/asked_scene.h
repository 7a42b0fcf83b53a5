#pragma once
// The scene the program was last asked to open and has not opened yet: the newest
// OpenScene command still queued, else the one the session holds (what the
// requestedScene field said before the command queue).
#include <optional>

#include "app/app_state.h"

namespace ks {

inline std::optional<SceneKind> askedScene(const AppState& state) {
  CommandQueue queued = state.commands;  // a copy: looking does not take them
  const std::vector<OpenScene> asked = queued.take<OpenScene>();
  if (!asked.empty()) return asked.back().scene;
  return state.switching.scene;
}

}  // namespace ks
