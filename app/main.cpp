// kernelscope: OpenCL kernels at work, live. The whole program in one loop:
// init (options, settings, surface, ImGui, OpenCL), frames, shutdown.
#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "app/app_state.h"
#include "app/bench_image.h"
#include "app/bench_interop.h"
#include "app/bench_nbody.h"
#include "app/bench_transpose.h"
#include "app/cli.h"
#include "app/fps_counter.h"
#include "app/image_lab_settings.h"
#include "app/imgui_layer.h"
#include "app/panels.h"
#include "app/render_surface.h"
#include "app/run_recorder.h"
#include "app/session.h"
#include "app/settings.h"
#include "app/state_dump.h"
#include "app/sweep_runner.h"
#include "app/sweep_runs.h"
#include "compute/cl_error.h"
#include "render/gl_check.h"
#include "render/gpu_timer.h"
#include "render/screenshot.h"

namespace {

using Clock = std::chrono::steady_clock;

int fail(int code, const std::string& message) {
  std::fprintf(stderr, "kernelscope: error: %s\n", message.c_str());
  return code;
}

// Headless when asked, or when there is no display to open a window on.
bool shouldRunHeadless(const ks::AppOptions& options) {
  if (options.headless) return true;
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return !(x11 && *x11) && !(wayland && *wayland);
}

int run(ks::AppOptions options) {
  // ---- init ----------------------------------------------------------------
  // OpenCL first: without a platform nothing else is worth setting up.
  ks::DeviceCatalog catalog = ks::requireDevices();
  if (options.listDevices) {
    std::printf("%s", ks::describeDeviceList(catalog.devices).c_str());
    return ks::kExitOk;
  }
  // N-body benchmark and verification need no GL; like every benchmark they
  // ignore the saved device so that the same command measures the same thing.
  if (options.bench == "nbody") return ks::runNBodyBenchmark(std::move(catalog), options, ks::Settings{});
  if (options.nbody.verify) return ks::runNBodyVerify(std::move(catalog), options, ks::Settings{});
  if (options.bench == "image") return ks::runImageBenchmark(std::move(catalog), options, ks::Settings{});
  if (options.bench == "transpose") return ks::runTransposeSweep(std::move(catalog), options, ks::Settings{});

  const auto configDir = options.configDir.value_or(ks::defaultConfigDir());
  if (options.noProgramCache) options.programCacheDir.reset();
  else if (!options.programCacheDir) options.programCacheDir = ks::defaultProgramCacheDir(options.configDir);
  std::string warning;
  ks::Settings settings = ks::loadSettings(configDir / "settings.json", &warning);
  const bool headless = shouldRunHeadless(options);
  // Only window runs save settings (below), so only they replace a damaged file.
  if (!warning.empty())
    std::fprintf(stderr, "kernelscope: warning: %s; %s\n", warning.c_str(),
                 headless ? "headless runs leave it as it is" : "it will be rewritten at exit");
  if (headless && !options.headless) {
    std::fprintf(stderr, "kernelscope: no display found, rendering headless through EGL\n");
    if (options.frames == 0) options.frames = 300;
  }
  const int width = options.sizeGiven || headless ? options.width : settings.windowWidth;
  const int height = options.sizeGiven || headless ? options.height : settings.windowHeight;
  const bool vsync = options.vsync && settings.vsync;

  std::unique_ptr<ks::RenderSurface> surface;
  try {
    surface = headless ? ks::createHeadlessSurface(width, height) : ks::createWindowSurface(width, height, vsync);
  } catch (const ks::GraphicsError& e) {
    return fail(ks::kExitGraphicsFailed, e.what());
  }

  if (options.bench == "interop")
    return ks::runInteropBenchmark(std::move(catalog), options, ks::Settings{}, *surface);

  ks::AppState state;
  state.headless = headless;
  state.vsync = vsync;
  state.panels = settings.panels;
  // Sweep winners per device; a damaged file is ignored (and rewritten) with a warning.
  std::string tuningWarning;
  state.runs.tuning = ks::loadTuningCache(configDir / "tuning.json", &tuningWarning);
  state.runs.tuningFile = configDir / "tuning.json";
  if (!tuningWarning.empty()) {
    std::fprintf(stderr, "kernelscope: warning: %s\n", tuningWarning.c_str());
    state.report(tuningWarning);
  }
  if (options.record > 0) {  // --record: start recording at once (warm-up first)
    state.runs.recording.frames = options.record;
    state.runs.recording.warmup = options.warmup;
    state.runs.recording.startRequested = true;
  }
  state.surfaceDescription = surface->description();
  state.glRenderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  state.glVersion = reinterpret_cast<const char*>(glGetString(GL_VERSION));

  // Headless runs leave the user's layout alone: no ini file, no settings written.
  ks::ImGuiLayer imgui(*surface, headless ? std::filesystem::path() : configDir / "imgui.ini");
  state.image.recent = settings.recentImages;
  for (const auto& note : ks::restoreImageLab(settings.imageLab, state.image)) state.report(note);
  // Files dropped on the window open in the image lab (the first of several).
  surface->setDropHandler([&state](std::vector<std::string> paths) {
    if (paths.empty()) return;
    state.image.openRequests = std::move(paths);
    state.requestedScene = ks::SceneKind::Image;
  });
  ks::Session session(std::move(catalog), options, settings, *surface, state);
  std::fprintf(stderr, "kernelscope: %s; rendering: %s, %s\n", state.deviceMessage.c_str(),
               state.surfaceDescription.c_str(), state.glRenderer.c_str());

  ks::GpuTimer renderTimer;
  ks::RunRecorder recorder;
  ks::SweepRunner sweeper;

  // ---- frames --------------------------------------------------------------
  const auto start = Clock::now();
  auto last = start;
  ks::FpsCounter fpsCounter;
  bool appliedVsync = vsync;
  std::string lastFrameGlError;
  // --frames N: N frames, and more while an image is still decoding or saving, so that
  // the screenshot and state dump show what was asked for.
  auto framesDone = [&] {
    return options.frames != 0 && state.stats.frames >= static_cast<unsigned long long>(options.frames) &&
           !state.imageWorkUnderWay();
  };
  while (!surface->closeRequested() && !state.quitRequested && !framesDone()) {
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();  // the simulation's step in time
    last = now;
    state.phases.start();  // the frame's wall time, phase by phase (the Profiler's breakdown)
    surface->pollEvents();
    state.phases.mark(ks::FrameStage::Input);

    session.applyRequests(state);
    sweeper.step(state, session);  // at most one configuration per frame: the UI stays responsive
    session.update(state, dt);
    if (state.vsync != appliedVsync) surface->setVsync(appliedVsync = state.vsync);
    state.phases.mark(ks::FrameStage::Update);

    imgui.newFrame(dt);
    ks::handleShortcuts(state, surface->takePressedKeys());
    if (state.fullscreenRequested) {
      state.fullscreenRequested = false;
      surface->toggleFullscreen();
    }
    const ks::SurfaceSize fb = surface->framebufferSize();
    if (const ImGuiIO& io = ImGui::GetIO(); !headless && !io.WantCaptureMouse)
      session.handleInput(io.MouseDelta.x, io.MouseDelta.y, io.MouseDown[0], io.MouseDown[1], io.MouseWheel,
                          fb.height);
    ks::drawPanels(state);
    state.phases.mark(ks::FrameStage::Ui);

    surface->bindDrawTarget();
    renderTimer.begin();
    glClearColor(0.06f, 0.07f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    session.draw(state, fb.width, fb.height);
    imgui.render();
    renderTimer.end();
    state.breakdown.renderMs = renderTimer.lastMs();
    try {
      ks::glCheck("frame");
    } catch (const ks::GlError& e) {
      // A GL error left by this frame's drawing: said in the log (once while it repeats), and the app runs on.
      if (e.what() != lastFrameGlError) state.report(e.what());
      lastFrameGlError = e.what();
    }
    state.phases.mark(ks::FrameStage::Render);

    ++state.stats.frames;
    if (options.screenshot && (framesDone() || surface->closeRequested() || state.quitRequested)) {
      try {
        ks::savePng(surface->capture(), *options.screenshot);
      } catch (const std::exception& e) {
        return fail(ks::kExitFailure, e.what());
      }
    }
    surface->present();
    state.phases.mark(ks::FrameStage::Present);
    // Nothing paces headless frames: while a file decodes or saves they would take the cores it needs.
    if (headless && state.imageWorkUnderWay()) std::this_thread::sleep_for(std::chrono::milliseconds(10));

    fpsCounter.onFrame(std::chrono::duration<double>(Clock::now() - start).count());
    state.stats.fps = fpsCounter.fps();
    state.stats.frameMs = std::chrono::duration<double, std::milli>(Clock::now() - now).count();
    recorder.onFrame(state, state.stats.frameMs, session.compute());
    // The first frame has no frame time of its own (dt from the loop's start) and its
    // kernels include first-run costs: statistics start with the second.
    if (state.stats.frames > 1) ks::recordFrame(state);
  }

  // ---- shutdown ------------------------------------------------------------
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const auto& device = session.compute().device();
  std::printf("kernelscope summary\n");
  std::printf("  device:    %s [%s], driver %s\n", device.displayName().c_str(), ks::deviceKindName(device.kind),
              device.driverVersion.c_str());
  std::printf("  rendering: %s, %s\n", state.surfaceDescription.c_str(), state.glRenderer.c_str());
  std::printf("  frames:    %llu in %.2f s (%.1f FPS)\n", state.stats.frames, seconds,
              seconds > 0 ? state.stats.frames / seconds : 0.0);
  std::printf("  interop:   %s\n", ks::interopPathName(state.interopPath));
  const auto& programs = session.compute().programs();
  std::printf("  programs:  %zu compiled from source, %zu from the binary cache (%s)\n", programs.misses() - programs.diskHits(),
              programs.diskHits(), programs.diskCache() ? programs.diskCache()->dir().c_str() : "binary cache off");
  if (state.scene == ks::SceneKind::NBody)
    std::printf("  n-body:    %zu bodies, %s, %llu steps, last step %.3f ms = %.1f G interactions/s\n",
                state.nbody.runningBodies, ks::describeNBodyConfig(state.nbody.runningConfig).c_str(),
                state.nbody.steps, state.nbody.kernelMs, state.nbody.interactionsPerSecond * 1e-9);
  if (state.scene == ks::SceneKind::Image)  // it recomputes only when the image or a setting changes
    std::printf(
        "  image lab: %s; pipeline runs: %llu, the last: rotate %.3f ms, transpose %.3f, histogram %.3f ms\n",
        (state.image.path.empty() ? state.image.description : state.image.path + " (" + state.image.description + ")")
            .c_str(),
        state.image.pipelineRuns, state.image.rotateMs, state.image.transposeMs, state.image.histogramMs);
  std::printf("  last kernel run: kernels %.3f ms, acquire %.3f, release %.3f, copy %.3f; last frame: render %.3f ms\n",
              state.breakdown.kernelMs, state.breakdown.acquireMs, state.breakdown.releaseMs, state.breakdown.copyMs,
              state.breakdown.renderMs);
  std::printf("  frame breakdown (medians over the last %zu frames, ms): %s\n", state.profiler.window(),
              ks::describeStageMedians(state.profiler).c_str());
  if (options.screenshot) std::printf("  screenshot: %s\n", std::filesystem::absolute(*options.screenshot).c_str());

  if (options.stateDump) {
    if (const std::string error = ks::writeStateDump(state, *options.stateDump); !error.empty())
      std::fprintf(stderr, "kernelscope: warning: %s\n", error.c_str());
  }
  if (options.record > 0) {
    if (state.runs.runs.empty())
      return fail(ks::kExitFailure, "the recording did not finish (" + state.runs.recording.status +
                                        "); --frames must leave room for --warmup + --record frames");
    const ks::RunRecord& run = state.runs.runs.back();
    std::printf("  recording: %zu frames, %.1f FPS, frame median %.3f ms, kernel median %.3f ms p95 %.3f ms\n",
                run.m.frames, run.m.fps, run.m.frameMs.median, run.m.kernelMs.median, run.m.kernelMs.p95);
    if (const int code = ks::writeRunFiles(state.runs.runs, options.nbody.csv, options.nbody.json); code != ks::kExitOk)
      return code;
  }
  if (!headless) {
    settings.recentImages = state.image.recent;
    settings.imageLab = ks::imageLabSettingsOf(state.image);
    const ks::SurfaceSize windowSize = surface->windowSize();
    settings.windowWidth = windowSize.width;
    settings.windowHeight = windowSize.height;
    settings.panels = state.panels;
    settings.vsync = state.vsync;
    settings.devicePlatform = device.platformName;
    settings.deviceName = device.name;
    if (const std::string error = ks::saveSettings(settings, configDir / "settings.json"); !error.empty())
      std::fprintf(stderr, "kernelscope: warning: %s\n", error.c_str());
  }
  return ks::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  ks::AppOptions options;
  if (const auto exitCode = ks::parseCommandLine(argc, argv, options)) return *exitCode;
  try {
    return run(options);
  } catch (const ks::StartupError& e) {
    return fail(e.exitCode(), e.what());
  } catch (const ks::ClError& e) {
    return fail(ks::kExitFailure, e.what());
  } catch (const std::exception& e) {
    return fail(ks::kExitFailure, e.what());
  }
}
