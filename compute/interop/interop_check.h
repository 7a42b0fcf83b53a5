#pragma once
// Writes known data through an interop path and reads it back through GL: the
// round trip the tests and `--bench interop` rely on.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compute/interop/interop.h"
#include "compute/interop/picture_levels.h"

namespace ks {

// CPU twin of interop_pattern() in kernels/interop_check.cl.
uint32_t interopPattern(uint32_t index, uint32_t seed);

// Runs `draw` into a W x H RGBA8 framebuffer of its own (cleared to 0, blending and
// scissor off, viewport the whole) and reads it back, top row first.
std::vector<uint8_t> drawOffscreen(int width, int height, const std::function<void()>& draw);
// Draws `image` over the whole of such a framebuffer.
std::vector<uint8_t> drawSharedImage(const SharedImage& image, bool smooth, int width, int height);

class InteropChecker {
 public:
  explicit InteropChecker(ComputeContext& compute);  // builds kernels/interop_check.cl
  // Acquire, kernel fill, release, wait until GL may read it: the per-frame protocol, once.
  void fill(SharedBuffer& buffer, uint32_t seed);
  // Words of the GL buffer that differ from the pattern (0: bit-exact), read with
  // glGetBufferSubData: valid for the first read after a fill (see countShownMismatches).
  size_t countBufferMismatches(const SharedBuffer& buffer, uint32_t seed) const;
  // One update of a picture: the kernel fills level 0 of the buffer being written
  // (the picture shown until then stays shown until the update finishes), then
  // `levels`, when given, writes the smaller levels.
  void update(SharedImage& image, uint32_t seed, PictureLevels* levels = nullptr);
  // Pixels of the picture as GL draws it now (at 1:1, into a framebuffer read
  // back) that differ from the pattern. Drawn, not read with glGetBufferSubData:
  // NVIDIA's GL answers a second glGetBufferSubData of imported (external) memory
  // from what it read the first time, while drawing sees what OpenCL wrote since
  // (see docs/BENCHMARKS.md).
  size_t countShownMismatches(const SharedImage& image, uint32_t seed) const;
  // The same once the update in flight has finished and is shown.
  size_t countImageMismatches(SharedImage& image, uint32_t seed);

 private:
  void runFill(cl_mem words, size_t bytes, uint32_t seed);  // kernel fill, waits for it
  ComputeContext& compute_;
  Kernel fill_;
};

}  // namespace ks
