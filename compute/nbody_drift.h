#pragma once
// How well one N-body configuration conserves energy and momenta: S steps from a
// start system, with the invariants measured on the device before and after
// (compute/nbody_invariants.h). Beside interactions/s this is the other axis on
// which fp32/fp64, fast math, native_rsqrt and flushed denormals are compared
// (issue 23): `--bench nbody --drift-steps S` and `--sweep --drift-steps S`.
#include <string>

#include "compute/compute_context.h"
#include "compute/nbody_invariants.h"
#include "compute/nbody_model.h"
#include "compute/nbody_variants.h"

namespace ks {

struct NBodyDriftMeasurement {
  NBodyDrift drift;           // after `steps` steps, from the start
  NBodyInvariants start, end;
  int steps = 0;
  bool sumsInDouble = false;  // the invariants were added up in double on the device
  double seconds = 0.0;       // wall time of the steps and the two measurements
  std::string problem;        // empty when measured; else why not
};

// Runs `steps` (>= 1) steps of `config` from `system`, waiting for them in batches.
// Never throws: a build or launch failure lands in `problem`.
NBodyDriftMeasurement measureNBodyDrift(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                                        const NBodyParams& params, int steps);

}  // namespace ks
