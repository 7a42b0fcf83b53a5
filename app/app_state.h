#pragma once
// The one state struct the panels read and write. The frame loop acts on the
// requests panels leave here (device switch, quit) between frames.
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/settings.h"
#include "compute/device_catalog.h"
#include "compute/cl_objects.h"
#include "compute/interop/interop_path.h"
#include "compute/nbody_model.h"
#include "compute/nbody_variants.h"
#include "render/particle_renderer.h"

namespace ks {

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

enum class SceneKind { NBody, Julia };

// The N-body scene's settings and readings. `config`/`bodies`/`preset`/`seed`
// are what the user asks for; the scene applies them between frames and, when a
// request fails, puts the running values back and says why in `message`.
struct NBodyState {
  NBodyConfig config;
  bool configFromUser = false;  // false: the tuned configuration for the device
  NBodyParams params;
  int bodies = 16384;
  NBodyPreset preset = NBodyPreset::DiskGalaxy;
  int seed = 1;
  bool paused = false;
  int stepsPerFrame = 1;
  bool stepRequested = false;   // single step while paused
  bool resetRequested = false;  // regenerate from preset/bodies/seed
  bool verifyRequested = false;
  char statePath[256] = "nbody-state.ksn";
  bool saveRequested = false, loadRequested = false;
  ParticleStyle style;
  bool autoSpeedScale = true;
  // readings
  size_t runningBodies = 0;
  NBodyConfig runningConfig;
  KernelInfo kernelInfo;
  double kernelMs = 0.0;            // per step, last frame
  double interactionsPerSecond = 0.0;
  double stepsPerSecond = 0.0;
  unsigned long long steps = 0;
  std::string message;
  std::string verification;
  bool cameraResetRequested = true;
};

struct AppState {
  // devices
  std::vector<DeviceDescriptor> devices;
  std::optional<size_t> activeDevice;      // index into devices
  std::optional<size_t> requestedDevice;   // set by the UI; handled between frames
  std::string deviceMessage;               // outcome of the last switch
  char extensionFilter[64] = "";
  // graphics
  std::string surfaceDescription, glRenderer, glVersion;
  // interop: the active path, why each path is or is not available, and a
  // request from the UI to switch (handled between frames)
  InteropPath interopPath = InteropPath::Host;
  std::vector<InteropPathStatus> interopPaths;
  std::optional<InteropPath> requestedInterop;
  std::string interopMessage;
  FrameBreakdown breakdown;
  bool headless = false;
  bool vsync = true;
  FrameStats stats;
  SceneKind scene = SceneKind::NBody;
  std::optional<SceneKind> requestedScene;
  PatternParams pattern;
  NBodyState nbody;
  bool showHelp = false;
  bool fullscreenRequested = false;
  PanelVisibility panels;
  // builds that failed (label, device, error and compiler log), newest last
  struct BuildFailure {
    std::string label, device, error, log;
  };
  std::vector<BuildFailure> buildFailures;
  // messages for the log (errors the user must see, never fatal)
  std::deque<std::string> log;
  bool quitRequested = false;
  void report(const std::string& message);
};

}  // namespace ks
