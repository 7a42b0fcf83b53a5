// The histogram sweep's part of SweepRunner (app/sweep_runner.h): its plan, from
// the histogram descriptor through compute/histogram_sweep, and "Apply best"; the
// frame loop that builds and measures is the runner's own (issue 21, item 1).
#include <algorithm>

#include "app/sweep_runner.h"
#include "compute/histogram_sweep.h"
#include "lab/histogram_runs.h"

namespace ks {

bool SweepRunner::startHistogram(AppState& state, ComputeContext& compute) {
  SweepUiState& ui = state.runs.sweep;
  const DeviceDescriptor& device = compute.device();
  if (!choosePicture(ui, device, histogramBinCount({ui.imageSize, ui.imageSize, ui.channels}) * sizeof(cl_uint)))
    return false;
  HistogramSweepRanges ranges = ui.histogram;
  // A parameter with nothing ticked: each variant's own values (the panel says "(all)").
  std::erase_if(ranges.values, [](const auto& entry) { return entry.second.empty(); });
  const SweepPlan<HistogramConfig> plan = planHistogramSweep(ranges, device, ui.channels);
  queuePlan(ui, histogram_, plan, [&](const HistogramConfig& c, const std::string& why) {
    return refusedHistogramRun(device, c, layout_, why);
  });
  return true;
}

void SweepRunner::applyHistogramBest(AppState& state, size_t best, TuningEntry& entry) {
  SweepUiState& ui = state.runs.sweep;
  const HistogramConfig& c = histogram_.results[best];
  const RunRecord& winner = ui.results[best];
  ImageLabState& lab = state.image;
  lab.choices.histogramVariant = c.variant;
  lab.choices.histogramChoice = c;  // the lab counts the channels it shows (countedChannels follows them)
  state.commands.push(RunImagePipeline{});
  if (state.scene != SceneKind::Image) state.commands.push(OpenScene{SceneKind::Image});
  entry.histogram[layout_.channels] =
      TunedHistogram{c, describeImageLayout(layout_), winner.m.rate, winner.meta.time};
  ui.message += " to the image lab's histogram (measured on " + describeImageLayout(layout_) + ")";
}

}  // namespace ks
