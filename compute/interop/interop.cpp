#include "compute/interop/interop.h"

#include <chrono>

#include "compute/compute_context.h"
#include "compute/interop/backends.h"
#include "render/gl_check.h"

namespace ks {

SharedTexture::SharedTexture(std::unique_ptr<SharedBuffer> pixels, int width, int height, TextureView view)
    : pixels_(std::move(pixels)), width_(width), height_(height), view_(view) {
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  const bool pixelView = view == TextureView::Pixels;
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, pixelView ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, pixelView ? GL_NEAREST : GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  try {
    glCheck("SharedTexture: glTexImage2D");
  } catch (...) {
    glDeleteTextures(1, &texture_);
    throw;
  }
}

SharedTexture::~SharedTexture() { glDeleteTextures(1, &texture_); }

void SharedTexture::releaseForDisplay(Queue& queue) {
  pixels_->releaseForDisplay(queue);
  // Buffer to texture on the GPU: the buffer is the pixel-unpack source. On the
  // host path the buffer was just filled from the host, so this is the upload.
  const auto start = std::chrono::steady_clock::now();
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixels_->glBuffer());
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  if (view_ == TextureView::Pixels) glGenerateMipmap(GL_TEXTURE_2D);  // the smaller levels follow level 0
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glCheck("SharedTexture: pixel-unpack copy");
  timings_ = pixels_->timings();
  timings_.copyMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<SharedTexture> InteropBackend::createTexture(int width, int height, TextureView view) {
  if (width <= 0 || height <= 0) throw InteropError("texture size must be positive");
  return std::make_unique<SharedTexture>(createBuffer(static_cast<size_t>(width) * height * 4), width, height, view);
}

std::vector<InteropPathStatus> probeInteropPaths(ComputeContext& compute) {
  return {probeGlSharingPath(compute), probeExternalPath(compute), {InteropPath::Host, true, "always available"}};
}

std::unique_ptr<InteropBackend> createInteropBackend(InteropPath path, ComputeContext& compute) {
  switch (path) {
    case InteropPath::GlSharing: return createGlSharingBackend(compute);
    case InteropPath::External: return createExternalBackend(compute);
    case InteropPath::Host: return createHostBackend(compute);
  }
  throw InteropError("unknown interop path");
}

}  // namespace ks
