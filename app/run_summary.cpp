#include "app/run_summary.h"

#include <cstdio>
#include <filesystem>

#include "app/kernel_bounds.h"
#include "app/nbody_split_figures.h"
#include "app/session.h"
#include "compute/plain_config_words.h"
#include "lab/sweep_runs.h"

namespace ks {

// The step split over devices: medians over the last frames, each device's own line.
static void printSplitSummary(const AppState& state) {
  const NBodySplitReadings& split = state.nbody.readings().split;
  const RunSplit figures = nbodySplitFigures({split.recent.begin(), split.recent.end()});
  std::printf("  split:     %zu devices, medians over the last %zu frames: exchange %.3f ms per step, load balance "
              "%.1f %%, estimated parallel efficiency %.1f %%, slices re-sized %u times\n",
              split.running.size(), split.recent.size(), figures.exchangeMs, figures.loadBalance * 100.0,
              figures.parallelEfficiency * 100.0, split.rebalances);
  const std::vector<double> other = nbodySplitOtherMedians({split.recent.begin(), split.recent.end()});
  for (size_t d = 0; d < split.running.size(); ++d)
    std::printf("  split device %zu: %s, %zu bodies, kernel %.3f ms median per step, busy before it %.3f ms\n", d,
                split.running[d] < state.devices.size() ? state.devices[split.running[d]].displayName().c_str() : "?",
                d < split.sliceBodies.size() ? split.sliceBodies[d] : size_t{0},
                d < figures.deviceKernelMs.size() ? figures.deviceKernelMs[d] : 0.0, d < other.size() ? other[d] : 0.0);
}

void printRunSummary(const AppState& state, const Session& session, const AppOptions& options, double seconds) {
  const auto& device = session.compute().device();
  std::printf("kernelscope summary\n");
  std::printf("  device:    %s [%s], driver %s\n", device.displayName().c_str(), deviceKindName(device.kind),
              device.driverVersion.c_str());
  std::printf("  rendering: %s, %s\n", state.surfaceDescription.c_str(), state.glRenderer.c_str());
  std::printf("  frames:    %llu in %.2f s (%.1f FPS)\n", state.stats.frames, seconds,
              seconds > 0 ? state.stats.frames / seconds : 0.0);
  std::printf("  interop:   %s\n", interopPathName(state.interopPath));
  const auto& programs = session.compute().programs();
  const std::string diskCache = programs.diskCache()              ? programs.diskCache()->dir().string()
                                : programs.diskOffReason().empty() ? std::string("binary cache off")
                                                                   : "binary cache off: " + programs.diskOffReason();
  std::printf("  programs:  %zu compiled from source, %zu from the binary cache (%s)\n", programs.misses() - programs.diskHits(),
              programs.diskHits(), diskCache.c_str());
  if (state.scene == SceneKind::NBody)
    std::printf("  n-body:    %zu bodies, %s, %llu steps, last step %.3f ms = %.1f G interactions/s\n",
                state.nbody.readings().runningBodies,
                plainConfigurationWords(describeNBodyConfig(state.nbody.readings().runningConfig)).c_str(),
                state.nbody.readings().steps, state.nbody.readings().kernelMs,
                state.nbody.readings().interactionsPerSecond * 1e-9);
  if (state.scene == SceneKind::NBody && !state.nbody.readings().particleDrawing.empty())
    std::printf("  particles: %s\n", state.nbody.readings().particleDrawing.c_str());
  if (state.scene == SceneKind::NBody && state.nbody.readings().split.active()) printSplitSummary(state);
  if (state.scene == SceneKind::Image)  // it recomputes only when the image or a setting changes
    std::printf("  image lab: %s; pipeline runs: %llu, the last: rotate %.3f ms, transpose %.3f, histogram %.3f ms\n",
                (state.image.readings().path.empty()
                     ? state.image.readings().description
                     : state.image.readings().path + " (" + state.image.readings().description + ")")
                    .c_str(),
                state.image.readings().pipelineRuns, state.image.readings().rotateMs,
                state.image.readings().transposeMs, state.image.readings().histogramMs);
  std::printf("  last kernel run: kernels %.3f ms, acquire %.3f, release %.3f, copy %.3f; last frame: render %.3f ms\n",
              state.breakdown.kernelMs, state.breakdown.acquireMs, state.breakdown.releaseMs, state.breakdown.copyMs,
              state.breakdown.renderMs);
  std::printf("  %s\n", describeFrameBreakdown(state.profiler).c_str());
  if (state.panelsPerSecond > 0.0)
    std::printf("  panels:    built at most %g times a second (--panel-rate); frames in between draw them as last "
                "built, so their UI stage is near 0\n",
                state.panelsPerSecond);
  // Each kernel against the ceilings measured on this device (the Profiler's roofline).
  for (const TimedKernelBound& k : timedKernelBounds(state)) {
    const std::string bound = k.bound.label();
    std::printf("  bound:     %s, median %.3f ms: %s\n", k.name.c_str(), k.ms,
                bound.empty() ? "no measured ceiling for its work" : bound.c_str());
  }
  if (options.screenshot) std::printf("  screenshot: %s\n", std::filesystem::absolute(*options.screenshot).c_str());
}

int finishRecording(const AppState& state, const AppOptions& options) {
  if (options.record <= 0) return kExitOk;
  if (state.runs.runs.empty()) {
    std::fprintf(stderr,
                 "kernelscope: error: the recording did not finish (%s); --frames must leave room for --warmup + "
                 "--record frames\n",
                 state.runs.recording.status.c_str());
    return kExitFailure;
  }
  const RunRecord& run = state.runs.runs.back();
  std::printf("  recording: %zu frames, %.1f FPS, frame median %.3f ms, kernel median %.3f ms p95 %.3f ms\n",
              run.m.frames, run.m.fps, run.m.frameMs.median, run.m.kernelMs.median, run.m.kernelMs.p95);
  if (const RunEnergy& e = run.m.energy; e.measured())
    std::printf("  power: %.1f W mean (%s), %.4g %s, SM clock %.0f MHz, %s\n", e.watts, e.source.c_str(), e.perUnit,
                e.unit.c_str(), e.smClockMHz, e.throttled ? ("throttled: " + e.throttleReasons).c_str() : "not throttled");
  else
    std::printf("  power: not available (%s)\n", e.source.c_str());
  return writeRunFiles(state.runs.runs, options.nbody.csv, options.nbody.json);
}

}  // namespace ks
