#include "compute/interop/interop_check.h"

#include <stdexcept>

#include "compute/compute_context.h"
#include "render/gl_check.h"

namespace ks {

uint32_t interopPattern(uint32_t index, uint32_t seed) {
  uint32_t x = index * 0x9E3779B9u ^ seed;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

InteropChecker::InteropChecker(ComputeContext& compute) : compute_(compute) {
  auto build = compute.buildKernelFile("interop_check.cl");
  if (!build->ok()) throw std::runtime_error(build->error + "\n" + build->log);
  fill_ = Kernel(build->program.get(), "fill_pattern");
}

void InteropChecker::runFill(cl_mem words, size_t bytes, uint32_t seed) {
  const cl_uint count = static_cast<cl_uint>(bytes / 4);
  fill_.setArg(0, words);
  fill_.setArg(1, count);
  fill_.setArg(2, static_cast<cl_uint>(seed));
  const size_t local = 64;
  compute_.queue().enqueueKernel(fill_, {(count + local - 1) / local * local}, {local});
  compute_.queue().finish();
}

void InteropChecker::fill(SharedBuffer& buffer, uint32_t seed) {
  buffer.acquireForCompute(compute_.queue());
  runFill(buffer.clMem(), buffer.bytes(), seed);
  buffer.releaseForDisplay(compute_.queue());
}

static size_t countMismatches(const std::vector<uint32_t>& words, uint32_t seed) {
  size_t bad = 0;
  for (size_t i = 0; i < words.size(); ++i)
    if (words[i] != interopPattern(static_cast<uint32_t>(i), seed)) ++bad;
  return bad;
}

size_t InteropChecker::countBufferMismatches(const SharedBuffer& buffer, uint32_t seed) const {
  std::vector<uint32_t> words(buffer.bytes() / 4);
  glBindBuffer(GL_ARRAY_BUFFER, buffer.glBuffer());
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(words.size() * 4), words.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glCheck("glGetBufferSubData (interop check)");
  return countMismatches(words, seed);
}

size_t InteropChecker::countTextureMismatches(SharedTexture& texture, uint32_t seed) {
  texture.acquireForCompute(compute_.queue());
  runFill(texture.pixels().clMem(), texture.pixels().bytes(), seed);
  texture.releaseForDisplay(compute_.queue());
  std::vector<uint32_t> pixels(static_cast<size_t>(texture.width()) * texture.height());
  glBindTexture(GL_TEXTURE_2D, texture.texture());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  glCheck("glGetTexImage (interop check)");
  return countMismatches(pixels, seed);
}

}  // namespace ks
