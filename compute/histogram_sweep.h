#pragma once
// The histogram sweep (issue 21): its plan, the product of the histogram
// parameters' values each variant offers, read from the histogram descriptor
// (compute/kernel_op.h) through histogramConfigParameters(), refused combinations
// with the descriptor's reason; and one configuration measured (3 untimed runs,
// then timed ones, each the sum of its commands: counting and merging), waited
// for (`--bench histogram`) or paced and polled (HistogramTrial: the Sweep panel).
#include <map>
#include <string>
#include <vector>

#include "compute/compute_context.h"
#include "compute/image_histogram.h"
#include "compute/paced_image_trial.h"
#include "compute/sweep_plan.h"

namespace ks {

struct HistogramSweepRanges {
  std::vector<std::string> variants;  // empty: every variant of the table
  // By parameter name ("work_group"); a parameter left out: each variant's own values.
  std::map<std::string, std::vector<int>> values;
};
// What the Sweep panel starts with: subhist_uchar and the default variant at the
// default's work-group and groups per compute unit, every number of copies: 11
// configurations (the whole table is 400).
HistogramSweepRanges quickHistogramSweep();
SweepPlan<HistogramConfig> planHistogramSweep(const HistogramSweepRanges& ranges, const DeviceDescriptor& device,
                                              int channels);

using HistogramMeasurement = ImageOpMeasurement<HistogramConfig>;
// `in` holds `layout`; `bins` has room for histogramBinCount(layout) cl_uints. Never throws.
HistogramMeasurement measureHistogram(ComputeContext& compute, cl_mem in, cl_mem bins, const ImageLayout& layout,
                                      const HistogramConfig& config, int iterations);

// measureHistogram for callers that must never wait (the UI's sweep), as
// RotateTrial is for rotations: the programs must already be built
// (imageHistogramProgramOptions); `in` and `bins` must outlive the launches,
// which go on `queue`, the first one in the first poll(). Never throws.
class HistogramTrial : public ImageOpTrial<HistogramMeasurement> {
 public:
  HistogramTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem bins, const ImageLayout& layout,
                 const HistogramConfig& config, int iterations, double batchBudgetMs);
};

}  // namespace ks
