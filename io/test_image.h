#pragma once
// The image lab's built-in picture, shown when no file is open.
#include "io/image_file.h"

namespace ks {

// A generated RGBA picture for checking orientation and histograms by eye:
// red grows to the right and green downwards over a blue of 128, a dark grid,
// a white ring in the middle, a 16-step gray wedge near the bottom, and four
// distinct corner squares (top-left red, top-right green, bottom-left blue,
// bottom-right magenta) so every flip, rotation and transpose looks different.
// Throws std::invalid_argument unless both sizes are positive.
HostImage makeTestImage(int width, int height);

}  // namespace ks
