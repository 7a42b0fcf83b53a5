// kernelscope: OpenCL kernels at work, live. Laid out like Dear ImGui's
// example_glfw_opengl3: a run that is not the viewer is picked from a table of
// modes; the viewer is start-up, one frame loop, shutdown.
#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "app/app_state.h"
#include "app/bench_ceilings.h"
#include "app/bench_image.h"
#include "app/bench_interop.h"
#include "app/bench_nbody.h"
#include "app/bench_histogram.h"
#include "app/bench_rotate.h"
#include "app/bench_transpose.h"
#include "app/cli.h"
#include "app/exit_leaving_work.h"
#include "app/fps_counter.h"
#include "app/image_batch.h"
#include "app/image_lab_choices_check.h"
#include "app/render_surface.h"
#include "app/run_recorder.h"
#include "compute/gpu_monitor.h"
#include "app/run_summary.h"
#include "app/session.h"
#include "app/state_dump.h"
#include "app/sweep_runner.h"
#include "compute/cl_error.h"
#include "compute/kernel_files.h"
#include "core/error.h"
#include "io/resources.h"
#include "io/settings.h"
#include "lab/tuning_cache.h"
#include "render/gl_check.h"
#include "render/gpu_timer.h"
#include "render/screenshot.h"
#include "ui/imgui_layer.h"
#include "ui/layout.h"
#include "ui/panels.h"
#ifdef KS_HAVE_MPI
#include "mpi/distributed_nbody.h"
#endif

namespace {

using Clock = std::chrono::steady_clock;

// Headless when asked, or when there is no display to open a window on.
bool shouldRunHeadless(const ks::AppOptions& options) {
  if (options.headless) return true;
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return !(x11 && *x11) && !(wayland && *wayland);
}

std::unique_ptr<ks::RenderSurface> openSurface(bool headless, int width, int height, bool vsync) {
  return headless ? ks::createHeadlessSurface(width, height) : ks::createWindowSurface(width, height, vsync);
}

// ---- modes: runs that are not the viewer --------------------------------------
// Like every benchmark they ignore the saved settings (the device too), so that the
// same command measures the same thing.
struct Mode {
  bool (*chosen)(const ks::AppOptions&);
  int (*run)(ks::DeviceCatalog, const ks::AppOptions&);
};
const Mode kModes[] = {
    {[](const ks::AppOptions& o) { return o.nbody.distributed; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) {
#ifdef KS_HAVE_MPI
       return ks::runDistributedNBodyBenchmark(std::move(c), o, ks::Settings{});
#else
       (void)c;
       (void)o;
       return ks::printError({ks::kExitUsage,
                              "--distributed: this kernelscope was built without MPI (install libopenmpi-dev, "
                              "scripts/deps.sh does, and build again)",
                              {}});
#endif
     }},
    {[](const ks::AppOptions& o) { return o.listDevices; },
     [](ks::DeviceCatalog catalog, const ks::AppOptions&) {
       std::printf("%s", ks::describeDeviceList(catalog.devices).c_str());
       return static_cast<int>(ks::kExitOk);
     }},
    // Image files through the image lab's kernels, compute only: no window, no GL.
    {[](const ks::AppOptions& o) { return o.imageBatch.requested(); },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) { return ks::runImageBatch(std::move(c), o); }},
    {[](const ks::AppOptions& o) { return o.bench == "nbody"; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) { return ks::runNBodyBenchmark(std::move(c), o, ks::Settings{}); }},
    {[](const ks::AppOptions& o) { return o.nbody.verify; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) { return ks::runNBodyVerify(std::move(c), o, ks::Settings{}); }},
    {[](const ks::AppOptions& o) { return o.bench == "image"; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) { return ks::runImageBenchmark(std::move(c), o, ks::Settings{}); }},
    {[](const ks::AppOptions& o) { return o.bench == "transpose"; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) { return ks::runTransposeSweep(std::move(c), o, ks::Settings{}); }},
    {[](const ks::AppOptions& o) { return o.bench == "histogram"; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) { return ks::runHistogramSweep(std::move(c), o, ks::Settings{}); }},
    {[](const ks::AppOptions& o) { return o.bench == "rotate"; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) { return ks::runRotateSweep(std::move(c), o, ks::Settings{}); }},
    {[](const ks::AppOptions& o) { return o.bench == "ceilings"; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) { return ks::runCeilingsBenchmark(std::move(c), o, ks::Settings{}); }},
    {[](const ks::AppOptions& o) { return o.bench == "interop"; },
     [](ks::DeviceCatalog c, const ks::AppOptions& o) {  // GL at the --size asked for
       std::unique_ptr<ks::RenderSurface> surface;
       try {
         surface = openSurface(shouldRunHeadless(o), o.width, o.height, o.vsync);
       } catch (const ks::GraphicsError& e) {
         return ks::printError(ks::reportError(e));
       }
       return ks::runInteropBenchmark(std::move(c), o, ks::Settings{}, *surface);
     }},
};

