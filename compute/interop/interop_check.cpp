#include "compute/interop/interop_check.h"

#include <cstring>
#include <stdexcept>

#include "compute/compute_context.h"
#include "render/gl_check.h"
#include "render/image_quad.h"

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
  buffer.waitUntilReady();
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

void InteropChecker::update(SharedImage& image, uint32_t seed, PictureLevels* levels) {
  SharedBuffer& pixels = image.beginUpdate(compute_.queue(), levels ? allPictureLevels : PictureLevelMask{1});
  runFill(pixels.clMem(), static_cast<size_t>(image.width()) * image.height() * 4, seed);
  if (levels) levels->enqueue(compute_.queue(), image, pixels);
  image.endUpdate(compute_.queue());
}

size_t InteropChecker::countImageMismatches(SharedImage& image, uint32_t seed) {
  image.finishUpdates();
  return countShownMismatches(image, seed);
}

size_t InteropChecker::countShownMismatches(const SharedImage& image, uint32_t seed) const {
  const size_t pixels = static_cast<size_t>(image.width()) * image.height();
  if (!image.hasPicture()) return pixels;
  const std::vector<uint8_t> drawn = drawSharedImage(image, false, image.width(), image.height());
  std::vector<uint32_t> words(pixels);
  std::memcpy(words.data(), drawn.data(), pixels * 4);
  return countMismatches(words, seed);
}

std::vector<uint8_t> drawSharedImage(const SharedImage& image, bool smooth, int width, int height) {
  return drawOffscreen(width, height, [&] {
    const ImageQuad quad;
    quad.draw(image.texture(), image.levels(), smooth,
              {0.0f, 0.0f, static_cast<float>(width), static_cast<float>(height), width, height},
              image.shownLevels());
  });
}

std::vector<uint8_t> drawOffscreen(int width, int height, const std::function<void()>& draw) {
  GLint previousFramebuffer = 0, viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previousFramebuffer);
  glGetIntegerv(GL_VIEWPORT, viewport);
  GLuint target = 0, fbo = 0;
  glGenTextures(1, &target);
  glBindTexture(GL_TEXTURE_2D, target);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
  std::vector<uint8_t> bottomUp(static_cast<size_t>(width) * height * 4), topDown(bottomUp.size());
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  if (complete) {
    glViewport(0, 0, width, height);
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    draw();
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
  }
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previousFramebuffer));
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &target);
  if (!complete) throw std::runtime_error("drawOffscreen: the framebuffer is not complete");
  glCheck("drawOffscreen");
  const size_t row = static_cast<size_t>(width) * 4;
  for (int y = 0; y < height; ++y) std::memcpy(&topDown[y * row], &bottomUp[(height - 1 - y) * row], row);
  return topDown;
}

}  // namespace ks
