#pragma once
// Kernel output on screen without the scenes knowing how: a SharedBuffer is a GL
// buffer object that kernels write through a cl_mem; a SharedImage is a picture
// drawn straight from such buffers. Three paths implement the hand-over:
//   gl-sharing  cl_khr_gl_sharing: the CL context shares the GL context's objects
//   external    Vulkan-exported device memory imported by both GL and OpenCL
//   host        kernel output read back to the host and uploaded to GL
#include <glad/gl.h>
#include <CL/cl.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/interop/interop_path.h"
#include "core/error.h"
#include "render/image_quad.h"  // PictureLevel: the level chain the display shader reads

namespace ks {

class ComputeContext;
class InteropBackend;

class InteropError : public Error {
 public:
  using Error::Error;
};

// Milliseconds of the last acquire / release / host copy (the "last kernel run"
// of the headless summary). Time blocked on the GPU is counted by the hand-over
// clock below, in the phase of the frame it happened.
struct InteropTimings {
  double acquireMs = 0.0, releaseMs = 0.0, copyMs = 0.0;
};

// A GL buffer object that kernels write through a cl_mem. The protocol, once per
// update, orders the two APIs without glFinish or clFinish:
//   acquireForCompute  waits (CPU) only for the GL commands that drew from this
//                      buffer (a fence placed by drawnByGl), then hands it to OpenCL
//   ...kernels...
//   releaseForDisplay  hands it back; enqueued and flushed, never waited for
//   ready()            polls: true once the device finished (host path: and the
//                      read-back was uploaded to GL); only then may GL draw it
//   drawnByGl()        after GL commands that read it: the next acquire waits for them
// CPU time spent on the hand-over since the last take, by kind, for the frame
// breakdown: the main loop takes it at the end of each phase of a frame, so that a
// wait is counted as a wait, in the phase it happened, and not twice. `wait`: the
// CPU blocked on the GPU (fences, events); `interop`: acquire, release, host copy.
struct HandOverClock {
  double interopMs = 0.0, waitMs = 0.0;
};
HandOverClock takeHandOverClock();
// For waits on the GPU outside the interop layer (a scene waiting for its read-backs).
void addGpuWaitMs(double ms);

class SharedBuffer {
 public:
  virtual ~SharedBuffer();
  size_t bytes() const { return bytes_; }
  GLuint glBuffer() const { return glBuffer_; }
  // The kernels' view. Use it only between acquireForCompute and releaseForDisplay.
  cl_mem clMem() const { return clMem_.get(); }
  void acquireForCompute(Queue& queue);
  void releaseForDisplay(Queue& queue);
  // Never blocks. Throws ClError when a command on the buffer failed.
  bool ready();
  // Blocks until ready(): for pacing (no other buffer to draw) and for tests.
  void waitUntilReady();
  void drawnByGl();
  const InteropTimings& timings() const { return timings_; }

 protected:
  // The path's own hand-over, enqueued on `queue`; enqueueRelease sets `done` to
  // the last command that touches the buffer.
  virtual void enqueueAcquire(Queue& queue) = 0;
  virtual void enqueueRelease(Queue& queue, Event& done) = 0;
  // Once `done` completed: what the CPU still has to do (the host path's upload).
  virtual void finishRelease() {}
  void deleteFence();
  // For destructors: waits for the device and GL to be done with the buffer
  // (commands in flight must not outlive the memory they write); errors ignored.
  void waitUntilIdle() noexcept;

  size_t bytes_ = 0;
  GLuint glBuffer_ = 0;  // owned by the subclass
  MemHandle clMem_;
  InteropTimings timings_;
  // False where the kernels write memory GL never reads (the host path's own
  // cl_mem): acquiring then needs no wait for GL.
  bool waitsForGlDraws_ = true;

 private:
  Event released_;            // the release's last command; empty once seen complete
  GLsync drawn_ = nullptr;    // GL commands that read the buffer
};

// Two SharedBuffers of one size, for data drawn every frame: kernels write one
// while GL draws the other, so in a steady frame neither API waits for the other.
// The second buffer is made when a second update needs it (data written once
// costs one buffer).
class SharedBufferPair {
 public:
  SharedBufferPair(InteropBackend& backend, size_t bytes);
  size_t bytes() const { return bytes_; }
  // The buffer kernels write next, acquired for compute. An update still in
  // flight is first waited for and shown, so that no update is starved when
  // kernels take longer than a frame (this wait paces the frames).
  SharedBuffer& beginUpdate(Queue& queue);
  // Releases it; it is shown once the device is done (refresh).
  void endUpdate(Queue& queue);
  // Releases it after a failure: what is shown stays.
  void abandonUpdate(Queue& queue);
  // Shows the newest finished update; never blocks. True when it changed.
  bool refresh();
  // Waits for the update in flight and shows it (first frames, screenshots, tests).
  void finishUpdates();
  // What GL draws: null before the first update finished.
  SharedBuffer* shown() const { return shown_ >= 0 ? buffers_[static_cast<size_t>(shown_)].get() : nullptr; }
  int shownIndex() const { return shown_; }
  int writingIndex() const { return writing_; }
  // An update released and not yet seen finished: the next beginUpdate would wait for it.
  bool updatePending() const { return pending_ >= 0; }
  // GL commands issued so far read the shown buffer (SharedBuffer::drawnByGl).
  void drawnByGl();
  // Whether both buffers exist; makeBoth() makes the second now (on a CPU's GL a big
  // buffer costs tens of ms, which the caller puts in a frame of its own instead of
  // in the frame that starts the second update).
  bool bothMade() const { return buffers_[0] && buffers_[1]; }
  void makeBoth();
  // Of the last update: its hand-over times (copy and wait once it was shown).
  const InteropTimings& timings() const { return timings_; }

