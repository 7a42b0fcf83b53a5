#include "lab/rotate_runs.h"

#include <cstdio>

#include "lab/sweep_runs.h"

namespace ks {

std::vector<std::pair<std::string, std::string>> rotateParameters(const RotateConfig& c) {
  std::vector<std::pair<std::string, std::string>> p = {{"variant", c.variant}};
  // The descriptor's names (compute/kernel_op.h): a new parameter is a new column.
  for (const auto& parameter : rotateConfigParameters()) p.emplace_back(parameter.name, std::to_string(c.*parameter.member));
  return p;
}

RunRecord refusedRotateRun(const DeviceDescriptor& device, const RotateConfig& config, const ImageLayout& layout,
                           const RotateParams& params, const std::string& why) {
  RunRecord r = refusedImageOpRun(rotateOp(), device, describeRotateConfig(config), rotateParameters(config), layout, why);
  char angle[32];
  std::snprintf(angle, sizeof angle, "%g", params.degrees);
  r.meta.parameters.emplace_back("angle", angle);
  return r;
}

RunRecord rotateRun(const DeviceDescriptor& device, const RotateMeasurement& m, int iterations) {
  return measuredImageRun(refusedRotateRun(device, m.config, m.layout, m.params, m.problem), m, iterations);
}

}  // namespace ks
