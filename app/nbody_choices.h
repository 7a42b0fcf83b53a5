#pragma once
// What the user chooses in the N-body lab: the kernel configuration, the system,
// how it runs and how it is drawn, the conservation check and the split over
// devices. Panels, shortcuts, the command line and the sweep's "apply best" edit
// it; the scene runs it and, when a choice cannot run, puts back what runs.
// Not kept in settings.json yet (docs/ARCHITECTURE.md, issue 21, says why).
#include "app/nbody_split_state.h"
#include "compute/nbody_model.h"
#include "compute/nbody_variants.h"
#include "render/particle_renderer.h"

namespace ks {

struct NBodyConservationChoices {
  bool on = true;      // measure energy and momenta while it runs
  int everySteps = 50;  // how often (a measurement costs about a step)
};

struct NBodyChoices {
  NBodyConfig config;
  bool configFromUser = false;  // false: the tuned configuration for the device
  NBodyParams params;
  int bodies = 16384;
  // At start, lower `bodies` to what the device steps at 10 FPS or more (no --n
  // given, not a GPU): measured once, before the scene's first frame.
  bool fitBodiesToDevice = false;
  NBodyPreset preset = NBodyPreset::DiskGalaxy;
  int seed = 1;
  bool paused = false;
  int stepsPerFrame = 1;
  ParticleStyle style;
  bool autoSpeedScale = true;
  NBodyConservationChoices conservation;
  NBodySplitChoices split;  // the step split over several devices (issue 24)
};

}  // namespace ks
