#include "app/cli_image_sweeps.h"

#include "compute/kernel_op.h"
#include "compute/parameter_values.h"
#include "compute/rotate_sweep_plan.h"

namespace ks {

CLI::Option* addSweptParameterOption(CLI::Option_group& group, const std::string& flag, std::vector<int>& values,
                                     const std::string& what, const KernelOp& op, const std::string& parameter,
                                     OfferedValues offered, int largest, const std::string& note) {
  const std::string list = joinValues(op.parameter(parameter).values);
  const std::string help = what + " (list; " +
                           (offered == OfferedValues::All
                                ? "offered: " + list
                                : "the variants offer " + list + ", each some of them; the others are listed with the reason") +
                           note + ")";
  return group.add_option(flag, values, help)->delimiter(',')->check(CLI::Range(1, largest));
}

void addRotateSweepOptions(CLI::App& app, RotateSweepOptions& o, std::vector<std::string>& shapes) {
  const KernelOp& op = rotateOp();
  auto* group = app.add_option_group("Rotate sweep",
                                     "Ranges for --bench rotate (default: each variant's own values, work-group shapes "
                                     "of " + std::to_string(kRotateSweptWorkGroupItems) +
                                         " work-items; the channels are --channels)");
  group->add_option("--rotate-variant", o.variants, joinValues(op.variantNames()) + " (list)")
      ->delimiter(',')
      ->check(CLI::IsMember(op.variantNames()));
  group->add_option("--rotate-wg", shapes,
                    "Work-group shapes WxH (list; widths " + joinValues(op.parameter("work_group_x").values) +
                        ", heights " + joinValues(op.parameter("work_group_y").values) + ")")
      ->delimiter(',')
      ->check([](const std::string& text) -> std::string {
        int w = 0, h = 0;
        char x = 0;
        if (std::sscanf(text.c_str(), "%d%c%d", &w, &x, &h) == 3 && x == 'x' && w >= 1 && h >= 1 && w <= 4096 &&
            h <= 4096)
          return {};
        return "'" + text + "' is not a work-group shape WxH (e.g. 16x16)";
      });
  addSweptParameterOption(*group, "--pixels-per-item", o.pixelsPerItem, "Output pixels of a row per work-item", op,
                          "pixels_per_item", OfferedValues::EachVariantSome, 4096);
  addSweptParameterOption(*group, "--rotate-rows-per-item", o.rowsPerItem, "Rows of output pixels per work-item", op,
                          "rows_per_item", OfferedValues::All, 4096, ", by the image variants");
}

void addHistogramSweepOptions(CLI::App& app, HistogramSweepOptions& o) {
  const KernelOp& op = histogramOp();
  auto* group = app.add_option_group("Histogram sweep",
                                     "Ranges for --bench histogram (default: each variant's own values; the "
                                     "channels are --channels)");
  group->add_option("--histogram-variant", o.variants, joinValues(op.variantNames()) + " (list)")
      ->delimiter(',')
      ->check(CLI::IsMember(op.variantNames()));
  addSweptParameterOption(*group, "--histogram-wg", o.workGroups, "Work-group sizes", op, "work_group",
                          OfferedValues::EachVariantSome, 1 << 20);
}

std::string finishRotateSweepOptions(const CLI::App& app, const AppOptions& all, RotateSweepOptions& o,
                                     const std::vector<std::string>& shapes) {
  for (const std::string& shape : shapes) {
    int w = 0, h = 0;
    char x = 0;
    std::sscanf(shape.c_str(), "%d%c%d", &w, &x, &h);
    o.workGroups.emplace_back(w, h);
  }
  // The ranges would be ignored without a word by the other runs: refused instead.
  for (const char* name : {"--rotate-variant", "--rotate-wg", "--pixels-per-item", "--rotate-rows-per-item"})
    if (app.count(name) > 0 && all.bench != "rotate") return std::string(name) + ": for --bench rotate";
  for (const char* name : {"--histogram-variant", "--histogram-wg"})
    if (app.count(name) > 0 && all.bench != "histogram") return std::string(name) + ": for --bench histogram";
  return {};
}

}  // namespace ks
