#pragma once
// Sizing the N-body slices of a split step (issue 24) by what each device
// spends on its share of a step, not by its kernel alone: the device that
// draws also runs GL's drawing of all bodies, and the other devices would wait
// for it every step. Pure functions of measured (or, in tests, given) costs.
#include <vector>

#include "compute/nbody_multi_device.h"

namespace ks {

// One device's time for its share of a step.
struct NBodyDeviceCost {
  double kernelMs = 0.0;  // its slice's kernel (its OpenCL event)
  double otherMs = 0.0;   // the rest of its share: from the step's launch until its kernel began, as the
                          // device was busy with other work (the display device's drawing), per step
  double totalMs() const { return kernelMs + otherMs; }
};

// Mean over largest of the devices' whole shares: 1 when all finish together.
double nbodyCostBalance(const std::vector<NBodyDeviceCost>& costs);

// Weights for nbodySlices so that each device's kernel (its bodies over its
// measured speed, `slices[d].count / kernelMs`) plus its other work comes out
// the same for all: a device with other work gets fewer bodies. A device whose
// other work alone exceeds the common time gets the least a weight can give (one
// work-group, by nbodySlices). A kernel time that is not a positive number
// counts as the mean speed of the others.
std::vector<double> nbodyBalancedWeights(const std::vector<NBodySlice>& slices,
                                         const std::vector<NBodyDeviceCost>& costs);

// The slowest device's whole share should the slices go from `now` to `next`,
// with each device's kernel time set by its busiest compute unit: `now`'s time
// scaled by the work-groups per compute unit (rounded up) next over now. On four
// H200s at N = 1M the 4 work-groups per SM of 512 bodies take 140 ms for any
// slice of 397 to 528 groups, and 529 take 174 ms: bodies moved by kernel time
// alone can make every frame slower. `computeUnits`: one per device (0 counts as 1).
double nbodyPredictedSlowestMs(const std::vector<NBodySlice>& now, const std::vector<NBodySlice>& next, size_t group,
                               const std::vector<unsigned>& computeUnits, const std::vector<NBodyDeviceCost>& costs);

// Medians over frames of each device's costs (frames with another device count are left out).
std::vector<NBodyDeviceCost> nbodyMedianCosts(const std::vector<std::vector<NBodyDeviceCost>>& frames);

}  // namespace ks
