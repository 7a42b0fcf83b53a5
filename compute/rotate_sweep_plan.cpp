#include "compute/rotate_sweep_plan.h"

#include <algorithm>

#include "compute/kernel_op.h"

namespace ks {

RotateParams rotateSweepParams() {
  RotateParams p;
  p.degrees = kRotateSweepDegrees;
  return p;
}

int rotateSweptWorkGroupItems(const DeviceDescriptor& device) {
  const size_t most = kRotateSweptWorkGroupItems;
  const size_t limit = device.maxWorkGroupSize ? std::min(device.maxWorkGroupSize, most) : most;
  int items = 1;
  while (static_cast<size_t>(items) * 2 <= limit) items *= 2;
  return items;
}

RotateSweepRanges quickRotateSweep() { return {rotateOp().subset("quick_sweep").slices.front().variants, {}}; }

namespace {

// Every combination of the parameters' values for one variant, in the order the
// parameters are listed (the last one varies fastest).
void addProduct(SweepPlan<RotateConfig>& plan, RotateConfig c, size_t parameter,
                const std::vector<std::vector<int>>& values, const RotateSweepRanges& ranges,
                const DeviceDescriptor& device, int channels) {
  const auto& parameters = rotateConfigParameters();
  if (parameter == parameters.size()) {
    const bool shapeGiven = ranges.values.count("work_group_x") || ranges.values.count("work_group_y");
    if (!shapeGiven && c.workGroupX * c.workGroupY != rotateSweptWorkGroupItems(device)) return;
    std::string problem = imageRotateConfigProblem(c, device, channels);
    if (problem.empty()) plan.valid.push_back(c);
    else plan.refused.emplace_back(c, std::move(problem));
    return;
  }
  for (int v : values[parameter]) {
    c.*parameters[parameter].member = v;
    addProduct(plan, c, parameter + 1, values, ranges, device, channels);
  }
}

}  // namespace

SweepPlan<RotateConfig> planRotateSweep(const RotateSweepRanges& ranges, const DeviceDescriptor& device, int channels) {
  SweepPlan<RotateConfig> plan;
  const KernelOp& op = rotateOp();
  std::vector<std::string> names;
  for (const KernelOpVariant& v : op.variants)
    if (ranges.variants.empty() || std::find(ranges.variants.begin(), ranges.variants.end(), v.name) != ranges.variants.end())
      names.push_back(v.name);
  for (const std::string& name : names) {
    const KernelOpVariant& variant = *op.variant(name);
    std::vector<std::vector<int>> values;
    for (const auto& p : rotateConfigParameters()) {
      const auto given = ranges.values.find(p.name);
      const VariantParameter* offered = variant.parameter(p.name);
      values.push_back(given != ranges.values.end() ? given->second : offered ? offered->values : std::vector<int>{});
    }
    RotateConfig c;
    c.variant = name;
    addProduct(plan, c, 0, values, ranges, device, channels);
  }
  // A name the table does not have: one configuration, refused by name.
  for (const std::string& n : ranges.variants)
    if (!op.variant(n)) {
      RotateConfig c;
      c.variant = n;
      plan.refused.emplace_back(c, imageRotateConfigProblem(c, device, channels));
    }
  return plan;
}

}  // namespace ks
