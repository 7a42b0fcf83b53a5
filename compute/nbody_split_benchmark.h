#pragma once
// One N-body configuration measured with the step split over several devices
// (compute/nbody_multi_device.h), for `--bench nbody --devices`: untimed warm-up
// steps, the slices re-balanced from the warm-up's kernel times, then timed steps.
#include <vector>

#include "compute/device_group.h"
#include "compute/nbody_benchmark.h"
#include "compute/nbody_multi_device.h"

namespace ks {

struct NBodySplitMeasurement {
  // What --bench nbody reports for one device: stepMs holds each split step's
  // host-clock time (launch to every device holding every position), msPerStep
  // the timed steps' total over their count, interactionsPerSecond from it.
  NBodyMeasurement overall;
  std::vector<NBodySlice> slices;                 // as the timed steps ran
  std::vector<std::vector<double>> deviceKernelMs;  // [device][step], device clock
  std::vector<double> exchangeMs;                 // per step: beyond the slowest kernel
  bool rebalanced = false;                        // the warm-up's times moved the slices
  NBodySystem finalState;  // after all the steps (as many as measureNBody runs, so the two compare)
};

// Never throws: failures land in overall.problem (build errors with their log).
NBodySplitMeasurement measureNBodySplit(DeviceGroup& group, const NBodySystem& system, const NBodyConfig& config,
                                        const NBodyParams& params, int iterations);

}  // namespace ks
