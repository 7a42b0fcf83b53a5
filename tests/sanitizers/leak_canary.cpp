// Proof that LeakSanitizer, with the drivers kept loaded
// (keep_libraries_loaded.c), reports our leaks and only those: runs a few
// frames of the N-body and Julia scenes (PoCL and llvmpipe both at work), then,
// with --leak, loses a block of our own. scripts/test-hardening.sh expects a
// clean exit without --leak, and a report of exactly that block with it.
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <utility>

#include "app/app_state.h"
#include "app/render_surface.h"
#include "app/session.h"

namespace {
// Where the deliberate leak goes: overwritten, so nothing points at it any more.
void* volatile lastBlock = nullptr;
}  // namespace

int main(int argc, char** argv) {
  const bool leak = argc > 1 && std::strcmp(argv[1], "--leak") == 0;
  // Exit 77 (skipped) only when the machine lacks EGL or OpenCL, each said
  // apart; anything failing after that is a failure (exit 1), never a skip.
  std::unique_ptr<ks::RenderSurface> surface;
  try {
    surface = ks::createHeadlessSurface(160, 120);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "leak_canary: skipped: no headless GL context: %s\n", e.what());
    return 77;
  }
  ks::DeviceCatalog devices;
  try {
    devices = ks::requireDevices();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "leak_canary: skipped: no OpenCL device: %s\n", e.what());
    return 77;
  }
  try {
    ks::AppOptions options;
    options.kernelsDir = KERNELSCOPE_SOURCE_KERNELS_DIR;
    options.nbody.bodies = 128;
    ks::AppState state;
    state.pattern.size = 64;
    ks::Session session(std::move(devices), options, ks::Settings{}, *surface, state);
    for (int frame = 0; frame < 6; ++frame) {
      if (frame == 3) state.commands.push(ks::OpenScene{ks::SceneKind::Julia});
      session.applyRequests(state);
      session.update(state, 1.0 / 60.0);
      session.draw(state, 160, 120);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "leak_canary: FAIL: the session failed: %s\n", e.what());
    return 1;
  }
  if (leak) {
    lastBlock = new char[4321];
    lastBlock = nullptr;
  }
  std::printf("leak_canary: ran %s\n", leak ? "and leaked 4321 bytes" : "without leaking");
  return 0;
}
