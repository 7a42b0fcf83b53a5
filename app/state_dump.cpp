#include "app/state_dump.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "app/app_state.h"
#include "app/kernel_bounds.h"

namespace ks {
namespace {

// The Profiler's clocks and power: the newest sample's figures (null where the
// device gave none), or why there are none.
nlohmann::json telemetryJson(const GpuTelemetryState& t) {
  using nlohmann::json;
  json j = {{"available", t.available}, {"status", t.status}, {"nvml_device", t.nvmlDevice}, {"samples", t.samplesSeen}};
  if (!t.available || t.history.empty()) return j;
  const GpuSample& s = t.history.back();
  auto value = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  j["sm_clock_mhz"] = value(s.smClockMHz);
  j["mem_clock_mhz"] = value(s.memClockMHz);
  j["power_w"] = value(s.powerW);
  j["temperature_c"] = value(s.temperatureC);
  j["energy_j"] = value(s.energyJ);
  j["throttle_mask"] = s.throttleReasons ? json(*s.throttleReasons) : json(nullptr);
  j["throttle_reasons"] = s.throttleReasons ? json(throttleReasonWords(*s.throttleReasons)) : json(nullptr);
  j["throttled"] = s.throttleReasons ? json(clockThrottled(*s.throttleReasons)) : json(nullptr);
  return j;
}

}  // namespace

Result<void> writeStateDump(const AppState& state, const std::filesystem::path& file) {
  using nlohmann::json;
  json j;
  j["scene"] = state.scene == SceneKind::Image ? "image" : state.scene == SceneKind::Julia ? "julia" : "nbody";
  j["device"] = state.activeDevice ? state.devices[*state.activeDevice].displayName() : "";
  j["interop"] = interopPathName(state.interopPath);
  j["frames"] = state.stats.frames;
  // Recorded runs no export has written, and whether "Quit kernelscope?" is being asked about them.
  j["runs"] = {{"count", state.runs.runs.size()}, {"not_exported", state.runs.unexportedRuns()},
               {"quit_question", state.quitConfirmShown}};
  j["kernel_bounds"] = json::array();
  for (const TimedKernelBound& k : timedKernelBounds(state)) {
    json uses = json::array();
    for (const ResourceUse& u : k.bound.uses)
      uses.push_back({{"resource", u.label}, {"achieved", u.achieved}, {"ceiling", u.limit}, {"fraction", u.fraction()}});
    j["kernel_bounds"].push_back({{"kernel", k.name}, {"median_ms", k.ms}, {"bound", k.bound.label()}, {"uses", uses}});
  }
  j["ui"] = {{"font", state.uiFont}, {"window_icon", state.windowIcon}, {"resources_dir", state.resourcesDir}};
  if (state.image.readings().width > 0) {
    // Screen rectangles [x0, y0, x1, y1] in pixels: where the last frame drew the pictures.
    json pictures = json::array();
    for (const ScreenRect& r : state.image.shownPictures) pictures.push_back({r.x0, r.y0, r.x1, r.y1});
    j["image"] = {{"path", state.image.readings().path},
                  {"width", state.image.readings().width},
                  {"height", state.image.readings().height},
                  {"channels", state.image.readings().channels},
                  {"result_width", state.image.readings().resultWidth},
                  {"result_height", state.image.readings().resultHeight},
                  {"angle", state.image.choices.angle},
                  {"spin_degrees_per_second",
                   state.image.choices.spin ? json(state.image.choices.spinDegreesPerSecond) : json(nullptr)},
                  {"pipeline_runs", state.image.readings().pipelineRuns},
                  {"run_in_flight", state.image.readings().runInFlight},
                  {"view", imageLabViewName(state.image.choices.view)},
                  {"running_rotate", state.image.readings().runningRotate},
                  {"running_transpose",
                   state.image.choices.transpose ? json(state.image.readings().runningTranspose) : json(nullptr)},
                  {"running_histogram", state.image.readings().runningHistogram},
                  {"message", state.image.readings().message},
                  {"loading", state.image.readings().loadingPath.empty() ? json(nullptr)
                                                                         : json(state.image.readings().loadingPath)},
                  {"pictures", std::move(pictures)},
                  {"file_set", state.image.fileSet},
                  {"file_index", state.image.fileIndex}};
  } else {
    j["image"] = nullptr;
  }
  // The windows' screen rectangles, as the pictures'.
  j["panels"] = json::object();
  for (const auto& [name, r] : state.panelRects) j["panels"][name] = {r.x0, r.y0, r.x1, r.y1};
  if (state.nbody.readings().runningBodies > 0) {
    const NBodyConservationReadings& c = state.nbody.readings().conservation;
    j["nbody"] = {{"bodies", state.nbody.readings().runningBodies},
                  {"config", describeNBodyConfig(state.nbody.readings().runningConfig)},
                  {"steps", state.nbody.readings().steps}};
    j["nbody"]["conservation"] = {{"baseline_step", c.baselineStep},
                                  {"last_step", c.lastStep},
                                  {"measurements", c.energyDrift.size()},
                                  {"energy_drift", c.hasDrift ? json(c.drift.energy) : json(nullptr)},
                                  {"momentum_drift", c.hasDrift ? json(c.drift.momentum) : json(nullptr)},
                                  {"angular_momentum_drift", c.hasDrift ? json(c.drift.angularMomentum) : json(nullptr)},
                                  {"sums_in_double", c.sumsInDouble},
                                  {"unavailable", c.unavailable}};
  } else
    j["nbody"] = nullptr;
  // The profiling panel's figures: per stage / kernel statistics, ceilings, kernel info.
  j["profiler"] = {{"window", state.profiler.window()}, {"series", json::object()}};
  for (const auto& series : state.profiler.series()) {
    const SampleSummary s = series.samples.summary();
    j["profiler"]["series"][series.name] = {{"kernel", series.kernel}, {"count", s.count}, {"median_ms", s.median},
                                            {"mean_ms", s.mean}, {"p95_ms", s.p95}, {"max_ms", s.max}};
  }
  // Each measured ceiling by its key (null when there is none), how it was measured or why not.
  json ceilings = {{"peak_fp32_gflops", state.ceilings.peak ? json(state.ceilings.peak->gflops) : json(nullptr)},
                   {"measured", state.ceilings.measured.time},
                   {"measuring", state.ceilings.measuring}};
  for (size_t i = 0; i < kCeilingCount; ++i) {
    const CeilingFigure& f = state.ceilings.measured.figures[i];
    const char* key = ceilingName(ceilingAt(i)).key;
    ceilings[key] = f.measured() ? json(f.value) : json(nullptr);
    ceilings["how"][key] = f.measured() ? f.method : f.error;
  }
  j["ceilings"] = ceilings;
  j["gpu_telemetry"] = telemetryJson(state.telemetry);
  j["kernels"] = json::array();
  for (const auto& k : state.activeKernels)
    j["kernels"].push_back({{"role", k.role},
                            {"file", k.file},
                            {"options", k.options},
                            {"work_group_size", k.info.workGroupSize},
                            {"launchable_work_group_size", k.info.launchableWorkGroupSize()},
                            {"preferred_multiple", k.info.preferredMultiple},
                            {"local_mem_bytes", k.info.localMemBytes},
                            {"private_mem_bytes", k.info.privateMemBytes},
                            {"build_ms", k.buildMs},
                            {"from_binary_cache", k.fromDisk}});
  j["log"] = json::array();
  for (const auto& line : state.log) j["log"].push_back(line);
  std::ofstream out(file);
  out << j.dump(2) << '\n';
  if (!out) return Error("cannot write the state dump '" + file.string() + "'", kExitFailure, ErrorDetails{{}, {}, file});
  return {};
}

}  // namespace ks