 private:
  void showPending();
  InteropBackend* backend_;  // outlives the pair: scenes drop theirs before the backend goes
  size_t bytes_;
  std::array<std::unique_ptr<SharedBuffer>, 2> buffers_;
  int shown_ = -1;    // the buffer GL draws
  int pending_ = -1;  // released to GL, not yet seen finished
  int writing_ = -1;  // between beginUpdate and endUpdate
  InteropTimings timings_;
};

// How a picture is filtered where it is drawn larger or smaller than its pixels.
enum class TextureView {
  Smooth,  // bilinear magnified, box-filtered minified: a picture stretched to fit (the Julia pattern)
  Pixels,  // nearest magnified (sharp pixels that line up with a pixel inspector), box-filtered minified
};

// A W x H RGBA8 picture that kernels write as a row-major uchar4 buffer and GL
// draws straight from that buffer (a buffer texture the display shader reads,
// render/image_quad): no copy into a 2D texture, no glGenerateMipmap. A Pixels
// picture's buffer also holds its level chain (each level half the one before,
// down to 1x1, as mipmaps), written by kernels after level 0 (PictureLevels), so
// that a shrunk picture is drawn from the level that fits the screen.
class SharedImage {
 public:
  SharedImage(InteropBackend& backend, int width, int height, TextureView view = TextureView::Smooth);
  ~SharedImage();
  SharedImage(const SharedImage&) = delete;
  SharedImage& operator=(const SharedImage&) = delete;
  int width() const { return width_; }
  int height() const { return height_; }
  TextureView view() const { return view_; }
  // Level k: its size and where it starts in the buffer, in texels (level 0 at 0).
  const std::vector<PictureLevel>& levels() const { return levels_; }
  int levelCount() const { return static_cast<int>(levels_.size()); }
  int levelWidth(int k) const { return levels_[static_cast<size_t>(k)].width; }
  int levelHeight(int k) const { return levels_[static_cast<size_t>(k)].height; }
  size_t levelOffset(int k) const { return levels_[static_cast<size_t>(k)].offset; }
  // The buffer to write, whose levels in `levels` the update writes (level 0 too
  // where it is in them; at least one level).
  SharedBuffer& beginUpdate(Queue& queue, PictureLevelMask levels = allPictureLevels);
  // Between beginUpdate and endUpdate: the levels it was told the update writes (the
  // kernels that write them read it here); 0 outside an update.
  PictureLevelMask levelsBeingWritten() const;
  void endUpdate(Queue& queue) { buffers_.endUpdate(queue); }
  void abandonUpdate(Queue& queue) { buffers_.abandonUpdate(queue); }
  bool refresh() { return buffers_.refresh(); }
  void finishUpdates() { buffers_.finishUpdates(); }
  bool hasPicture() const { return buffers_.shown() != nullptr; }
  bool updatePending() const { return buffers_.updatePending(); }
  // The shown picture as a GL_TEXTURE_BUFFER of RGBA8 texels (0 before the first
  // update finished).
  GLuint texture() const { return hasPicture() ? textures_[static_cast<size_t>(buffers_.shownIndex())] : 0; }
  void drawnByGl() { buffers_.drawnByGl(); }
  bool bothBuffersMade() const { return buffers_.bothMade(); }
  void makeBothBuffers() { buffers_.makeBoth(); }
  const InteropTimings& timings() const { return buffers_.timings(); }
  // Which levels hold the picture, so that each update writes only those drawn:
  // the levels the shown picture has; a draw notes the level that fits it
  // (PictureFilter::wantedLevel).
  PictureLevelMask shownLevels() const;
  void drawnAtLevel(int level);
  // The levels for the next update: those drawn since the last call, else the last
  // call's (every level before the first: nothing has been drawn yet).
  PictureLevelMask takeLevelsToWrite();
  // A level drawn since the last takeLevelsToWrite that the shown picture lacks
  // (a still picture zoomed out): it is drawn from a larger level meanwhile.
  bool drawnLevelMissing() const { return (drawn_ & ~shownLevels()) != 0; }

 private:
  static std::vector<PictureLevel> levelsOf(int width, int height, TextureView view);
  int width_, height_;
  TextureView view_;
  std::vector<PictureLevel> levels_;
  SharedBufferPair buffers_;
  std::array<GLuint, 2> textures_{};  // one per buffer, made with it
  std::array<PictureLevelMask, 2> written_{};  // each buffer's levels that hold its picture
  PictureLevelMask drawn_ = 0, toWrite_ = allPictureLevels;
};

// The largest picture SharedImage can draw here: GL_MAX_TEXTURE_BUFFER_SIZE texels.
int64_t maxSharedImagePixels();

class InteropBackend {
 public:
  virtual ~InteropBackend() = default;
  virtual InteropPath path() const = 0;
  // A GL buffer of `bytes` that kernels can write; throws InteropError / ClError / GlError.
  virtual std::unique_ptr<SharedBuffer> createBuffer(size_t bytes) = 0;
  std::unique_ptr<SharedImage> createImage(int width, int height, TextureView view = TextureView::Smooth);
};

// Checks every path against the compute context's device and the current GL
// context (cheap checks first; the external path creates a Vulkan device).
std::vector<InteropPathStatus> probeInteropPaths(ComputeContext& compute);

// Creates the backend for `path`; throws InteropError with the reason when the
// path cannot be used here (never aborts: gl-sharing calls are made only on
// devices that list cl_khr_gl_sharing and share this GL context).
std::unique_ptr<InteropBackend> createInteropBackend(InteropPath path, ComputeContext& compute);

}  // namespace ks
