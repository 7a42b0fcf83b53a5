#include "lab/histogram_runs.h"

#include "compute/kernel_op.h"
#include "lab/sweep_runs.h"

namespace ks {

std::vector<std::pair<std::string, std::string>> histogramParameters(const HistogramConfig& c) {
  std::vector<std::pair<std::string, std::string>> p = {{"variant", c.variant}};
  // Only the parameters the variant's kernel uses (its descriptor's): the others hold
  // the configuration's defaults, which a record would show as if they had run
  // (local_atomic with pixels_per_item=255, subhist_uchar's default copies).
  const KernelOpVariant* variant = histogramOp().variant(c.variant);
  for (const auto& parameter : histogramConfigParameters())
    if (variant && variant->parameter(parameter.name))
      p.emplace_back(parameter.name, std::to_string(c.*parameter.member));
  return p;
}

RunRecord refusedHistogramRun(const DeviceDescriptor& device, const HistogramConfig& config, const ImageLayout& layout,
                              const std::string& why) {
  return refusedImageOpRun(histogramOp(), device, describeHistogramConfig(config), histogramParameters(config), layout,
                           why);
}

RunRecord histogramRun(const DeviceDescriptor& device, const HistogramMeasurement& m, int iterations) {
  return measuredImageRun(refusedHistogramRun(device, m.config, m.layout, m.problem), m, iterations);
}

}  // namespace ks
