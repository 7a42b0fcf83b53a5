#pragma once
// One N-body configuration measured on a device: build, untimed warm-up steps,
// then `iterations` timed steps with a profiling event each. Used by --bench
// nbody, the headless --sweep and the UI's sweep panel.
#include <string>
#include <vector>

#include "compute/compute_context.h"
#include "compute/nbody_model.h"
#include "compute/nbody_variants.h"

namespace ks {

struct NBodyMeasurement {
  NBodyConfig config;
  std::string problem;  // empty when it ran; else why not (build errors with their log)
  bool buildFailed = false;
  KernelInfo info;
  std::string buildLog;
  std::string binary;
  uint64_t sourceHash = 0;
  std::vector<double> stepMs;        // one sample per timed step, device clock
  double msPerStep = 0.0;            // first start to last end, divided by the steps
  double interactionsPerSecond = 0.0;  // from msPerStep
};

// Warm-up steps: max(2, iterations / 10). Never throws: failures land in `problem`.
NBodyMeasurement measureNBody(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                              const NBodyParams& params, int iterations);

// Flops per interaction as NVIDIA's nbody sample counts them: 20 in fp32, 30 in fp64.
double nbodyFlopsPerInteraction(const NBodyConfig& config);

}  // namespace ks
