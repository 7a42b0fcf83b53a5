#pragma once
// The one state struct the panels read and write. What panels ask for goes into
// `commands` (app/commands.h), taken between frames by the frame loop, the session
// and the scenes.
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/frame_profiler.h"
#include "app/image_lab_readings.h"
#include "io/nbody_choices.h"
#include "app/nbody_readings.h"
#include "app/nbody_split_state.h"
#include "app/runs_state.h"
#include "io/image_lab_choices.h"
#include "io/settings.h"
#include "app/view_area.h"
#include "compute/cl_objects.h"
#include "compute/device_catalog.h"
#include "compute/device_ceilings.h"
#include "compute/gpu_telemetry.h"
#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/interop/interop_path.h"
#include "compute/nbody_invariants.h"
#include "compute/work_model.h"
#include "compute/nbody_model.h"
#include "compute/nbody_variants.h"
#include "lab/ceilings_cache.h"
#include "render/particle_renderer.h"

namespace ks {

class ImageScene;
class NBodyScene;
class LabRenderer;

struct FrameStats {
  double fps = 0.0;              // smoothed over the last quarter second
  double frameMs = 0.0;
  unsigned long long frames = 0;
};

struct PatternParams {
  bool animate = true;
  float speed = 1.0f;
  int iterations = 64;
  int size = 512;
};

// Where the last frame's time went (milliseconds). Kernels from OpenCL events,
// interop stages and render from wall clock / GL timer queries.
struct FrameBreakdown {
  double acquireMs = 0.0, kernelMs = 0.0, releaseMs = 0.0, copyMs = 0.0, renderMs = 0.0;
};
// Acquire, release and copy are the CPU's time for the hand-over; kernelMs is the
// newest kernel run's GPU time (OpenCL events), renderMs the GL timer's.

// A kernel the running scene uses, as the profiling panel's kernel info shows it.
struct ActiveKernel {
  std::string role;     // "n-body step", "rotate", ...
  std::string config;   // the variant and its parameters
  std::string file, options;
  double buildMs = 0.0;
  bool fromDisk = false;  // loaded from the binary cache
  KernelInfo info;
  std::string timedAs;  // its series in the Profiler ("nbody step", "rotate"); empty: not timed
  KernelWork work;      // what one launch does (compute/work_model.h): the roofline's input
};

// The N-body lab: what the user chooses, what the scene publishes, and the panel's
// own working state. Step, reset, verify, save, load and camera reset are commands
// (app/commands.h).
class NBodyState {
 public:
  NBodyChoices choices;
  // What the scene publishes. Only the scene writes it: the compiler refuses anyone
  // else (tests stage readings through NBodyReadingsForTests, tests/).
  const NBodyReadings& readings() const { return readings_; }
  // The panel's file field, which SaveNBodyState and LoadNBodyState use: a path typed
  // for one save or load, not a setting of the lab.
  char statePath[256] = "nbody-state.ksn";

 private:
  friend class NBodyScene;
  friend struct NBodyReadingsForTests;
  NBodyReadings readings_;
};

// The image lab: what the user chooses (kept in settings.json), what the scene
// publishes, and the panel's and view's own working state.
class ImageLabState {
 public:
  ImageLabChoices choices;
  // What the scene publishes. Only the scene writes it: the compiler refuses anyone
  // else (tests stage readings through ImageLabReadingsForTests, tests/).
  const ImageLabReadings& readings() const { return readings_; }
  using View = ImageLabChoices::View;
  // opening files (asked for with OpenImages)
  // Several files dropped or named at once: the set the lab steps through, and which is open.
  std::vector<std::string> fileSet;
  size_t fileIndex = 0;
  // Asks for the next (+1) or previous (-1) file of the set, wrapping round; nothing without a set.
  void stepFileSet(int delta, CommandQueue& commands);
  char openPath[512] = "";
  bool focusOpenPath = false;             // File > Open image...: show the path field and give it the keyboard
  bool selectOpenPath = false;            // ... and select its text when it takes the keyboard
  std::vector<std::string> recent;        // most recent first; kept in settings.json
  // The kernel choices came from settings.json and nothing has run with them yet:
  // if the device cannot run them, the scene goes back to its defaults once.
  bool choicesFromSettings = false;
  // view
  float zoom = 1.0f;
  float panX = 0.0f, panY = 0.0f;
  // Where the pictures are centred, in fractions of the window: the part the panels
  // left free at the last Fit (none yet: the middle column between the panels).
  std::optional<ScreenRect> viewArea;
  // The zoom the last Fit chose: while zoom and pan are still as it left them, the
  // pictures are fitted again when the layout changes (a resize, Tab, Reset layout).
  std::optional<float> fittedZoom;
  std::pair<int, int> fittedResultSize{0, 0};  // the result's size at the last Fit
  std::vector<ScreenRect> shownPictures;  // where the last frame drew them, in pixels (state dump)
  std::vector<std::string> shownLabels;   // side by side: the words drawn on them ("original", "result")
  // inspector: the panel asks for a pixel, the scene answers next frame (readings)
  int inspectX = -1, inspectY = -1;

