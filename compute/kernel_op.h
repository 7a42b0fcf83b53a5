#pragma once
// One description of each kernel operation (N-body, rotate, transpose, histogram,
// copy), shared by everything that offers, checks or records its configurations
// (issue 21): the CLI's options and their checks, the UI's combos, the sweep plans
// and the tests read their value lists from here instead of spelling them again.
//
// A parameter has one name (`unroll`, `work_group_x`) that is its run-record key,
// its CSV column and its settings/tuning key; the build macro carries it into the
// .cl file (`-DUNROLL=8`), as CLBlast's tuning parameters do. The values each
// variant offers come from the operation's variant table (nbody_variants.cpp,
// image_rotate.cpp, ...), the one place they are written; the descriptor collects
// them, so a new value or parameter is one line there and one here.
#include <string>
#include <string_view>
#include <vector>

namespace ks {

// A whole-number parameter of an operation's kernels.
struct KernelParameter {
  std::string name;     // run-record key, CSV column, settings key: "bodies_per_item"
  std::string macro;    // the build macro most variants pass it as ("" : a launch shape only, not in the source)
  std::string unit;     // "bodies", "work-items", "pixels"
  std::string meaning;  // one line, for tooltips and help texts
  std::vector<int> values;  // every value some variant offers, ascending, each once
};

// What one variant offers for one parameter.
struct VariantParameter {
  std::string name;     // the KernelParameter's name
  std::string macro;    // the build macro for this variant ("" : not passed to the kernel source)
  std::vector<int> values;  // the values this variant takes (a device may still refuse some)
};

struct KernelOpVariant {
  std::string name;         // "blocked", "bilinear_image"
  std::string kernel;       // the kernel function in the operation's .cl file
  std::string description;
  std::vector<VariantParameter> parameters;  // the parameters it uses, in the operation's order
  const VariantParameter* parameter(std::string_view name) const;  // null when the variant does not use it
};

// A rule a configuration must meet, and what the device's refusal says when not.
struct KernelConstraint {
  std::string rule;    // "the tile fits in local memory"
  std::string reason;  // "the tile needs N bytes of local memory; the device has M"
};

struct KernelOp {
  std::string name;           // "nbody", "rotate", "transpose", "histogram", "copy"
  std::string kernelFile;     // in kernels/
  std::string figureOfMerit;  // "interactions/s", "GB/s"
  std::string workModel;      // the function that counts one launch's work (compute/work_model.h)
  std::string check;          // the function that says why a device refuses a configuration
  std::vector<KernelOpVariant> variants;
  std::vector<KernelParameter> parameters;
  std::vector<KernelConstraint> constraints;

  // Throws std::out_of_range for a name the operation does not have (a programming error).
  const KernelParameter& parameter(std::string_view name) const;
  const KernelOpVariant* variant(std::string_view name) const;  // null when unknown
  std::vector<std::string> variantNames() const;
};

const KernelOp& nbodyOp();
const KernelOp& rotateOp();
const KernelOp& transposeOp();
const KernelOp& histogramOp();
const KernelOp& copyOp();
// All of them, in that order.
const std::vector<const KernelOp*>& kernelOps();
const KernelOp* findKernelOp(std::string_view name);

// The pixel sizes every image operation takes: 1 (gray) and 4 (RGBA) channels.
const std::vector<int>& imageChannelCounts();

}  // namespace ks