// The state the viewer starts with: saved panels, sweep winners, a --record to start.
void initialState(ks::AppState& state, const ks::Settings& settings, const ks::AppOptions& options,
                  const std::filesystem::path& configDir) {
  state.panels = settings.panels;
  // Sweep winners per device; a damaged file is ignored (and rewritten) with a warning.
  std::string tuningWarning;
  state.runs.tuning = ks::loadTuningCache(configDir / "tuning.json", &tuningWarning);
  state.runs.tuningFile = configDir / "tuning.json";
  if (!tuningWarning.empty()) {
    std::fprintf(stderr, "kernelscope: warning: %s\n", tuningWarning.c_str());
    state.report(tuningWarning);
  }
  // Measured ceilings per device, likewise.
  std::string ceilingsWarning;
  state.ceilingsCache = ks::loadCeilingsCache(configDir / "ceilings.json", &ceilingsWarning);
  state.ceilingsFile = configDir / "ceilings.json";
  if (!ceilingsWarning.empty()) {
    std::fprintf(stderr, "kernelscope: warning: %s\n", ceilingsWarning.c_str());
    state.report(ceilingsWarning);
  }
  if (options.record > 0) {  // --record: start recording at once (warm-up first)
    state.runs.recording.frames = options.record;
    state.runs.recording.warmup = options.warmup;
    state.commands.push(ks::StartRecording{});
  }
  state.image.recent = settings.recentImages;
  if (auto resources = ks::findResourcesDir(ks::executableDir())) state.resourcesDir = resources->string();
  for (const auto& note : ks::restoreImageLab(settings.imageLab, state.image)) state.report(note);
}

// The UI's font and the window's icon, each said in the log when it could not be had.
void dressWindow(ks::RenderSurface& surface, const ks::ImGuiLayer& imgui, ks::AppState& state) {
  state.uiFont = imgui.fontMessage();
  if (imgui.usesBuiltInFont()) state.report(imgui.fontMessage());
  if (surface.headless() || state.resourcesDir.empty()) return;
  const auto icons = ks::iconFiles(state.resourcesDir);
  if (std::string why = surface.setIcon(icons); !why.empty()) return state.report(why);
  for (const auto& file : icons) state.windowIcon += (state.windowIcon.empty() ? "" : ", ") + file.filename().string();
}

// What a window run keeps for the next one (headless runs leave the user's files alone).
void saveViewerSettings(ks::Settings settings, const ks::AppState& state, const ks::RenderSurface& surface,
                        const ks::DeviceDescriptor& device, const std::filesystem::path& file) {
  settings.recentImages = state.image.recent;
  settings.imageLab = state.image.choices;
  settings.nbody = state.nbody.choices;
  const ks::SurfaceSize windowSize = surface.windowSize();
  settings.windowWidth = windowSize.width;
  settings.windowHeight = windowSize.height;
  settings.panels = state.panels;
  settings.vsync = state.vsync;
  settings.devicePlatform = device.platformName;
  settings.deviceName = device.name;
  if (const auto saved = ks::saveSettings(settings, file); !saved)
    std::fprintf(stderr, "kernelscope: warning: %s\n", saved.error().what());
}

