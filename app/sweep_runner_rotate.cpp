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
  for (const auto& [c, why] : plan.refused) {
    ui.results.push_back(refusedRotateRun(device, c, layout_, rotateParams_, why));
    rotate_.results.push_back(c);
  }
  rotate_.queue = plan.valid;
  ui.total = plan.total();
  ui.refused = plan.refused.size();
  return true;
}

void SweepRunner::applyRotateBest(AppState& state, size_t best) {
  SweepUiState& ui = state.runs.sweep;
  const RotateConfig& c = rotate_.results[best];
  ImageLabState& lab = state.image;
  lab.rotateVariant = c.variant;
  lab.rotateGroup[0] = c.workGroupX;
  lab.rotateGroup[1] = c.workGroupY;
  lab.rotateBlock[0] = c.pixelsPerItem;
  lab.rotateBlock[1] = c.rowsPerItem;
  lab.dirty = true;
  if (state.scene != SceneKind::Image) state.requestedScene = SceneKind::Image;
  // The tuning cache keeps N-body and transpose winners only: this one is the lab's choice until changed.
  ui.message = "applied " + ui.results[best].name + " to the image lab's rotation (measured on " +
               describeImageLayout(layout_) + "; not saved as this device's default)";
}

}  // namespace ks
