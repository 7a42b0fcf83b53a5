#pragma once
// The one state struct the panels read and write. The frame loop acts on the
// requests panels leave here (device switch, quit) between frames.
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/settings.h"
#include "compute/device_catalog.h"

namespace ks {

struct FrameStats {
  double fps = 0.0;              // smoothed over the last half second
  double frameMs = 0.0;
  unsigned long long frames = 0;
};

struct PatternParams {
  bool animate = true;
  float speed = 1.0f;
  int iterations = 64;
  double kernelMs = 0.0;  // last kernel time from its OpenCL event
  double copyMs = 0.0;    // read back + texture upload (host-copy path)
  int size = 512;
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
  std::string interopPath = "host copy";   // the only path until the interop layer lands
  bool headless = false;
  bool vsync = true;
  FrameStats stats;
  PatternParams pattern;
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
