#include "lab/histogram_runs.h"

#include "lab/sweep_runs.h"

namespace ks {

std::vector<std::pair<std::string, std::string>> histogramParameters(const HistogramConfig& c) {
  std::vector<std::pair<std::string, std::string>> p = {{"variant", c.variant}};
  for (const auto& parameter : histogramConfigParameters())
    p.emplace_back(parameter.name, std::to_string(c.*parameter.member));
  return p;
}

RunRecord refusedHistogramRun(const DeviceDescriptor& device, const HistogramConfig& config, const ImageLayout& layout,
                              const std::string& why) {
  RunRecord r;
  r.name = "histogram " + describeHistogramConfig(config);
  r.status = "refused: " + why.substr(0, why.find('\n'));
  r.meta = runMetadataFor(device);
  r.meta.scene = "histogram";
  r.meta.parameters = histogramParameters(config);
  r.meta.parameters.emplace_back("image", describeImageLayout(layout));
  r.m.rateUnit = "GB/s";
  return r;
}

RunRecord histogramRun(const DeviceDescriptor& device, const HistogramMeasurement& m, int iterations) {
  return measuredImageRun(refusedHistogramRun(device, m.config, m.layout, m.problem), m.problem, m.sourceHash, m.runMs,
                          m.gigabytesPerSecond, iterations);
}

}  // namespace ks
