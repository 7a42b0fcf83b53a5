#pragma once
// Readings a test puts in place of a scene's, to draw panels without one. Only the
// scenes write ImageLabState's and NBodyState's readings; tests go through these
// (friends of them).
#include "app/app_state.h"

namespace ks {

struct ImageLabReadingsForTests {
  static ImageLabReadings& of(ImageLabState& lab) { return lab.readings_; }
};

inline ImageLabReadings& stagedReadings(ImageLabState& lab) { return ImageLabReadingsForTests::of(lab); }

struct NBodyReadingsForTests {
  static NBodyReadings& of(NBodyState& lab) { return lab.readings_; }
};

inline NBodyReadings& stagedReadings(NBodyState& lab) { return NBodyReadingsForTests::of(lab); }

}  // namespace ks
