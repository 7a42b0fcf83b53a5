// Proof that LeakSanitizer, with the drivers kept loaded
// (keep_libraries_loaded.c), reports our leaks and only those: runs a few
// frames of the N-body and Julia scenes (PoCL and llvmpipe both at work), then,
// with --leak, loses a block of our own. scripts/test-hardening.sh expects a
// clean exit without --leak, and a report of exactly that block with it.
#include <cstdio>
#include <cstring>
#include <exception>

#include "app/app_state.h"
#include "app/render_surface.h"
#include "app/session.h"

namespace {
// Where the deliberate leak goes: overwritten, so nothing points at it any more.
void* volatile lastBlock = nullptr;
}  // namespace

int main(int argc, char** argv) {
  const bool leak = argc > 1 && std::strcmp(argv[1], "--leak") == 0;
  try {
    auto surface = ks::createHeadlessSurface(160, 120);
    ks::AppOptions options;
    options.kernelsDir = KERNELSCOPE_SOURCE_KERNELS_DIR;
    options.nbody.bodies = 128;
    ks::AppState state;
    state.pattern.size = 64;
    ks::Session session(ks::requireDevices(), options, ks::Settings{}, *surface, state);
    for (int frame = 0; frame < 6; ++frame) {
      if (frame == 3) state.requestedScene = ks::SceneKind::Julia;
      session.applyRequests(state);
      session.update(state, 1.0 / 60.0);
      session.draw(state, 160, 120);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "leak_canary: cannot run a session: %s\n", e.what());
    return 77;  // skipped: the machine lacks OpenCL or EGL
  }
  if (leak) {
    lastBlock = new char[4321];
    lastBlock = nullptr;
  }
  std::printf("leak_canary: ran %s\n", leak ? "and leaked 4321 bytes" : "without leaking");
  return 0;
}
