#pragma once
// The rotate sweep's plan (issue 21): the product of the rotation parameters'
// values, each read from the rotate descriptor (compute/kernel_op.h) through
// rotateConfigParameters(), split into what the device runs and what it refuses
// with the descriptor's reason. A parameter added to RotateConfig, its
// ConfigParameter list and the descriptor is swept and recorded with no code here.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "compute/device_catalog.h"
#include "compute/image_rotate.h"
#include "compute/sweep_plan.h"

namespace ks {

// The angle every rotate sweep turns its image by (not a multiple of 90 degrees,
// so that every pixel is sampled between source pixels), on a cropped canvas.
constexpr double kRotateSweepDegrees = 30.0;
RotateParams rotateSweepParams();

struct RotateSweepRanges {
  std::vector<std::string> variants;  // empty: every variant of the table
  // By parameter name ("pixels_per_item"); a parameter left out: each variant's own values.
  // When neither work_group_x nor work_group_y is given, only the shapes of
  // rotateSweptWorkGroupItems() work-items are swept (all 36 shapes would take minutes of builds).
  std::map<std::string, std::vector<int>> values;
};

// The work-items of the shapes swept by default: kRotateSweptWorkGroupItems (a common
// group size on GPUs), or the largest power of two within the device's work-group limit.
constexpr int kRotateSweptWorkGroupItems = 256;
int rotateSweptWorkGroupItems(const DeviceDescriptor& device);
// What the Sweep panel starts with: the rotate descriptor's "quick_sweep" subset (the
// buffer and image bilinear variants, their own values).
RotateSweepRanges quickRotateSweep();
SweepPlan<RotateConfig> planRotateSweep(const RotateSweepRanges& ranges, const DeviceDescriptor& device, int channels);

}  // namespace ks
