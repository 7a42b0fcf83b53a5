#include "compute/nbody_precision.h"

namespace ks {

const std::vector<std::string>& nbodyPrecisionNames() {
  static const std::vector<std::string> names = {"fp32", "fp64", "fast-math", "ftz", "precise-rsqrt"};
  return names;
}

std::optional<NBodyConfig> withNBodyPrecision(NBodyConfig c, const std::string& name) {
  if (name == "fp32") return c;
  if (name == "fp64") c.fp64 = true;
  else if (name == "fast-math") c.fastRelaxedMath = true;
  else if (name == "ftz") c.denormsAreZero = true;
  else if (name == "precise-rsqrt") c.nativeRsqrt = false;
  else return std::nullopt;
  return c;
}

}  // namespace ks
