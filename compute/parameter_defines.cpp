#include "compute/parameter_defines.h"

namespace ks {

std::string parameterDefines(const KernelOp& op, std::string_view variant, std::initializer_list<DefineValue> values) {
  const KernelOpVariant* v = op.variant(variant);
  std::string out;
  for (const DefineValue& d : values) {
    std::string macro;
    if (v) {
      const VariantParameter* vp = v->parameter(d.parameter);
      if (vp) macro = vp->macro;
    } else {
      macro = op.parameter(d.parameter).macro;
    }
    if (!macro.empty()) out += " -D" + macro + "=" + std::to_string(d.value);
  }
  return out;
}

}  // namespace ks
