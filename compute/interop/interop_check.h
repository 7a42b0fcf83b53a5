#pragma once
// Writes known data through an interop path and reads it back through GL: the
// round trip the tests and `--bench interop` rely on.
#include <cstdint>
#include <string>
#include <vector>

#include "compute/interop/interop.h"

namespace ks {

// CPU twin of interop_pattern() in kernels/interop_check.cl.
uint32_t interopPattern(uint32_t index, uint32_t seed);

class InteropChecker {
 public:
  explicit InteropChecker(ComputeContext& compute);  // builds kernels/interop_check.cl
  // Acquire, kernel fill, release: the per-frame protocol, once.
  void fill(SharedBuffer& buffer, uint32_t seed);
  // Words of the GL buffer that differ from the pattern (0: bit-exact).
  size_t countBufferMismatches(const SharedBuffer& buffer, uint32_t seed) const;
  // The same through a texture: kernel fills the pixel buffer, GL copies it into
  // the texture, and the texture is read back with glGetTexImage.
  size_t countTextureMismatches(SharedTexture& texture, uint32_t seed);

 private:
  void runFill(cl_mem words, size_t bytes, uint32_t seed);  // kernel fill, waits for it
  ComputeContext& compute_;
  Kernel fill_;
};

}  // namespace ks