int runViewer(ks::AppOptions options, ks::DeviceCatalog catalog) {
  // ---- start-up ------------------------------------------------------------
  const auto configDir = options.configDir.value_or(ks::defaultConfigDir());
  if (options.noProgramCache) options.programCacheDir.reset();
  else if (!options.programCacheDir) options.programCacheDir = ks::defaultProgramCacheDir(options.configDir);
  // A refused file leaves the defaults; a damaged part of one, that part's defaults.
  const auto read = ks::loadSettings(configDir / "settings.json");
  ks::Settings settings = read ? read->settings : ks::Settings{};
  const std::string warning = read ? read->ignored : read.error().what();
  const bool headless = shouldRunHeadless(options);
  // Only window runs save settings (below), so only they replace a damaged file.
  if (!warning.empty())
    std::fprintf(stderr, "kernelscope: warning: %s; %s\n", warning.c_str(),
                 headless ? "headless runs leave it as it is" : "it will be rewritten at exit");
  if (headless && !options.headless) {
    std::fprintf(stderr, "kernelscope: no display found, rendering headless through EGL\n");
    if (options.frames == 0) options.frames = 300;
  }
  const bool vsync = options.vsync && settings.vsync;
  std::unique_ptr<ks::RenderSurface> surface;
  try {
    surface = openSurface(headless, options.sizeGiven || headless ? options.width : settings.windowWidth,
                          options.sizeGiven || headless ? options.height : settings.windowHeight, vsync);
  } catch (const ks::GraphicsError& e) {
    return ks::printError(ks::reportError(e));
  }

  ks::AppState state;
  state.headless = headless;
  state.vsync = vsync;
  state.panelsPerSecond = options.panelsPerSecond;
  initialState(state, settings, options, configDir);
  if (read)
    for (const auto& problem : read->nbodyProblems) {
      std::fprintf(stderr, "kernelscope: warning: %s\n", problem.c_str());
      state.report(problem);
    }
  state.surfaceDescription = surface->description();
  state.glRenderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  state.glVersion = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  // Headless runs leave the user's layout alone: no ini file, no settings written.
  ks::ImGuiLayer imgui(*surface, headless ? std::filesystem::path() : configDir / "imgui.ini");
  dressWindow(*surface, imgui, state);
  ks::keepLayoutInIni(state);  // which panels follow the window's edges, beside their places
  // Files dropped on the window open in the image lab (the first of several).
  surface->setDropHandler([&state](std::vector<std::string> paths) {
    std::optional<ks::OpenImages> open = ks::OpenImages::of(std::move(paths));
    if (!open) return;
    state.commands.push(std::move(*open));
    state.commands.push(ks::OpenScene{ks::SceneKind::Image});
  });
  ks::Session session(std::move(catalog), options, settings, *surface, state);
  std::fprintf(stderr, "kernelscope: %s; rendering: %s, %s\n", state.deviceMessage.c_str(),
               state.surfaceDescription.c_str(), state.glRenderer.c_str());

  ks::GpuTimer renderTimer;
  ks::RunRecorder recorder;
  ks::GpuMonitor gpuMonitor;  // NVML, sampled on a thread of its own
  ks::SweepRunner sweeper;
  ks::PanelPacing panelPacing(options.panelsPerSecond);
  unsigned long long panelsSceneGeneration = 0;  // the scene the panels were last built for

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
  bool quit = false;  // a Quit command was taken this frame
  while (!quit && !framesDone()) {
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();  // the simulation's step in time
    last = now;
    state.phases.start();  // the frame's wall time, phase by phase (the Profiler's breakdown)
    surface->pollEvents();
    // The close button asks as Esc does when recorded runs would be lost.
    if (surface->takeCloseRequest()) ks::requestQuit(state);
    state.phases.mark(ks::FrameStage::Input);

    session.applyRequests(state);
    sweeper.step(state, session);  // at most one configuration per frame: the UI stays responsive
    session.update(state, dt);
    if (state.vsync != appliedVsync) surface->setVsync(appliedVsync = state.vsync);
    state.phases.mark(ks::FrameStage::Update);

    // The panels at most options.panelsPerSecond times a second; the last frames of a
    // --frames run always (their screenshot and state dump show this frame's figures).
    const bool lastFrames = options.frames != 0 && state.stats.frames + 1 >= static_cast<unsigned long long>(options.frames);
    const bool buildPanels = panelPacing.due(now, lastFrames || session.sceneGeneration() != panelsSceneGeneration);
    panelsSceneGeneration = session.sceneGeneration();
    if (buildPanels) {
      imgui.newFrame(panelPacing.secondsBetweenBuilds());
      ks::handleShortcuts(state, surface->takePressedKeys());
      if (state.commands.takeAny<ks::ToggleFullscreen>()) surface->toggleFullscreen();
      if (const ImGuiIO& io = ImGui::GetIO(); !headless && !io.WantCaptureMouse)
        session.handleInput(io.MouseDelta.x, io.MouseDelta.y, io.MouseDown[0], io.MouseDown[1], io.MouseWheel,
                            surface->framebufferSize().height);
      ks::drawPanels(state);
    }
    state.phases.mark(ks::FrameStage::Ui);
    const ks::SurfaceSize fb = surface->framebufferSize();

    surface->bindDrawTarget();
    renderTimer.begin();
    glClearColor(0.06f, 0.07f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    session.draw(state, fb.width, fb.height);
    imgui.render(buildPanels);
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
    quit = state.commands.takeAny<ks::Quit>();
    if (options.screenshot && (framesDone() || quit)) {
      try {
        ks::savePng(surface->capture(), *options.screenshot);
      } catch (const std::exception& e) {
        return ks::printError(ks::reportError(e));
      }
    }
    surface->present();
    state.phases.mark(ks::FrameStage::Present);
    // Nothing paces headless frames: while a file decodes or saves they would take the cores it needs.
    if (headless && state.imageWorkUnderWay()) std::this_thread::sleep_for(std::chrono::milliseconds(10));

    fpsCounter.onFrame(std::chrono::duration<double>(Clock::now() - start).count());
    state.stats.fps = fpsCounter.fps();
    state.stats.frameMs = std::chrono::duration<double, std::milli>(Clock::now() - now).count();
    gpuMonitor.publish(state.telemetry, session.compute().device(), state.devices);
    recorder.onFrame(state, state.stats.frameMs, session.compute());
    // The first frame has no frame time of its own (dt from the loop's start) and its
    // kernels include first-run costs: statistics start with the second.
    if (state.stats.frames > 1) ks::recordFrame(state);
  }

  // ---- shutdown ------------------------------------------------------------
  surface->hide();  // at once: what follows may take a moment
  ks::printRunSummary(state, session, options, std::chrono::duration<double>(Clock::now() - start).count());
  if (options.stateDump) {
    if (const ks::Result<void> dumped = ks::writeStateDump(state, *options.stateDump); !dumped)
      std::fprintf(stderr, "kernelscope: warning: %s\n", dumped.error().what());
  }
  if (const int code = ks::finishRecording(state, options); code != ks::kExitOk) return code;
  if (!headless) saveViewerSettings(settings, state, *surface, session.compute().device(), configDir / "settings.json");
  // A launch, a run or a build still going on another thread would hold the teardown
  // until it ends (seconds on a CPU device): everything is written, so end now.
  if (session.workInFlight() || state.runs.sweep.holdsDevice) {
    imgui.saveLayout();
    ks::exitLeavingWorkRunning(ks::kExitOk);
  }
  return ks::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  ks::AppOptions options;
  if (const auto exitCode = ks::parseCommandLine(argc, argv, options)) return *exitCode;
  try {
    // OpenCL first: without a platform nothing else is worth setting up.
    ks::DeviceCatalog catalog = ks::requireDevices();
    for (const Mode& mode : kModes)
      if (mode.chosen(options)) return mode.run(std::move(catalog), options);
    return runViewer(options, std::move(catalog));
  } catch (const std::exception& e) {
    // A ks::Error leaves with its own exit code (a StartupError's, or 1 for a ClError,
    // whose message names the OpenCL error); anything else with 1.
    return ks::printError(ks::reportError(e));
  }
}
