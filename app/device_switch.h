#pragma once
// A device switch prepared off the frame (issue 22: the frame that switched built
// the new device's kernels, 2 s on PoCL, the window frozen meanwhile). The new
// device's context is made when the switch is asked for; the programs its scene
// starts with (app/scene_start_builds.h) compile on worker threads while the
// running scene goes on drawing on the old device; the session replaces it once
// none is still compiling, and the new scene finds them in the program cache.
// A switch given up (another device asked for meanwhile) keeps its context until
// its builds have ended, so that no frame waits for them: a program cache's
// destructor does.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "compute/compute_context.h"

namespace ks {

class DeviceSwitch {
 public:
  // The device being prepared, if any (an index into AppState::devices).
  std::optional<size_t> device() const { return index_; }
  // Starts preparing the switch to `index` on `compute`, its new context; a switch
  // prepared before is given up.
  void start(size_t index, std::unique_ptr<ComputeContext> compute);
  // Starts the builds that `state`'s scene needs on the new context (again each
  // frame: the scene may change meanwhile); never waits. What still builds, in
  // words; empty once every one has finished, built or failed.
  std::string startBuilds(const AppState& state);
  // The prepared context; the switch is no longer prepared.
  std::unique_ptr<ComputeContext> take();
  void giveUp();
  // Frees the contexts given up whose builds have ended; never waits.
  void dropFinished();
  // Whether a build it started still compiles (quitting does not wait for it).
  bool building() const;

 private:
  std::optional<size_t> index_;
  std::unique_ptr<ComputeContext> compute_;
  std::vector<std::unique_ptr<ComputeContext>> givenUp_;
};

}  // namespace ks
