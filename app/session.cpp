#include "app/session.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <utility>

#include "app/bench_nbody.h"
#include "app/image_scene.h"
#include "app/kernel_builds.h"
#include "app/nbody_scene.h"
#include "app/nbody_split_runner.h"
#include "app/pattern_scene.h"
#include "app/render_surface.h"
#include "app/scene_replacement.h"
#include "app/scene_start_builds.h"
#include "compute/device_ceilings.h"
#include "compute/gl_share_probe.h"
#include "compute/kernel_files.h"
#include "render/gl_check.h"

namespace ks {

namespace {

// "kernels/a.cl, kernels/b.cl", as the log names changed files.
std::string reloadedNames(const std::vector<std::string>& files) {
  std::string names;
  for (const auto& f : files) names += (names.empty() ? "kernels/" : ", kernels/") + f;
  return names;
}

}  // namespace

std::filesystem::path locateKernelsDir(const AppOptions& options) {
  try {
    return findKernelsDir(options.kernelsDir, executableDir());
  } catch (const KernelsDirError& e) {
    throw StartupError(kExitKernelsMissing, e.what());
  }
}

DeviceCatalog requireDevices() {
  DeviceCatalog catalog;
  try {
    catalog = enumerateDevices();
  } catch (const ClError& e) {
    throw StartupError(kExitNoOpenClPlatform, std::string("cannot list OpenCL platforms: ") + e.what());
  }
  if (catalog.platformCount == 0) {
    const char* vendors = std::getenv("OCL_ICD_VENDORS");
    throw StartupError(kExitNoOpenClPlatform,
                       std::string("no OpenCL platform found: the ICD loader found no driver in ") +
                           (vendors && *vendors ? vendors : "/etc/OpenCL/vendors") +
                           ".\nInstall one (for example the pocl-opencl-icd package for CPUs, or your GPU "
                           "vendor's OpenCL driver).");
  }
  if (catalog.devices.empty()) {
    std::string text = "no usable OpenCL device: " + std::to_string(catalog.platformCount) +
                       " platform(s) found, none lists a device";
    for (const auto& w : catalog.warnings) text += "\n  " + w;
    throw StartupError(kExitNoUsableDevice, text);
  }
  return catalog;
}

std::string describeDeviceList(const std::vector<DeviceDescriptor>& devices) {
  std::ostringstream out;
  for (size_t i = 0; i < devices.size(); ++i) {
    const auto& d = devices[i];
    out << "[" << i << "] platform " << d.platformIndex << " device " << d.deviceIndex << ": " << d.name << " ("
        << deviceKindName(d.kind) << ", " << d.platformName << ", " << d.deviceVersion << ")"
        << (d.available ? "" : " [unavailable]") << (d.sharesCurrentGlContext ? " [shares GL]" : "") << "\n";
  }
  return out.str();
}

StartDevice chooseStartDevice(DeviceCatalog catalog, const AppOptions& options, const Settings& settings,
                              const GlContextHandles& gl) {
  StartDevice start;
  start.notes = catalog.warnings;
  for (const auto& note : probeGlSharing(catalog.devices, gl)) start.notes.push_back("GL sharing probe: " + note);
  start.devices = std::move(catalog.devices);

  const DeviceRequest request{options.platform, options.device};
  DeviceChoice choice;
  if (request.empty() && !settings.deviceName.empty()) {
    // The device chosen last time, if it is still there.
    for (size_t i = 0; i < start.devices.size(); ++i)
      if (start.devices[i].name == settings.deviceName && start.devices[i].platformName == settings.devicePlatform &&
          start.devices[i].available)
        choice = {i, "chosen last time"};
  }
  if (!choice.index) choice = selectDevice(start.devices, request);
  if (!choice.index)
    throw StartupError(kExitNoUsableDevice, "no usable OpenCL device: " + choice.reason + "\navailable:\n" +
                                                describeDeviceList(start.devices));
  start.index = *choice.index;
  start.reason = choice.reason;
  return start;
}

// The viewer starts with the N-body choices settings.json kept, then what the
// command line asks for, which wins: scene, N, preset, seed, drawing, and the
// kernel configuration when any kernel option is given.
static void applyNBodyOptions(const AppOptions& options, const Settings& settings, const DeviceDescriptor& device,
                              AppState& state) {
  state.scene = options.scene == "julia" ? SceneKind::Julia : options.scene == "image" ? SceneKind::Image
                                                                                      : SceneKind::NBody;
  std::vector<std::string> images;
  for (const auto& image : options.images) images.push_back(image.string());
  if (std::optional<OpenImages> open = OpenImages::of(std::move(images))) state.commands.push(std::move(*open));
  if (options.spin) {
    state.image.choices.spin = true;
    state.image.choices.spinDegreesPerSecond = *options.spin;
  }
  const NBodyOptions& o = options.nbody;
  NBodyChoices& nb = state.nbody.choices;
  if (settings.nbody) nb = *settings.nbody;
  // Without --n or a saved count, a size that steps at interactive rates: O(N^2) on
  // two CPU cores is a few thousand bodies, a GPU takes tens of thousands.
  if (o.given("--n")) nb.bodies = static_cast<int>(std::min<size_t>(o.bodies, 1u << 30));
  else if (!settings.nbody) nb.bodies = device.kind == DeviceKind::Gpu ? 32768 : 4096;
  // A CPU's speed varies too much for one number: the scene measures it and lowers N if need be.
  nb.fitBodiesToDevice = !o.given("--n") && device.kind != DeviceKind::Gpu;
  if (auto preset = parseNBodyPreset(o.preset); preset && (o.given("--preset") || !settings.nbody)) nb.preset = *preset;
  if (o.given("--seed") || !settings.nbody) nb.seed = static_cast<int>(o.seed);
  for (ParticleDrawing d : kParticleDrawings)
    if (o.particleDrawing == particleDrawingName(d) && (o.given("--particle-drawing") || !settings.nbody))
      nb.style.drawing = d;
  if (o.kernelOptionsGiven()) {
    nb.config = nbodyConfigsFromOptions(o, device).front();
    nb.configFromUser = true;
  }
}

Session::Session(DeviceCatalog catalog, const AppOptions& options, const Settings& settings,
                 const RenderSurface& surface, AppState& state)
    : kernelsDir_(locateKernelsDir(options)),
      programCacheDir_(options.programCacheDir),
      kernelWatcher_(kernelsDir_),
      lastKernelPoll_(std::chrono::steady_clock::now()),
      gl_(surface.glHandles()),
      wantedInterop_(options.interop),
      imageRunsOnWorker_(options.imageRunsOnWorker),
      nbodyStepWaitMs_(options.nbodyStepWaitMs) {
  StartDevice start = chooseStartDevice(std::move(catalog), options, settings, gl_);
  for (const auto& note : start.notes) state.report(note);
  state.devices = std::move(start.devices);
  applyNBodyOptions(options, settings, state.devices[start.index], state);
  if (options.nbody.devices) {  // --devices: the N-body step split from the first frame on
    try {
      state.nbody.choices.split.requested =
          nbodySplitIndices(state.devices, state.devices[start.index].platformIndex, *options.nbody.devices);
      state.nbody.choices.split.startAtOnce = true;  // before the first frame: nothing on screen to keep moving
    } catch (const std::exception& e) {
      throw StartupError(kExitUsage, std::string("--devices: ") + e.what());
    }
  }
  try {
    activate(start.index, state);
  } catch (const KernelsDirError& e) {
    throw StartupError(kExitKernelsMissing, e.what());
  } catch (const ProgramBuildError& e) {
    // Nothing is on screen yet: the log has to reach the terminal.
    // The details carry the build log, which the terminal shows under the message.
    throw StartupError(kExitKernelBuildFailed,
                       "cannot start on " + state.devices[start.index].displayName() + ": " + e.what(), e.details());
  } catch (const std::exception& e) {
    throw StartupError(kExitNoUsableDevice,
                       "cannot start on " + state.devices[start.index].displayName() + ": " + e.what());
  }
  state.deviceMessage = "using " + state.devices[start.index].displayName() + " (" + start.reason + ")";
}

InteropPath Session::choosePath(const std::vector<InteropPathStatus>& statuses, AppState& state) const {
  const InteropPath best = preferredInteropPath(statuses);
  if (!wantedInterop_) return best;
  for (const auto& s : statuses)
    if (s.path == *wantedInterop_) {
      if (s.available) return s.path;
      state.interopMessage = std::string(interopPathName(s.path)) + " is not available: " + s.reason + "; using " +
                             interopPathName(best);
      state.report(state.interopMessage);
    }
  return best;
}

std::unique_ptr<Scene> Session::makeScene(SceneKind kind, ComputeContext& compute, InteropBackend& interop,
                                          AppState& state, std::optional<NBodySystem> carry) {
  try {
    if (kind == SceneKind::Julia) return std::make_unique<PatternScene>(compute, interop, state.pattern.size);
    if (kind == SceneKind::Image) return std::make_unique<ImageScene>(compute, interop, state, imageRunsOnWorker_);
    return std::make_unique<NBodyScene>(compute, interop, state, nbodyStepWaitMs_, std::move(carry));
  } catch (const ProgramBuildError& e) {
    state.buildFailures.push_back(
        {e.build().label + " " + e.build().options, compute.device().displayName(), e.build().error, e.build().log});
    state.panels.buildLog = true;
    throw;
  }
}

void Session::activate(size_t index, AppState& state, std::optional<NBodySystem> carry,
                       std::unique_ptr<ComputeContext> prepared) {
  const DeviceDescriptor& device = state.devices[index];
  auto compute = prepared ? std::move(prepared)
                          : std::make_unique<ComputeContext>(device, kernelsDir_, gl_, programCacheDir_);
  auto statuses = probeInteropPaths(*compute);
  InteropPath path = choosePath(statuses, state);
  std::unique_ptr<InteropBackend> interop;
  try {
    interop = createInteropBackend(path, *compute);
  } catch (const std::exception& e) {
    state.report(std::string(interopPathName(path)) + " failed (" + e.what() + "); using host");
    path = InteropPath::Host;
    interop = createInteropBackend(path, *compute);
  }
  auto scene = makeScene(state.scene, *compute, *interop, state, std::move(carry));
  // Only now, with everything built, replace the running ones (scene first: it
  // holds objects of the old interop backend and context).
  ceilings_.stop();
  scene_ = std::move(scene);
  ++sceneGeneration_;
  interop_ = std::move(interop);
  compute_ = std::move(compute);
  state.activeDevice = index;
  state.interopPaths = std::move(statuses);
  state.interopPath = path;
  // The ceilings the profiling panel compares against: cached, or measured from now on.
  ceilings_.start(*compute_, state);
}

void Session::switchInterop(InteropPath path, AppState& state) {
  wantedInterop_ = path;
  for (const auto& s : state.interopPaths)
    if (s.path == path && !s.available) {
      state.interopMessage = std::string(interopPathName(path)) + " is not available: " + s.reason + "; staying on " +
                             interopPathName(state.interopPath);
      state.report(state.interopMessage);
      return;
    }
  try {
    auto interop = createInteropBackend(path, *compute_);
    scene_->rebindInterop(*interop);
    interop_ = std::move(interop);
    state.interopPath = path;
    state.interopMessage = std::string("switched to ") + interopPathName(path);
    state.report(state.interopMessage);
  } catch (const std::exception& e) {
    // rebindInterop may have failed half way: rebuild the scene's objects on the old backend.
    state.interopMessage = std::string("could not switch to ") + interopPathName(path) + ": " + e.what();
    state.report(state.interopMessage);
    try {
      scene_->rebindInterop(*interop_);
    } catch (const std::exception& again) {
      // The scene runs on; its pictures come back with the next image or interop switch.
      state.report(std::string("could not put the pictures back on ") + interopPathName(state.interopPath) + ": " +
                   again.what());
    }
  }
}

void Session::takeSwitchCommands(AppState& state) {
  // The newest of each kind wins, as when a panel overwrote the request before it was handled.
  PendingSwitches& switching = state.switching;
  for (const SwitchDevice& c : state.commands.take<SwitchDevice>()) switching.device = c.device;
  for (const OpenScene& c : state.commands.take<OpenScene>()) switching.scene = c.scene;
  for (const SwitchInterop& c : state.commands.take<SwitchInterop>()) switching.interop = c.path;
}

void Session::applyRequests(AppState& state) {
  takeSwitchCommands(state);
  pollKernelFiles(state);
  continueReload(state);
  for (const auto& message : compute_->programs().takeDiskMessages()) state.report(message);
  if (holdReplacement(state)) return;
  deviceSwitch_.dropFinished();
  PendingSwitches& switching = state.switching;
  if (switching.device) {
    const size_t index = *switching.device;
    if (index < state.devices.size() && !(state.activeDevice && *state.activeDevice == index)) {
      // Until its kernels are built the request stays (the Devices panel says
      // "switching..."), and so do the other requests: they apply after it.
      if (!switchDevice(index, state)) return;
    } else {
      deviceSwitch_.giveUp();  // back to the running device before the switch was done
    }
    switching.device.reset();
    state.preparing.clear();
  }
  if (switching.scene) {
    const SceneKind kind = *switching.scene;
    if (kind != state.scene) {
      // The programs the scene starts with compile on worker threads while the running
      // scene goes on (issue 22: opening the image lab compiled display.cl in the frame,
      // 2 s on PoCL); the request, and those after it, wait until none still compiles.
      // The scene then finds them in the program cache, a failed one with its log.
      const std::string building =
          startKernelBuilds(*compute_, sceneStartBuilds(kind, compute_->device(), state));
      if (!building.empty()) {
        state.preparing = pendingReplacement(state).what + ": " + buildingKernelText(building, compute_->device());
        return;
      }
    }
    switching.scene.reset();
    state.preparing.clear();
    if (kind != state.scene) {
      const SceneKind previous = state.scene;
      state.scene = kind;
      try {
        scene_ = makeScene(kind, *compute_, *interop_, state, std::nullopt);
        ++sceneGeneration_;
      } catch (const std::exception& e) {
        state.scene = previous;
        state.report(std::string("cannot open the scene: ") + e.what());
      }
    }
  }
  if (switching.interop) {
    const InteropPath path = *switching.interop;
    switching.interop.reset();
    if (path != state.interopPath) switchInterop(path, state);
  }
}

bool Session::switchDevice(size_t index, AppState& state) {
  const std::string name = state.devices[index].displayName();
  try {
    if (deviceSwitch_.device() != index)
      deviceSwitch_.start(index, std::make_unique<ComputeContext>(state.devices[index], kernelsDir_, gl_, programCacheDir_));
    if (const std::string building = deviceSwitch_.startBuilds(state); !building.empty()) {
      state.preparing = "switching to " + name + ": " + buildingKernelText(building, state.devices[index]);
      return false;
    }
    // The N-body bodies move to the new device with their positions and velocities.
    activate(index, state, scene_->snapshot(), deviceSwitch_.take());
    state.deviceMessage = "switched to " + name;
    state.report(state.deviceMessage);
  } catch (const std::exception& e) {
    deviceSwitch_.giveUp();
    state.deviceMessage =
        "could not switch to " + name + ", still on " + compute_->device().displayName() + ": " + e.what();
    state.report(state.deviceMessage);
  }
  return true;
}

bool Session::holdReplacement(AppState& state) {
  // A scene whose work still runs on another thread (the image lab's run, a split
  // start's builds) is replaced once that work has finished, a frame or more later:
  // closing it, rebinding its pictures or replacing its context now would wait for
  // it (issue 22: 1-2 s on PoCL), and so would the next scene's first use of the
  // device's cores. Frames go on meanwhile; the scene starts nothing new.
  const Replacement replacement = pendingReplacement(state);
  const bool hold = !replacement.what.empty() && scene_->finishing();
  if (!hold) {
    heldReplacement_.clear();
    return false;
  }
  if (replacement.what != heldReplacement_) state.report(replacement.what + " once the work under way has finished");
  heldReplacement_ = replacement.what;
  return true;
}

bool Session::workInFlight() {
  return scene_->finishing() || compute_->programs().building() || deviceSwitch_.building() || ceilings_.busy();
}

void Session::pollKernelFiles(AppState& state) {
  const auto now = std::chrono::steady_clock::now();
  if (now - lastKernelPoll_ < std::chrono::milliseconds(500)) return;
  lastKernelPoll_ = now;
  reloadChangedKernels(state);
}

std::vector<std::string> Session::reloadChangedKernels(AppState& state) {
  std::vector<std::string> changed = kernelWatcher_.changedFiles();
  for (const std::string& file : changed)
    if (std::find(reloadFiles_.begin(), reloadFiles_.end(), file) == reloadFiles_.end()) reloadFiles_.push_back(file);
  continueReload(state);
  return changed;
}

void Session::continueReload(AppState& state) {
  if (reloadFiles_.empty()) return;
  // Issue 22: the reload compiled the changed files in the frame (0.2-2 s on PoCL).
  // Their programs as the scene runs them build on worker threads first; the reload
  // then finds them in the program cache, a failed one with its log.
  std::vector<ProgramToBuild> builds;
  for (ProgramToBuild& b : scene_->programsInUse(state))
    if (std::find(reloadFiles_.begin(), reloadFiles_.end(), b.file) != reloadFiles_.end()) builds.push_back(std::move(b));
  const std::string building = startKernelBuilds(*compute_, builds);
  // The status bar's line, unless a switch being prepared has it.
  const bool switching = !pendingReplacement(state).what.empty();
  if (!building.empty()) {
    if (!switching)
      state.preparing = reloadedNames(reloadFiles_) + " changed: " + buildingKernelText(building, compute_->device());
    return;
  }
  if (!switching) state.preparing.clear();
  reloadKernels(std::exchange(reloadFiles_, {}), state);
}

void Session::reloadKernels(const std::vector<std::string>& files, AppState& state) {
  const std::string names = reloadedNames(files);
  ProgramCache& programs = compute_->programs();
  std::vector<size_t> before;
  for (const auto& f : files) before.push_back(programs.requests(f));
  try {
    scene_->reloadKernels(state);
    // The scene asked the cache for a changed file: its programs now come from the new text.
    bool used = false;
    for (size_t i = 0; i < files.size(); ++i) used = used || programs.requests(files[i]) > before[i];
    state.report(names + " changed: " + (used ? "rebuilt" : "not used by the running scene"));
  } catch (const ProgramBuildError& e) {
    state.buildFailures.push_back(
        {e.build().label + " " + e.build().options, compute_->device().displayName(), e.build().error, e.build().log});
    state.panels.buildLog = true;
    state.report(names + " changed: build failed, previous program kept (" + e.what() + ")");
  } catch (const std::exception& e) {
    state.report(names + " changed: reload failed, previous program kept (" + e.what() + ")");
  }
}

void Session::update(AppState& state, double seconds) {
  const ProgramCache& programs = compute_->programs();
  state.programCache = {programs.hits(), programs.misses(), programs.diskHits(), programs.diskMisses(),
                        programs.diskCache() ? programs.diskCache()->dir().string() : std::string(),
                        programs.diskOffReason()};
  ceilings_.step(*compute_, state);
  try {
    scene_->update(state, seconds);
  } catch (const std::exception& e) {
    // Keep running with the last picture; say once what went wrong.
    if (state.log.empty() || state.log.back() != e.what()) state.report(e.what());
  }
}

void Session::draw(AppState& state, int viewportW, int viewportH) { scene_->draw(state, viewportW, viewportH); }

void Session::handleInput(float dx, float dy, bool leftDown, bool rightDown, float wheel, int viewportH) {
  scene_->handleInput(dx, dy, leftDown, rightDown, wheel, viewportH);
}

}  // namespace ks
