#include "compute/sweep_plan.h"

#include <algorithm>

#include "compute/kernel_op.h"

namespace ks {
namespace {

template <typename T>
const std::vector<T>& orAll(const std::vector<T>& given, const std::vector<T>& all) {
  return given.empty() ? all : given;
}

bool chosen(const std::vector<std::string>& names, const std::string& name) {
  return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

template <typename Config>
void add(SweepPlan<Config>& plan, const Config& c, std::string problem) {
  if (problem.empty()) plan.valid.push_back(c);
  else plan.refused.emplace_back(c, std::move(problem));
}

}  // namespace

SweepPlan<NBodyConfig> planNBodySweep(const NBodySweepRanges& r, const NBodyConfig& base,
                                      const DeviceDescriptor& device) {
  std::vector<int> groups;
  const size_t limit = device.maxWorkGroupSize ? device.maxWorkGroupSize : kNBodyLargestSweptWorkGroup;
  for (int wg : nbodySweptWorkGroups())
    if (static_cast<size_t>(wg) <= limit) groups.push_back(wg);
  SweepPlan<NBodyConfig> plan;
  // Names not in the table are refused too (nbodyConfigProblem says so).
  std::vector<std::string> names;
  for (const auto& v : nbodyVariants())
    if (chosen(r.variants, v.name)) names.push_back(v.name);
  for (const auto& n : r.variants)
    if (!findNBodyVariant(n)) names.push_back(n);
  for (const std::string& name : names) {
    const KernelOpVariant* v = nbodyOp().variant(name);
    // An unknown variant: one configuration, which nbodyConfigProblem refuses by name.
    const std::vector<int> one{1};
    auto offered = [&](const char* parameter) -> const std::vector<int>& {
      return v ? v->parameter(parameter)->values : one;
    };
    for (int wg : orAll(r.workGroups, groups))
      for (int u : orAll(r.unrolls, offered("unroll")))
        for (int b : orAll(r.bodiesPerItem, offered("bodies_per_item")))
          for (int sp : orAll(r.splits, offered("split"))) {
            NBodyConfig c = base;
            c.variant = name;
            c.workGroup = wg;
            c.unroll = u;
            c.bodiesPerItem = b;
            c.split = sp;
            add(plan, c, nbodyConfigProblem(c, device));
          }
  }
  return plan;
}

NBodySweepRanges quickNBodySweep() {
  const KernelOpSlice& quick = nbodyOp().subset("quick_sweep").slices.front();
  auto values = [&quick](std::string_view parameter) {
    const std::vector<int>* picked = quick.picked(parameter);
    return picked ? *picked : std::vector<int>{};
  };
  return {quick.variants, values("work_group"), values("unroll"), values("bodies_per_item"), values("split")};
}

TransposeSweepRanges quickTransposeSweep() {
  return {transposeOp().subset("quick_sweep").slices.front().variants, {}, {}, {}, {}};
}

const std::vector<std::pair<int, int>>& defaultNaiveTransposeShapes() {
  static const std::vector<std::pair<int, int>> shapes = [] {
    std::vector<std::pair<int, int>> out;
    for (const KernelOpSlice& slice : transposeOp().subset("naive_shapes").slices)
      out.emplace_back(slice.picked("work_group_x")->front(), slice.picked("work_group_y")->front());
    return out;
  }();
  return shapes;
}

SweepPlan<TransposeConfig> planTransposeSweep(const TransposeSweepRanges& r, const DeviceDescriptor& device,
                                              int channels) {
  SweepPlan<TransposeConfig> plan;
  for (const auto& v : imageTransposeVariants()) {
    if (!chosen(r.variants, v.name)) continue;
    const KernelOpVariant& described = *transposeOp().variant(v.name);
    auto offered = [&](const char* parameter) -> const std::vector<int>& {
      return described.parameter(parameter)->values;
    };
    TransposeConfig c;
    c.variant = v.name;
    switch (v.kind) {
      case TransposeKind::Naive:
        for (const auto& [x, y] : orAll(r.naiveShapes, defaultNaiveTransposeShapes())) {
          c.workGroupX = x;
          c.workGroupY = y;
          add(plan, c, imageTransposeConfigProblem(c, device, channels));
        }
        break;
      case TransposeKind::Tiled:
        for (int t : orAll(r.tiles, offered("tile")))
          for (int rows : orAll(r.rowsPerItem, offered("rows_per_item"))) {
            c.tile = t;
            c.rowsPerItem = rows;
            add(plan, c, imageTransposeConfigProblem(c, device, channels));
          }
        break;
      case TransposeKind::Block4x4:
      case TransposeKind::Gray16:
        for (int t : orAll(r.tiles, offered("tile")))
          for (int wg : orAll(r.workGroups, offered("work_group"))) {
            c.tile = t;
            c.workGroup = wg;
            add(plan, c, imageTransposeConfigProblem(c, device, channels));
          }
        break;
    }
  }
  for (const auto& n : r.variants)
    if (!findImageTransposeVariant(n)) {
      TransposeConfig c;
      c.variant = n;
      add(plan, c, imageTransposeConfigProblem(c, device, channels));
    }
  return plan;
}

}  // namespace ks
