#pragma once
// Readings a test puts in place of a scene's, to draw panels without one. Only the
// scene writes ImageLabState's readings; tests go through this (a friend of it).
#include "app/app_state.h"

namespace ks {

struct ImageLabReadingsForTests {
  static ImageLabReadings& of(ImageLabState& lab) { return lab.readings_; }
};

inline ImageLabReadings& stagedReadings(ImageLabState& lab) { return ImageLabReadingsForTests::of(lab); }

}  // namespace ks
