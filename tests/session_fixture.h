#pragma once
// The app's Session on a headless GL surface and the OpenCL devices, started the
// way main() starts it, for the end-to-end tests (session, hot reload, sweeps,
// profiler, soak). Without a GL context or an OpenCL device the test skips and
// says which is missing, or fails where KS_REQUIRE lists it (test_require.h).
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "app/app_state.h"
#include "app/render_surface.h"
#include "app/session.h"
#include "lab/tuning_cache.h"
#include "test_require.h"

namespace ks::test {

// What a Session needs besides its options; `missing` says why there is none,
// `capability` which one ("gl" or "opencl", for KS_NEED).
struct SessionParts {
  std::unique_ptr<RenderSurface> surface;
  DeviceCatalog catalog;
  std::string missing;
  std::string capability;
};

inline SessionParts sessionParts(int width, int height) {
  SessionParts parts;
  try {
    parts.surface = createHeadlessSurface(width, height);
  } catch (const std::exception& e) {
    parts.missing = std::string("no headless GL context: ") + e.what();
    parts.capability = "gl";
    return parts;
  }
  try {
    parts.catalog = requireDevices();
  } catch (const std::exception& e) {
    parts.missing = e.what();
    parts.capability = "opencl";
  }
  return parts;
}

// Ceilings for every device of the catalog, as a second start of the app finds them
// in its cache: no measurement begins. A window run measures the ceilings a piece at a
// time with the N-body scene's steps held meanwhile (app/ceilings_runner.h), so tests
// that count steps per frame start with these; the tests of the measurement itself
// (test_ceilings, test_frame_stalls) set SessionFixture::ceilingsKnown_ to false. The
// figures say they were not measured: no test reads them as a device's.
inline void putKnownCeilings(AppState& state, const DeviceCatalog& catalog) {
  for (const DeviceDescriptor& device : catalog.devices) {
    MeasuredCeilings& known = state.ceilingsCache.devices[tuningKey(device)];
    known.time = "not measured: a test session's stand-in";
    for (CeilingFigure& figure : known.figures) figure.error = "not measured: a test session";
  }
}

// A small N-body scene from the source tree's kernels: quick on PoCL.
inline AppOptions smallSessionOptions(size_t bodies) {
  AppOptions options;
  // $KS_KERNELS_DIR: a mutated copy (scripts/mutation-check.sh), as test_devices.h.
  const char* dir = std::getenv("KS_KERNELS_DIR");
  options.kernelsDir = dir && *dir ? std::string(dir) : std::string(KERNELSCOPE_SOURCE_KERNELS_DIR);
  options.nbody.bodies = bodies;
  options.nbody.explicitOptions = {"--n"};
  // Every frame launches its steps, as tests that count them expect, however loaded the
  // machine (test_frame_stalls checks the window's default).
  options.nbodyStepWaitMs = 120000.0;
  return options;
}

// Fixture: configure() adjusts options_ and state_ before the session starts;
// frame() does what the frame loop does, minus ImGui.
class SessionFixture : public ::testing::Test {
 protected:
  SessionFixture(int width, int height, size_t bodies)
      : width_(width), height_(height), options_(smallSessionOptions(bodies)) {}
  virtual void configure() {}
  void SetUp() override {
    SessionParts parts = sessionParts(width_, height_);
    KS_NEED(parts.capability, parts.missing);
    surface_ = std::move(parts.surface);
    configure();
    if (ceilingsKnown_) putKnownCeilings(state_, parts.catalog);
    session_ = std::make_unique<Session>(std::move(parts.catalog), options_, Settings{}, *surface_, state_);
  }
  // The session goes first: a derived fixture's members (a temporary kernels
  // directory) are destroyed before the base's.
  void TearDown() override { session_.reset(); }
  void frame() {
    session_->applyRequests(state_);
    session_->update(state_, 1.0 / 60.0);
    session_->draw(state_, width_, height_);
  }
  // Frames until an image asked for is decoded and shown, or a result saved: both
  // run off the frame loop; then one more, once the device is idle, which
  // publishes what the last frame's kernels read back (times, histogram, a pixel):
  // frames never wait for those, they arrive a frame later. A device switch asked
  // for is waited for too: it builds the new device's kernels off the frame first;
  // and so is a scene asked for, which builds the kernels it starts with first.
  void frameUntilIdle() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    frame();
    while ((state_.imageWorkUnderWay() || switchPending()) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      frame();
    }
    session_->compute().queue().finish();
    frame();
  }
  // Frames until the device or scene asked for has replaced the running one (it
  // builds its kernels off the frame first), 30 s at most; at least one frame.
  void frameUntilSwitched() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    frame();
    while (switchPending() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      frame();
    }
  }
  // Frames until the N-body configuration chosen runs (or was refused, which puts the
  // running one back in the choice), 60 s at most; at least one frame. A new one's
  // program is built off the frame first (NBodyScene::chosenProgramBuilt).
  void frameUntilChosenConfigRuns() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    frame();
    while (!(state_.nbody.readings().runningConfig == state_.nbody.choices.config) &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      frame();
    }
  }
  // A device or scene asked for and not yet switched to (queued, or its kernels building).
  bool switchPending() const {
    return state_.switching.device || state_.switching.scene || state_.commands.has<SwitchDevice>() ||
           state_.commands.has<OpenScene>();
  }

  int width_, height_;
  bool ceilingsKnown_ = true;  // putKnownCeilings before the session starts (set in a constructor)
  std::unique_ptr<RenderSurface> surface_;
  AppOptions options_;
  AppState state_;
  std::unique_ptr<Session> session_;
};

}  // namespace ks::test
