#pragma once
// What panels, shortcuts, menus, the command line and file drops ask for, as typed
// commands. They are pushed during a frame and taken between frames by the part of
// the program that acts on them (panels -> commands -> session and scenes ->
// readings -> panels):
//   the frame loop (app/main.cpp): Quit, ToggleFullscreen
//   the layout (ui/layout.cpp):   ResetLayout
//   the picture view (ui/panels_image.cpp): FitPictures
//   the session (app/session.cpp): SwitchDevice, SwitchInterop, OpenScene
//   the N-body scene:              StepNBody, ResetNBody, VerifyNBody, SaveNBodyState,
//                                  LoadNBodyState, ResetCamera
//   the image lab's scene:         OpenImages, CancelImageOpen, SaveImageResult, RunImagePipeline
//   the ceilings runner (app/ceilings_runner.h): MeasureCeilings
//   the recorder (app/run_recorder.h): StartRecording, StopRecording
//   the sweep runner (app/sweep_runner.h): StartSweep, CancelSweep, ApplySweepBest
// A command whose consumer is not running (an N-body command while the image lab
// runs) stays in the queue until it runs again, as the request flags it replaces
// stayed set.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "compute/interop/interop_path.h"

namespace ks {

enum class SceneKind { NBody, Image, Julia };

// The whole program
struct Quit {};              // Esc, File > Quit, the window's close button (after the question)
struct ToggleFullscreen {};  // F, F11, View > Fullscreen
struct ResetLayout {};       // View > Reset layout: panels back by the window's edges
// The session: what the scene runs on, and which scene
struct SwitchDevice {
  size_t device = 0;  // index into AppState::devices
};
struct SwitchInterop {
  InteropPath path = InteropPath::Host;
};
struct OpenScene {
  SceneKind scene = SceneKind::NBody;
};
// The N-body scene
struct StepNBody {};       // one step while paused
struct ResetNBody {};      // the bodies again from the preset, count and seed chosen
struct VerifyNBody {};     // one step against the CPU reference
struct SaveNBodyState {};  // to NBodyState::statePath
struct LoadNBodyState {};  // from NBodyState::statePath
struct ResetCamera {};
// The image lab's scene
// A drop, File > Open, Examples or recent, the command line, the next or previous file.
// It always names at least one path: an empty list cannot be made.
class OpenImages {
 public:
  explicit OpenImages(std::string path) : paths_{std::move(path)} {}  // "": the built-in test image
  // Several: a set to step through. None: nothing to ask for.
  static std::optional<OpenImages> of(std::vector<std::string> paths) {
    if (paths.empty()) return std::nullopt;
    OpenImages open;
    open.paths_ = std::move(paths);
    return open;
  }
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  OpenImages() = default;
  std::vector<std::string> paths_;
};
struct CancelImageOpen {};   // "Stop opening": the file decoding is dropped, the open image stays
struct SaveImageResult {};   // to ImageLabState::savePath, once no run writes the result
struct RunImagePipeline {};  // the kernels again though no choice changed (a sweep's best applied)
// The picture view: the pictures fitted into the part of the window the panels leave
// free (Fit, a change of view or layout, a new image's first result, the start)
struct FitPictures {};
// The ceilings runner: Device info's "Measure again" (the cached entry is replaced)
struct MeasureCeilings {};
// Recordings and sweeps (their settings are RunsState's)
struct StartRecording {};  // Record, --record
struct StopRecording {};
struct StartSweep {};
struct CancelSweep {};
struct ApplySweepBest {};  // the last sweep's winner to the scene (and the tuning cache)

using Command = std::variant<Quit, ToggleFullscreen, ResetLayout, SwitchDevice, SwitchInterop, OpenScene, StepNBody,
                             ResetNBody, VerifyNBody, SaveNBodyState, LoadNBodyState, ResetCamera, OpenImages,
                             CancelImageOpen, SaveImageResult, RunImagePipeline, FitPictures, MeasureCeilings,
                             StartRecording, StopRecording, StartSweep, CancelSweep, ApplySweepBest>;

class CommandQueue {
 public:
  void push(Command command) { commands_.push_back(std::move(command)); }

  // Removes the commands of type C and returns them in the order they were pushed;
  // the others stay, in their order, for their own consumers.
  template <class C>
  std::vector<C> take() {
    std::vector<C> taken;
    for (const Command& c : commands_)
      if (const C* command = std::get_if<C>(&c)) taken.push_back(*command);
    std::erase_if(commands_, [](const Command& c) { return std::holds_alternative<C>(c); });
    return taken;
  }
  // For commands that carry nothing: whether any was pushed (all of them are taken;
  // several in one frame act once, as one request flag did).
  template <class C>
  bool takeAny() {
    return !take<C>().empty();
  }
  // The newest command of type C still queued, or null; it stays queued.
  template <class C>
  const C* newest() const {
    for (auto c = commands_.rbegin(); c != commands_.rend(); ++c)
      if (const C* command = std::get_if<C>(&*c)) return command;
    return nullptr;
  }
  template <class C>
  bool has() const {
    return std::any_of(commands_.begin(), commands_.end(), [](const Command& c) { return std::holds_alternative<C>(c); });
  }
  size_t size() const { return commands_.size(); }
  bool empty() const { return commands_.empty(); }

 private:
  std::vector<Command> commands_;
};

}  // namespace ks
