#include "compute/kernel_constraints.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace ks {

std::string KernelConstraint::refusal(std::initializer_list<RefusalValue> values) const {
  std::string out;
  size_t at = 0;
  while (at < reason.size()) {
    const size_t open = reason.find('{', at);
    const size_t close = open == std::string::npos ? std::string::npos : reason.find('}', open);
    if (close == std::string::npos) break;
    out.append(reason, at, open - at);
    const std::string_view name(reason.data() + open + 1, close - open - 1);
    const RefusalValue* filled = nullptr;
    for (const RefusalValue& v : values)
      if (v.name == name) filled = &v;
    out += filled ? filled->value : reason.substr(open, close - open + 1);
    at = close + 1;
  }
  out.append(reason, std::min(at, reason.size()));
  return out;
}

namespace {

// The refusals several operations give, written once; the accessors below look
// theirs up by id.
const std::vector<KernelConstraint>& sharedConstraints() {
  static const std::vector<KernelConstraint> table = {
      {"channels", "1 or 4 channels", "channels must be 1 (gray) or 4 (RGBA), not {channels}"},
      {"work_group_width", "a work-group width the lists offer", "work-group width {x} is not offered ({offered})"},
      {"work_group_height", "a work-group height the lists offer", "work-group height {y} is not offered ({offered})"},
      {"work_group_2d_items", "the work-group's items within the device's maximum",
       "work-group {x}x{y} = {items} work-items exceeds the device's maximum {max}"},
      {"work_group_2d_sizes", "each work-group dimension within the device's maximum work-item sizes",
       "work-group {x}x{y} exceeds the device's maximum work-item sizes {max_x}x{max_y}"},
      {"work_group_items", "the work-group within the device's maximum",
       "work-group size {items} exceeds the device's maximum {max}"},
      {"work_group_item_size", "the work-group within the device's maximum work-item size",
       "work-group size {items} exceeds the device's maximum work-item size {max}"},
      {"work_group_offered", "a work-group size the variant offers",
       "work-group size {items} is not offered by the {variant} variant ({offered})"},
      {"pixels_per_item_offered", "pixels per work-item the variant offers",
       "{pixels} pixels per work-item are not offered by the {variant} variant ({offered})"},
      {"rows_per_item_offered", "rows per work-item the variant offers",
       "{rows} rows per work-item are not offered by the {variant} variant ({offered})"},
      {"kernel_work_group", "the work-group within what the compiled kernel allows (CL_KERNEL_WORK_GROUP_SIZE)",
       "{kernel} allows at most {max} work-items per group on this device (CL_KERNEL_WORK_GROUP_SIZE); {items} asked"},
  };
  return table;
}

const KernelConstraint& sharedConstraint(std::string_view id) {
  for (const KernelConstraint& c : sharedConstraints())
    if (c.id == id) return c;
  throw std::out_of_range("no shared kernel constraint '" + std::string(id) + "'");
}

}  // namespace

const KernelConstraint& channelsConstraint() { return sharedConstraint("channels"); }
const KernelConstraint& workGroupWidthConstraint() { return sharedConstraint("work_group_width"); }
const KernelConstraint& workGroupHeightConstraint() { return sharedConstraint("work_group_height"); }
const KernelConstraint& workGroup2dItemsConstraint() { return sharedConstraint("work_group_2d_items"); }
const KernelConstraint& workGroup2dSizesConstraint() { return sharedConstraint("work_group_2d_sizes"); }
const KernelConstraint& workGroupItemsConstraint() { return sharedConstraint("work_group_items"); }
const KernelConstraint& workGroupItemSizeConstraint() { return sharedConstraint("work_group_item_size"); }
const KernelConstraint& workGroupOfferedConstraint() { return sharedConstraint("work_group_offered"); }
const KernelConstraint& pixelsPerItemOfferedConstraint() { return sharedConstraint("pixels_per_item_offered"); }
const KernelConstraint& rowsPerItemOfferedConstraint() { return sharedConstraint("rows_per_item_offered"); }
const KernelConstraint& kernelWorkGroupConstraint() { return sharedConstraint("kernel_work_group"); }

KernelConstraint localMemoryConstraint(const std::string& what, const std::string& id) {
  return {id, what + " fits in local memory", what + " needs {bytes} bytes of local memory; the device has {max}"};
}

}  // namespace ks
