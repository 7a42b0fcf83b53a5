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
  for (const auto& [c, why] : plan.refused) {
    ui.results.push_back(refusedHistogramRun(device, c, layout_, why));
    histogram_.results.push_back(c);
  }
  histogram_.queue = plan.valid;
  ui.total = plan.total();
  ui.refused = plan.refused.size();
  return true;
}

void SweepRunner::applyHistogramBest(AppState& state, size_t best) {
  SweepUiState& ui = state.runs.sweep;
  const HistogramConfig& c = histogram_.results[best];
  ImageLabState& lab = state.image;
  lab.histogramVariant = c.variant;
  lab.histogramChoice = c;  // the lab counts the channels it shows (countedChannels follows them)
  lab.dirty = true;
  if (state.scene != SceneKind::Image) state.requestedScene = SceneKind::Image;
  ui.message = "applied " + ui.results[best].name + " to the image lab's histogram (measured on " +
               describeImageLayout(layout_) + ")";
}

}  // namespace ks
