#pragma once
// Histogram sweep measurements as RunRecords: the configuration's parameters under
// the histogram descriptor's names (variant, work_group, pixels_per_item, copies,
// groups_per_compute_unit: those the variant uses), the image and the repetitions;
// refused ones say why.
#include <string>
#include <utility>
#include <vector>

#include "compute/histogram_sweep.h"
#include "lab/run_record.h"

namespace ks {

std::vector<std::pair<std::string, std::string>> histogramParameters(const HistogramConfig& config);
RunRecord histogramRun(const DeviceDescriptor& device, const HistogramMeasurement& m, int iterations);
RunRecord refusedHistogramRun(const DeviceDescriptor& device, const HistogramConfig& config, const ImageLayout& layout,
                              const std::string& why);

}  // namespace ks
