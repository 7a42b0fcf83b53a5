#include "lab/histogram_runs.h"

#include "compute/sample_stats.h"

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
  RunRecord r = refusedHistogramRun(device, m.config, m.layout, m.problem);
  r.meta.parameters.emplace_back("iterations", std::to_string(iterations));
  r.meta.sourceHash = m.sourceHash ? hexHash(m.sourceHash) : "";
  if (!m.problem.empty()) {
    r.status = "failed: " + m.problem.substr(0, m.problem.find('\n'));
    return r;
  }
  r.status = "ok";
  r.m.kernelMs = summarize(m.runMs);
  r.m.rate = m.gigabytesPerSecond;
  return r;
}

}  // namespace ks
