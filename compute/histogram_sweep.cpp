#include "compute/histogram_sweep.h"

#include <algorithm>
#include <memory>

#include "compute/kernel_op.h"

namespace ks {
namespace {

// Every combination of the values for one variant, in the parameters' order (the last varies fastest).
void addProduct(SweepPlan<HistogramConfig>& plan, HistogramConfig c, size_t parameter,
                const std::vector<std::vector<int>>& values, const DeviceDescriptor& device, int channels) {
  const auto& parameters = histogramConfigParameters();
  if (parameter == parameters.size()) {
    std::string problem = imageHistogramConfigProblem(c, device, channels);
    if (problem.empty()) plan.valid.push_back(c);
    else plan.refused.emplace_back(c, std::move(problem));
    return;
  }
  // A parameter the variant does not use keeps the configuration's default (one value).
  if (values[parameter].empty()) return addProduct(plan, c, parameter + 1, values, device, channels);
  for (int v : values[parameter]) {
    c.*parameters[parameter].member = v;
    addProduct(plan, c, parameter + 1, values, device, channels);
  }
}

// Builds the histogrammer (counting, merge), and what one run enqueues.
ImageOpPrepare prepareHistogram(ComputeContext& compute, cl_mem in, cl_mem bins, const ImageLayout& layout,
                                const HistogramConfig& config) {
  return [&compute, in, bins, layout, config] {
    auto histogrammer = std::make_shared<ImageHistogrammer>(compute, config);
    histogrammer->prepare(layout.channels);
    return ImageOpLaunch([histogrammer, in, bins, layout](Queue& queue, ImageOpEvents& events) {
      histogrammer->run(queue, in, layout, bins, &events);
    });
  };
}

}  // namespace

HistogramSweepRanges quickHistogramSweep() {
  // The default configuration's group size and groups per compute unit (values are
  // the descriptor's, never spelled here); every number of copies.
  const HistogramConfig d = defaultHistogramConfig(4);
  std::vector<std::string> variants = histogramOp().subset("quick_sweep").slices.front().variants;
  if (std::find(variants.begin(), variants.end(), d.variant) == variants.end()) variants.push_back(d.variant);
  return {variants, {{"work_group", {d.workGroup}}, {"groups_per_compute_unit", {d.groupsPerComputeUnit}}}};
}

SweepPlan<HistogramConfig> planHistogramSweep(const HistogramSweepRanges& ranges, const DeviceDescriptor& device,
                                              int channels) {
  SweepPlan<HistogramConfig> plan;
  const KernelOp& op = histogramOp();
  for (const KernelOpVariant& variant : op.variants) {
    if (!ranges.variants.empty() &&
        std::find(ranges.variants.begin(), ranges.variants.end(), variant.name) == ranges.variants.end())
      continue;
    std::vector<std::vector<int>> values;
    for (const auto& p : histogramConfigParameters()) {
      const VariantParameter* offered = variant.parameter(p.name);
      const auto given = ranges.values.find(p.name);
      // A range given applies to the variants that use the parameter; a value they do not offer is refused.
      values.push_back(!offered ? std::vector<int>{} : given != ranges.values.end() ? given->second : offered->values);
    }
    HistogramConfig c;
    c.variant = variant.name;
    addProduct(plan, c, 0, values, device, channels);
  }
  for (const std::string& n : ranges.variants)
    if (!op.variant(n)) {
      HistogramConfig c;
      c.variant = n;
      plan.refused.emplace_back(c, imageHistogramConfigProblem(c, device, channels));
    }
  return plan;
}

HistogramMeasurement measureHistogram(ComputeContext& compute, cl_mem in, cl_mem bins, const ImageLayout& layout,
                                      const HistogramConfig& config, int iterations) {
  HistogramMeasurement r = unmeasured<HistogramMeasurement>(layout, config);
  static_cast<ImageRunTimes&>(r) =
      measureImageRuns(compute, kHistogramKernelFile, prepareHistogram(compute, in, bins, layout, config),
                       imageOpBytes(ImageOp::Histogram, layout), iterations);
  return r;
}

HistogramTrial::HistogramTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem bins, const ImageLayout& layout,
                               const HistogramConfig& config, int iterations, double batchBudgetMs)
    : ImageOpTrial(unmeasured<HistogramMeasurement>(layout, config), compute, queue, kHistogramKernelFile,
                   prepareHistogram(compute, in, bins, layout, config), imageOpBytes(ImageOp::Histogram, layout),
                   iterations, batchBudgetMs) {}

}  // namespace ks
