#include "lab/rotate_runs.h"

#include <cstdio>

#include "compute/sample_stats.h"

namespace ks {

std::vector<std::pair<std::string, std::string>> rotateParameters(const RotateConfig& c) {
  std::vector<std::pair<std::string, std::string>> p = {{"variant", c.variant}};
  // The descriptor's names (compute/kernel_op.h): a new parameter is a new column.
  for (const auto& parameter : rotateConfigParameters()) p.emplace_back(parameter.name, std::to_string(c.*parameter.member));
  return p;
}

RunRecord refusedRotateRun(const DeviceDescriptor& device, const RotateConfig& config, const ImageLayout& layout,
                           const RotateParams& params, const std::string& why) {
  RunRecord r;
  r.name = "rotate " + describeRotateConfig(config);
  r.status = "refused: " + why.substr(0, why.find('\n'));
  r.meta = runMetadataFor(device);
  r.meta.scene = "rotate";
  r.meta.parameters = rotateParameters(config);
  r.meta.parameters.emplace_back("image", describeImageLayout(layout));
  char angle[32];
  std::snprintf(angle, sizeof angle, "%g", params.degrees);
  r.meta.parameters.emplace_back("angle", angle);
  r.m.rateUnit = "GB/s";
  return r;
}

RunRecord rotateRun(const DeviceDescriptor& device, const RotateMeasurement& m, int iterations) {
  RunRecord r = refusedRotateRun(device, m.config, m.layout, m.params, m.problem);
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
