#pragma once
// What the N-body lab's scene publishes for the panels, the Profiler, run records,
// the state dump and the headless summary: what runs, its speed, the outcome of the
// last request, the conservation check's measurements and the split's figures. Only
// the scene (app/nbody_scene*.cpp) writes it; everyone else gets it as const.
#include <string>
#include <vector>

#include "app/nbody_split_state.h"
#include "compute/cl_objects.h"
#include "compute/nbody_invariants.h"
#include "compute/nbody_variants.h"

namespace ks {

// Energy and momenta of the N-body system, measured on the device every so many
// steps while it runs (NBodyConservationChoices); drift is from the first
// measurement after the system, its parameters or the kernel configuration last changed.
struct NBodyConservationReadings {
  std::string baseline;  // what the drift is measured from: "step 120: blocked wg=256 ... fp32"
  unsigned long long baselineStep = 0, lastStep = 0;
  bool hasDrift = false;  // a measurement after the baseline arrived
  NBodyDrift drift;
  std::vector<float> energyDrift;  // relative energy drift per measurement, oldest first (the plot)
  bool sumsInDouble = false;
  double kernelMs = 0.0;    // the newest measurement's kernel time
  std::string unavailable;  // why nothing is measured (its kernel did not build)
};

struct NBodyReadings {
  size_t runningBodies = 0;
  NBodyConfig runningConfig;
  KernelInfo kernelInfo;
  double kernelMs = 0.0;  // per step, of the newest timed steps (a frame late)
  double interactionsPerSecond = 0.0;
  double stepsPerSecond = 0.0;
  unsigned long long steps = 0;
  unsigned long long timedSteps = 0;  // how many times a step timing arrived (never goes down)
  std::string message;                // the outcome of the last request, or why it failed
  std::string verification;
  NBodyConservationReadings conservation;
  NBodySplitReadings split;  // the step split over several devices (issue 24)
  // How the particles were drawn last frame, in words: the way, and for "automatic" each way's
  // measured GPU time or why the compute splat cannot run here.
  std::string particleDrawing;
};

}  // namespace ks
