#pragma once
// The requests that replace the running scene or what it runs on: another scene,
// another device (its context, interop backend and scene), another interop path
// (the scene's pictures and buffers made again). Session::applyRequests puts all of
// them off while the scene is finishing work on another thread (issue 22: a switch
// during an image-lab run or a split start waited for that work, 1-2 s on PoCL),
// so that frames go on until the work has finished or been dropped.
#include <string>

#include "app/app_state.h"

namespace ks {

struct Replacement {
  std::string what;  // in words for the log ("switching to <device>"); empty: none
};
// What the switches the session has taken (state.switching) would replace; none when
// none is pending or each asks for what runs.
Replacement pendingReplacement(const AppState& state);

}  // namespace ks
