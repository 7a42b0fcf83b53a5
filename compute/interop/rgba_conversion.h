#pragma once
// kernels/display.cl to_rgba: a result of 1 or 4 channels as the RGBA8 texels GL
// draws, four pixels a work-item (one 16-byte store each; the last work-item also
// takes the 1 to 3 pixels past a multiple of four).
#include <cstddef>

namespace ks {

// The work-items to_rgba needs for a picture of `pixels` pixels.
inline size_t toRgbaWorkItems(size_t pixels) { return (pixels + 3) / 4; }

}  // namespace ks
