#pragma once
// Rotate sweep measurements as RunRecords (as lab/sweep_runs.h does for N-body and
// transposes): the configuration's parameters under the rotate descriptor's names
// (variant, work_group_x, work_group_y, pixels_per_item, rows_per_item), the image,
// the angle and the repetitions; refused configurations say why.
#include <string>
#include <utility>
#include <vector>

#include "compute/rotate_benchmark.h"
#include "lab/run_record.h"

namespace ks {

std::vector<std::pair<std::string, std::string>> rotateParameters(const RotateConfig& config);
RunRecord rotateRun(const DeviceDescriptor& device, const RotateMeasurement& m, int iterations);
RunRecord refusedRotateRun(const DeviceDescriptor& device, const RotateConfig& config, const ImageLayout& layout,
                           const RotateParams& params, const std::string& why);

}  // namespace ks
