// The rotate sweep's part of SweepRunner (app/sweep_runner.h): its plan and
// "Apply best"; the frame loop that builds and measures is the runner's own.
#include "app/sweep_runner.h"
#include "compute/rotate_sweep_plan.h"
#include "lab/rotate_runs.h"

namespace ks {

bool SweepRunner::startRotate(AppState& state, ComputeContext& compute) {
  SweepUiState& ui = state.runs.sweep;
  const DeviceDescriptor& device = compute.device();
  layout_ = {ui.imageSize, ui.imageSize, ui.channels};
  rotateParams_ = rotateSweepParams();
  const ImageLayout rotated = rotatedLayout(layout_, rotateParams_);
  if (const std::string p = imageLayoutProblem(layout_); !p.empty() || rotated.bytes() > device.maxAllocBytes) {
    ui.status = "cannot sweep on " + describeImageLayout(layout_) + ": " + (p.empty() ? "too large" : p);
    return false;
  }
  RotateSweepRanges ranges{ui.rotateVariants, {}};
  if (!ui.rotatePixelsPerItem.empty()) ranges.values["pixels_per_item"] = ui.rotatePixelsPerItem;
  if (!ui.rotateRowsPerItem.empty()) ranges.values["rows_per_item"] = ui.rotateRowsPerItem;
  const SweepPlan<RotateConfig> plan = planRotateSweep(ranges, device, ui.channels);
  for (const auto& [c, why] : plan.refused) {
    ui.results.push_back(refusedRotateRun(device, c, layout_, rotateParams_, why));
    rotateResults_.push_back(c);
  }
  rotateQueue_ = plan.valid;
  picture_ = std::make_shared<SweepPicture>();  // made by start(), on the worker where there is one
  ui.total = plan.total();
  ui.refused = plan.refused.size();
  return true;
}

void SweepRunner::applyRotateBest(AppState& state, size_t best) {
  SweepUiState& ui = state.runs.sweep;
  const RotateConfig& c = rotateResults_[best];
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
