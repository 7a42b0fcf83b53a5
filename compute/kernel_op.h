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
#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
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

// One value of a refusal's text: the placeholder's name and what fills it.
struct RefusalValue {
  std::string_view name;  // "bytes" fills "{bytes}"
  std::string value;
  RefusalValue(std::string_view n, std::string v) : name(n), value(std::move(v)) {}
  RefusalValue(std::string_view n, const char* v) : name(n), value(v) {}
  template <class Number>
    requires std::is_integral_v<Number>
  RefusalValue(std::string_view n, Number v) : name(n), value(std::to_string(v)) {}
};

// A rule a configuration must meet, and what the device's refusal says when not.
// The reason is the one text of that refusal: the configuration checks
// (*ConfigProblem) fill in its {placeholders}, nothing else spells it.
struct KernelConstraint {
  std::string id;      // what checks look it up by: "local_memory"
  std::string rule;    // "the tile fits in local memory"
  std::string reason;  // "the tile needs {bytes} bytes of local memory; the device has {max}"

  // The reason with each {name} replaced by its value (a placeholder without a value stays as it is).
  std::string refusal(std::initializer_list<RefusalValue> values = {}) const;
};

// Part of a subset: some variants, and for some parameters the values picked
// (a parameter not named keeps every value the variant offers).
struct KernelOpSlice {
  std::vector<std::string> variants;
  std::vector<std::pair<std::string, std::vector<int>>> values;  // parameter name, the values picked
  const std::vector<int>* picked(std::string_view parameter) const;  // null when the slice does not name it
};

// A deliberate pick among an operation's configurations (what a quick sweep or a
// bench times), kept as data beside the values it picks from, with the reason;
// tests/test_kernel_ops.cpp checks that each value is one its variants offer.
struct KernelOpSubset {
  std::string name;    // "quick_sweep", "bench_image"
  std::string reason;  // why these and not all
  std::vector<KernelOpSlice> slices;
  // Whether some slice names `variant` and holds each of the parameters it picks
  // (`valueOf` gives the configuration's value of a parameter).
  template <class ValueOf>
  bool includes(std::string_view variant, ValueOf valueOf) const {
    for (const KernelOpSlice& slice : slices) {
      if (std::find(slice.variants.begin(), slice.variants.end(), variant) == slice.variants.end()) continue;
      bool holds = true;
      for (const auto& [parameter, values] : slice.values)
        holds = holds && std::find(values.begin(), values.end(), valueOf(parameter)) != values.end();
      if (holds) return true;
    }
    return false;
  }
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
  std::vector<KernelOpSubset> subsets;

  // Throws std::out_of_range for a name the operation does not have (a programming error).
  const KernelParameter& parameter(std::string_view name) const;
  const KernelOpVariant* variant(std::string_view name) const;  // null when unknown
  // Throws std::out_of_range for an id the operation does not list (a programming error).
  const KernelConstraint& constraint(std::string_view id) const;
  // What a check says when the configuration breaks constraint `id`.
  std::string refusal(std::string_view id, std::initializer_list<RefusalValue> values = {}) const {
    return constraint(id).refusal(values);
  }
  std::vector<std::string> variantNames() const;
  // Throws std::out_of_range for a name the operation does not list (a programming error).
  const KernelOpSubset& subset(std::string_view name) const;
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
