#pragma once
// What the user chooses in the N-body lab: the kernel configuration, the system,
// how it runs and how it is drawn, the conservation check and the split over
// devices. Panels, shortcuts, the command line and the sweep's "apply best" edit
// it; the scene runs it and, when a choice cannot run, puts back what runs.
// settings.json keeps it as it is (the "nbody" section, writeNBodyChoices): the
// kernel configuration when the user chose it, bodies, preset, seed, steps per
// frame, the drawing, the automatic speed scale and the conservation check. Not
// kept: the step's parameters (the preset sets them at every start), pause, and
// the split (a request, naming devices by their index in this run's list).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "compute/nbody_model.h"
#include "compute/nbody_variants.h"
#include "core/particle_style.h"

namespace ks {

struct NBodyConservationChoices {
  bool on = true;      // measure energy and momenta while it runs
  int everySteps = 50;  // how often (a measurement costs about a step)
  bool operator==(const NBodyConservationChoices&) const = default;
};

// The step split over several devices (issue 24), asked for by the Devices panel or
// --devices. Indices into AppState::devices; handled between frames. Only the display
// device (or nothing) means the display device alone, as without a split.
struct NBodySplitChoices {
  std::optional<std::vector<size_t>> requested;
  bool startAtOnce = false;  // --devices: the first request waits for the builds (before any frame)
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
  // Set when settings.json gave the steps per frame and the brightness: the scene's
  // first start keeps them instead of the preset's (then clears this).
  bool keepSavedStepsAndBrightness = false;
};

// The "nbody" section of settings.json. Writing keeps the fields listed at the top.
void to_json(nlohmann::json& j, const NBodyChoices& choices);
// Reads what the section has into `choices`. A missing field keeps what `choices`
// holds; a field of the wrong type or out of range keeps it too and gives a message
// naming the key and the value (returned, for the log). A configuration whose
// variant this version does not know is dropped the same way; whether the device
// runs the one read is the scene's question (it falls back to the tuned one).
std::vector<std::string> readNBodyChoices(const nlohmann::json& section, NBodyChoices& choices);

}  // namespace ks
