#include "compute/histogram_sweep.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "compute/kernel_files.h"
#include "compute/kernel_op.h"
#include "compute/sample_stats.h"

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

double commandsMs(const ImageOpEvents& events) {
  double ms = 0.0;
  for (const ImageOpCommand& c : events.commands) ms += c.event.elapsedMs();
  return ms;
}

}  // namespace

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
  HistogramMeasurement r;
  r.config = config;
  r.layout = layout;
  try {
    r.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kHistogramKernelFile));
    ImageHistogrammer histogrammer(compute, config);
    histogrammer.prepare(layout.channels);
    for (int i = 0; i < 3; ++i) histogrammer.run(compute.queue(), in, layout, bins);
    compute.queue().finish();
    for (int i = 0; i < std::max(iterations, 1); ++i) {
      ImageOpEvents events;
      histogrammer.run(compute.queue(), in, layout, bins, &events);
      compute.queue().finish();
      r.runMs.push_back(commandsMs(events));
    }
    const double median = summarize(r.runMs).median;
    // A run time that is not a positive finite number is a failure, not a rate.
    if (!(median > 0.0) || !std::isfinite(median)) throw std::runtime_error("the runs have no valid device time");
    r.gigabytesPerSecond = imageGigabytesPerSecond(imageOpBytes(ImageOp::Histogram, layout), median);
  } catch (const ProgramBuildError& e) {
    r.problem = std::string(e.what()) + "\n" + e.build().log;
  } catch (const std::exception& e) {
    r.problem = e.what();
  }
  return r;
}

}  // namespace ks
