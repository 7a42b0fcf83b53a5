#include "compute/interop/interop.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include "compute/compute_context.h"
#include "compute/interop/backends.h"
#include "render/gl_check.h"

namespace ks {

namespace {

// A GPU that has not finished drawing in this long is hung: say so instead of waiting forever.
constexpr GLuint64 kFenceTimeoutNs = 10'000'000'000ull;

void waitForFence(GLsync fence) {
  // GL_SYNC_FLUSH_COMMANDS_BIT: a fence still in the client's command buffer would never signal.
  const GLenum result = glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, kFenceTimeoutNs);
  if (result == GL_TIMEOUT_EXPIRED) throw InteropError("GL did not finish drawing a shared buffer within 10 s");
  if (result == GL_WAIT_FAILED) {
    glCheck("glClientWaitSync (shared buffer)");
    throw InteropError("glClientWaitSync failed (shared buffer)");
  }
}

}  // namespace

namespace {
thread_local HandOverClock handOver;  // GL and OpenCL calls are made from the frame loop's thread
}  // namespace

HandOverClock takeHandOverClock() { return std::exchange(handOver, HandOverClock{}); }

void addGpuWaitMs(double ms) { handOver.waitMs += ms; }

SharedBuffer::~SharedBuffer() { deleteFence(); }

void SharedBuffer::deleteFence() {
  if (drawn_) glDeleteSync(std::exchange(drawn_, nullptr));
}

void SharedBuffer::waitUntilIdle() noexcept {
  try {
    if (released_) released_.wait();
    if (drawn_) waitForFence(drawn_);
  } catch (const std::exception&) {
    // Destruction goes on; the error was or will be reported where the work was asked for.
  }
  released_ = Event();
  deleteFence();
}

void SharedBuffer::acquireForCompute(Queue& queue) {
  auto start = std::chrono::steady_clock::now();
  if (drawn_) {
    // Only the draws that read this buffer; usually long done (double buffering).
    if (waitsForGlDraws_) waitForFence(drawn_);
    deleteFence();
    handOver.waitMs += msSince(start);
    start = std::chrono::steady_clock::now();
  }
  enqueueAcquire(queue);
  timings_.acquireMs = msSince(start);
  handOver.interopMs += timings_.acquireMs;
}

void SharedBuffer::releaseForDisplay(Queue& queue) {
  const auto start = std::chrono::steady_clock::now();
  enqueueRelease(queue, released_);
  queue.flush();  // to the device now: ready() must not wait for a later flush
  timings_.releaseMs = msSince(start);
  timings_.copyMs = 0.0;
  handOver.interopMs += timings_.releaseMs;
}

bool SharedBuffer::ready() {
  if (!released_) return true;
  try {
    if (!released_.complete()) return false;
  } catch (...) {
    released_ = Event();  // reported once; the buffer holds whatever the failed commands left
    throw;
  }
  released_ = Event();
  const auto start = std::chrono::steady_clock::now();
  finishRelease();
  timings_.copyMs = msSince(start);
  handOver.interopMs += timings_.copyMs;
  return true;
}

void SharedBuffer::waitUntilReady() {
  if (released_) {
    const auto start = std::chrono::steady_clock::now();
    try {
      released_.wait();
    } catch (...) {
      released_ = Event();
      throw;
    }
    handOver.waitMs += msSince(start);
  }
  ready();
}

void SharedBuffer::drawnByGl() {
  deleteFence();
  drawn_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  if (!drawn_) glCheck("glFenceSync (shared buffer)");
}

int64_t maxSharedImagePixels() {
  GLint texels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
  return texels;
}

SharedBufferPair::SharedBufferPair(InteropBackend& backend, size_t bytes) : backend_(&backend), bytes_(bytes) {
  buffers_[0] = backend.createBuffer(bytes);
}

void SharedBufferPair::showPending() {
  shown_ = std::exchange(pending_, -1);
  const InteropTimings& t = buffers_[static_cast<size_t>(shown_)]->timings();
  timings_.copyMs = t.copyMs;
}

SharedBuffer& SharedBufferPair::beginUpdate(Queue& queue) {
  if (pending_ >= 0) {
    buffers_[static_cast<size_t>(pending_)]->waitUntilReady();
    showPending();
  }
  const int target = shown_ < 0 ? 0 : 1 - shown_;
  auto& buffer = buffers_[static_cast<size_t>(target)];
  if (!buffer) buffer = backend_->createBuffer(bytes_);
  buffer->acquireForCompute(queue);
  writing_ = target;
  timings_ = buffer->timings();
  return *buffer;
}

