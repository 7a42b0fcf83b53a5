// The rotate sweep's part of SweepRunner (app/sweep_runner.h): its plan and
// "Apply best"; the frame loop that builds and measures is the runner's own.
#include "app/sweep_runner.h"
#include "compute/rotate_sweep_plan.h"
#include "lab/rotate_runs.h"

namespace ks {

bool SweepRunner::startRotate(AppState& state, ComputeContext& compute) {
  SweepUiState& ui = state.runs.sweep;
  const DeviceDescriptor& device = compute.device();
  rotateParams_ = rotateSweepParams();
  if (!choosePicture(ui, device, rotatedLayout({ui.imageSize, ui.imageSize, ui.channels}, rotateParams_).bytes()))
    return false;
  RotateSweepRanges ranges{ui.rotateVariants, {}};
  if (!ui.rotatePixelsPerItem.empty()) ranges.values["pixels_per_item"] = ui.rotatePixelsPerItem;
  if (!ui.rotateRowsPerItem.empty()) ranges.values["rows_per_item"] = ui.rotateRowsPerItem;
  const SweepPlan<RotateConfig> plan = planRotateSweep(ranges, device, ui.channels);
  queuePlan(ui, rotate_, plan, [&](const RotateConfig& c, const std::string& why) {
    return refusedRotateRun(device, c, layout_, rotateParams_, why);
  });
  return true;
}

void SweepRunner::applyRotateBest(AppState& state, size_t best, TuningEntry& entry) {
  SweepUiState& ui = state.runs.sweep;
  const RotateConfig& c = rotate_.results[best];
  const RunRecord& winner = ui.results[best];
  ImageLabState& lab = state.image;
  lab.choices.rotateVariant = c.variant;
  lab.choices.rotateGroup[0] = c.workGroupX;
  lab.choices.rotateGroup[1] = c.workGroupY;
  lab.choices.rotateBlock[0] = c.pixelsPerItem;
  lab.choices.rotateBlock[1] = c.rowsPerItem;
  state.commands.push(RunImagePipeline{});
  if (state.scene != SceneKind::Image) state.commands.push(OpenScene{SceneKind::Image});
  entry.rotate[layout_.channels] = TunedRotate{c, describeImageLayout(layout_), winner.m.rate, winner.meta.time};
  ui.message += " to the image lab's rotation (measured on " + describeImageLayout(layout_) + ")";
}

}  // namespace ks
