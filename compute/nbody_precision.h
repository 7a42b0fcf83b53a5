#pragma once
// The N-body precision settings compared for speed and accuracy (issue 23), as
// named in `--sweep --precision fp32,fp64,fast-math,ftz,precise-rsqrt`: fp32 with
// native_rsqrt (the default), and each of the others changing one thing from it.
#include <optional>
#include <string>
#include <vector>

#include "compute/nbody_variants.h"

namespace ks {

const std::vector<std::string>& nbodyPrecisionNames();
// `base` with the named setting applied on top; nullopt for an unknown name.
std::optional<NBodyConfig> withNBodyPrecision(NBodyConfig base, const std::string& name);

}  // namespace ks