void SharedBufferPair::endUpdate(Queue& queue) {
  if (writing_ < 0) return;
  SharedBuffer& buffer = *buffers_[static_cast<size_t>(writing_)];
  buffer.releaseForDisplay(queue);
  pending_ = std::exchange(writing_, -1);
  timings_.releaseMs = buffer.timings().releaseMs;
}

void SharedBufferPair::abandonUpdate(Queue& queue) {
  if (writing_ < 0) return;
  buffers_[static_cast<size_t>(std::exchange(writing_, -1))]->releaseForDisplay(queue);
}

bool SharedBufferPair::refresh() {
  if (pending_ < 0 || !buffers_[static_cast<size_t>(pending_)]->ready()) return false;
  showPending();
  return true;
}

void SharedBufferPair::finishUpdates() {
  if (pending_ < 0) return;
  buffers_[static_cast<size_t>(pending_)]->waitUntilReady();
  showPending();
}

void SharedBufferPair::makeBoth() {
  for (auto& buffer : buffers_)
    if (!buffer) buffer = backend_->createBuffer(bytes_);
}

void SharedBufferPair::drawnByGl() {
  if (SharedBuffer* buffer = shown()) buffer->drawnByGl();
}

std::vector<PictureLevel> SharedImage::levelsOf(int width, int height, TextureView view) {
  if (width <= 0 || height <= 0) throw InteropError("picture size must be positive");
  std::vector<PictureLevel> levels = pictureLevels(width, height, view == TextureView::Pixels);
  const size_t texels = pictureTexels(levels);
  const int64_t limit = maxSharedImagePixels();
  if (static_cast<int64_t>(texels) > limit)
    throw InteropError("a " + std::to_string(width) + "x" + std::to_string(height) + " picture needs " +
                       std::to_string(texels) + " texels" + (levels.size() > 1 ? " with its smaller levels" : "") +
                       "; this OpenGL draws at most " + std::to_string(limit) +
                       " from one buffer (GL_MAX_TEXTURE_BUFFER_SIZE)");
  return levels;
}

SharedImage::SharedImage(InteropBackend& backend, int width, int height, TextureView view)
    : width_(width),
      height_(height),
      view_(view),
      levels_(levelsOf(width, height, view)),
      buffers_(backend, pictureTexels(levels_) * 4) {}

SharedImage::~SharedImage() {
  for (GLuint texture : textures_)
    if (texture) glDeleteTextures(1, &texture);
}

SharedBuffer& SharedImage::beginUpdate(Queue& queue, PictureLevelMask levels) {
  SharedBuffer& pixels = buffers_.beginUpdate(queue);
  written_[static_cast<size_t>(buffers_.writingIndex())] = levels;
  GLuint& texture = textures_[static_cast<size_t>(buffers_.writingIndex())];
  if (!texture) {
    try {
      glGenTextures(1, &texture);
      glBindTexture(GL_TEXTURE_BUFFER, texture);
      glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA8, pixels.glBuffer());
      glBindTexture(GL_TEXTURE_BUFFER, 0);
      glCheck("SharedImage: glTexBuffer");
    } catch (...) {
      if (texture) glDeleteTextures(1, &texture);
      texture = 0;
      buffers_.abandonUpdate(queue);
      throw;
    }
  }
  return pixels;
}

PictureLevelMask SharedImage::levelsBeingWritten() const {
  const int writing = buffers_.writingIndex();
  return writing >= 0 ? written_[static_cast<size_t>(writing)] : PictureLevelMask{0};
}

PictureLevelMask SharedImage::shownLevels() const {
  return hasPicture() ? written_[static_cast<size_t>(buffers_.shownIndex())] : PictureLevelMask{0};
}

void SharedImage::drawnAtLevel(int level) {
  if (level >= 0 && level < std::min(levelCount(), pictureLevelLimit)) drawn_ |= PictureLevelMask{1} << level;
}

PictureLevelMask SharedImage::takeLevelsToWrite() {
  if (drawn_) toWrite_ = std::exchange(drawn_, 0);
  return toWrite_;
}

std::unique_ptr<SharedImage> InteropBackend::createImage(int width, int height, TextureView view) {
  return std::make_unique<SharedImage>(*this, width, height, view);
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
