#pragma once
// The histogram sweep (issue 21): its plan, the product of the histogram
// parameters' values each variant offers, read from the histogram descriptor
// (compute/kernel_op.h) through histogramConfigParameters(), refused combinations
// with the descriptor's reason; and one configuration measured (3 untimed runs,
// then timed ones, each the sum of its commands: counting and merging). Used by
// `--bench histogram`.
#include <map>
#include <string>
#include <vector>

#include "compute/compute_context.h"
#include "compute/image_histogram.h"
#include "compute/sweep_plan.h"

namespace ks {

struct HistogramSweepRanges {
  std::vector<std::string> variants;  // empty: every variant of the table
  // By parameter name ("work_group"); a parameter left out: each variant's own values.
  std::map<std::string, std::vector<int>> values;
};
SweepPlan<HistogramConfig> planHistogramSweep(const HistogramSweepRanges& ranges, const DeviceDescriptor& device,
                                              int channels);

struct HistogramMeasurement {
  HistogramConfig config;
  ImageLayout layout;
  std::string problem;  // empty when it ran
  uint64_t sourceHash = 0;
  std::vector<double> runMs;        // one sample per timed run, device clock
  double gigabytesPerSecond = 0.0;  // from the median run time, bytes of imageOpBytes(Histogram)
};
// `in` holds `layout`; `bins` has room for histogramBinCount(layout) cl_uints. Never throws.
HistogramMeasurement measureHistogram(ComputeContext& compute, cl_mem in, cl_mem bins, const ImageLayout& layout,
                                      const HistogramConfig& config, int iterations);

}  // namespace ks