 private:
  friend class ImageScene;
  friend struct ImageLabReadingsForTests;
  ImageLabReadings readings_;
};

// The panel layout (ui/layout.cpp): panels by the window's edges, each resize follows.
struct LayoutState {
  bool panelsHidden = false;    // Tab: every panel hidden but the picture; menu and status bars stay
  // Where the layout last put each panel that still follows the edges, by title. A panel
  // the user moved or resized is not here: it stays where it was put, kept inside.
  std::map<std::string, ScreenRect> docked;
  // Panels the user moved or resized in this run: they leave their share of a column
  // or the strip to the others (until View > Reset layout).
  std::set<std::string> moved;
  // Panels imgui.ini says followed the edges when the last run ended, not yet shown in
  // this one: they take their place by the edges of this window when they appear.
  std::set<std::string> dockedLastRun;
  // The last frame's display size and Tab, to see a change.
  float displayWidth = 0.0f, displayHeight = 0.0f;
  bool panelsWereHidden = false;
  // A popup (menu, combo list) was open when the last frame's panels were drawn: ImGui
  // closes it on Esc at the start of the next frame, before the shortcuts see the key, and
  // that Esc must not quit too (taken at the shortcuts, it missed a menu opened by that
  // frame's click, and Esc in the frame after it closed the menu and quit).
  bool popupOpenWhenDrawn = false;
};

// The switches the session has taken from the command queue and not yet done (a
// reading: the session writes it). A device switch waits for its kernels to build;
// every switch waits while the scene's work runs on another thread
// (app/scene_replacement.h). The newest command of each kind wins.
struct PendingSwitches {
  std::optional<size_t> device;  // index into AppState::devices
  std::optional<SceneKind> scene;
  std::optional<InteropPath> interop;
};

struct AppState {
  // A run starts by asking for the pictures to be fitted: the view does it the first
  // time it draws them.
  AppState() { commands.push(FitPictures{}); }
  // What panels, shortcuts, menus, start-up and drops ask for (app/commands.h).
  CommandQueue commands;
  PendingSwitches switching;
  // devices
  std::vector<DeviceDescriptor> devices;
  std::optional<size_t> activeDevice;      // index into devices
  std::string deviceMessage;               // outcome of the last switch
  // A device switch, a scene or a hot reload being prepared: what it still builds off the
  // frame ("switching to <device>: building kernel ... for <device>", "opening the image lab:
  // building kernel display for <device>", "kernels/nbody.cl changed: building kernel ..."),
  // while the running scene goes on; else empty.
  std::string preparing;
  char extensionFilter[64] = "";
  // graphics
  std::string surfaceDescription, glRenderer, glVersion;
  std::string resourcesDir;  // resources/ (icon, File > Examples); empty when not found
  std::string uiFont;        // the UI's font and size, or why ImGui's built-in one
  std::string windowIcon;    // the icon files the window shows; empty: none
  // interop: the active path, why each path is or is not available
  InteropPath interopPath = InteropPath::Host;
  std::vector<InteropPathStatus> interopPaths;
  std::string interopMessage;
  FrameBreakdown breakdown;
  FramePhases phases;  // the main loop's CPU phases of this frame
  FrameProfiler profiler;                  // rolling statistics per stage and kernel
  DeviceCeilings ceilings;                 // measured ceilings and vendor peak FP32 of the active device
  GpuTelemetryState telemetry;             // clocks, power, throttling via NVML (compute/gpu_monitor.h)
  CeilingsCache ceilingsCache;             // measured ceilings per device (app/ceilings_runner.h)
  std::filesystem::path ceilingsFile;      // <configDir>/ceilings.json; empty: kept in memory only
  std::vector<ActiveKernel> activeKernels;  // what the scene runs now (filled by the scene)
  struct ProgramCacheCounts {
    size_t hits = 0, misses = 0, diskHits = 0, diskMisses = 0;
    std::string diskDir;  // empty: no disk cache
    std::string diskOffReason;  // why there is none, when not --no-program-cache
  } programCache;
  bool headless = false;
  bool vsync = true;
  double panelsPerSecond = 0.0;  // the panels are built at most this often (0: every frame; app/panel_pacing.h)
  FrameStats stats;
  SceneKind scene = SceneKind::NBody;
  PatternParams pattern;
  NBodyState nbody;
  ImageLabState image;
  RunsState runs;  // recordings, sweeps, comparison table, tuning cache
  bool showHelp = false;
  PanelVisibility panels;
  LayoutState layout;
  std::vector<std::pair<std::string, ScreenRect>> panelRects;  // the windows shown this frame, by title
  // Where the 3D view (the N-body particles) draws: the largest part of the window the
  // panels leave free, as fractions of the window (y down); the whole window until set.
  ScreenRect sceneArea{0.0f, 0.0f, 1.0f, 1.0f};
  // builds that failed (label, device, error and compiler log), newest last
  struct BuildFailure {
    std::string label, device, error, log;
  };
  std::vector<BuildFailure> buildFailures;
  // messages for the log (errors the user must see, never fatal)
  std::deque<std::string> log;
  bool quitConfirmShown = false;  // "Quit kernelscope?": recorded runs would be lost
  void report(const std::string& message);
  // The image lab is decoding a file or writing a result off the frame loop. (Only
  // while it is the scene: leaving it drops a decode, and a save finishes first.)
  bool imageWorkUnderWay() const {
    // A run in flight counts, except while spinning: a new one starts as each ends.
    return scene == SceneKind::Image && !(image.readings().loadingPath.empty() && image.readings().savingPath.empty() &&
                                          (!image.readings().runInFlight || image.choices.spin));
  }
};

}  // namespace ks
