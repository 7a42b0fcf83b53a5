#pragma once
// A sweep plan: the product of the parameter ranges the user chose, split into
// the configurations the device can run and the ones it cannot (with the
// variant table's own reason). The headless --sweep / --bench transpose modes and
// the UI's sweep panel build their work from these functions, so both run and
// refuse exactly the same combinations.
#include <string>
#include <utility>
#include <vector>

#include "compute/device_catalog.h"
#include "compute/image_transpose.h"
#include "compute/nbody_variants.h"

namespace ks {

template <typename Config>
struct SweepPlan {
  std::vector<Config> valid;                               // in product order
  std::vector<std::pair<Config, std::string>> refused;     // configuration, why it cannot run
  size_t total() const { return valid.size() + refused.size(); }
};

// Empty lists mean "every value": every variant of the table, work-groups 32, 64,
// ... up to the device's limit (at most 1024), and each variant's own unroll /
// bodies-per-item / split values. A list given applies to every chosen variant,
// so a value a variant does not offer is refused with that reason.
struct NBodySweepRanges {
  std::vector<std::string> variants;
  std::vector<int> workGroups, unrolls, bodiesPerItem, splits;
};
// What the Sweep panel starts with: the N-body descriptor's "quick_sweep" subset
// (compute/kernel_ops.cpp says which values and why).
NBodySweepRanges quickNBodySweep();
// `base` supplies what is not swept (precision, rsqrt, fast math, ftz, extra options).
SweepPlan<NBodyConfig> planNBodySweep(const NBodySweepRanges& ranges, const NBodyConfig& base,
                                      const DeviceDescriptor& device);

// Transpose variants have different parameters: tiles apply to the tiled and 4x4
// variants, rows per item to the tiled ones, work-groups to the 4x4 ones (and block4x16_gray), 2D
// shapes to naive. Padding and block order are variants of their own
// (tiled_padded, tiled_diagonal, block4x4_diagonal, *_columns). Empty lists: the variant's
// own values; naive shapes default to five common ones (every shape would take
// minutes of builds).
struct TransposeSweepRanges {
  std::vector<std::string> variants;
  std::vector<int> tiles, rowsPerItem, workGroups;
  std::vector<std::pair<int, int>> naiveShapes;
};
const std::vector<std::pair<int, int>>& defaultNaiveTransposeShapes();
// What the Sweep panel starts with: the transpose descriptor's "quick_sweep" subset
// (one variant of each kind, every value of each).
TransposeSweepRanges quickTransposeSweep();
SweepPlan<TransposeConfig> planTransposeSweep(const TransposeSweepRanges& ranges, const DeviceDescriptor& device,
                                              int channels);

}  // namespace ks
