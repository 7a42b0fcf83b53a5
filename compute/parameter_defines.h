#pragma once
// The build options a kernel's whole-number parameters become: " -DMACRO=value",
// with the macro the operation's descriptor (compute/kernel_op.h) gives the variant.
// The option builders (imageRotateBuildOptions, ...) name each parameter by its one
// name (its CSV column and settings key) and write no macro of their own, so a
// parameter's name and its macro stand together in the descriptor only.
#include <initializer_list>
#include <string>
#include <string_view>

#include "compute/kernel_op.h"

namespace ks {

struct DefineValue {
  std::string_view parameter;  // "rows_per_item"
  int value;
};

// " -DMACRO=value" for each given parameter, in the order given, that the variant
// passes to its source: one the variant does not use, or passes as a launch shape
// only (no macro), adds nothing. A variant the operation does not list takes the
// operation's macros (the builders run before the checks in some paths).
std::string parameterDefines(const KernelOp& op, std::string_view variant, std::initializer_list<DefineValue> values);

}  // namespace ks
