#pragma once
// Kernel output on screen without the scenes knowing how: a SharedBuffer is a GL
// buffer object that kernels write through a cl_mem. "Acquire for compute,
// release for display" is the whole protocol; three paths implement it:
//   gl-sharing  cl_khr_gl_sharing: the CL context shares the GL context's objects
//   external    Vulkan-exported device memory imported by both GL and OpenCL
//   host        kernel output read back to the host and uploaded to GL
#include <glad/gl.h>
#include <CL/cl.h>

#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/interop/interop_path.h"

namespace ks {

class ComputeContext;

class InteropError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Wall-clock milliseconds of the last acquire / release / host copy, for the
// per-frame breakdown. Synchronisation (glFinish, clFinish) is counted in them.
struct InteropTimings {
  double acquireMs = 0.0, releaseMs = 0.0, copyMs = 0.0;
};

class SharedBuffer {
 public:
  virtual ~SharedBuffer() = default;
  size_t bytes() const { return bytes_; }
  GLuint glBuffer() const { return glBuffer_; }
  // The kernels' view. Use it only between acquireForCompute and releaseForDisplay.
  cl_mem clMem() const { return clMem_.get(); }
  // GL is done with the buffer; kernels may write it.
  virtual void acquireForCompute(Queue& queue) = 0;
  // Kernels are done; GL sees what they wrote once this returns.
  virtual void releaseForDisplay(Queue& queue) = 0;
  const InteropTimings& timings() const { return timings_; }

 protected:
  size_t bytes_ = 0;
  GLuint glBuffer_ = 0;  // owned by the subclass
  MemHandle clMem_;
  InteropTimings timings_;
};

// An RGBA8 texture whose pixels kernels write as a row-major uchar4 buffer. On
// release the buffer is copied into the texture on the GPU (a pixel-unpack copy),
// or uploaded from the host on the host path.
// How a texture is sampled when drawn larger or smaller than its pixels.
enum class TextureView {
  Smooth,  // linear both ways: a picture stretched to fit (the Julia pattern)
  Pixels,  // magnified: nearest (sharp pixels that line up with a pixel inspector);
           // minified: mipmaps rebuilt after each upload (no moire on big images)
};

class SharedTexture {
 public:
  SharedTexture(std::unique_ptr<SharedBuffer> pixels, int width, int height, TextureView view = TextureView::Smooth);
  ~SharedTexture();
  SharedTexture(const SharedTexture&) = delete;
  SharedTexture& operator=(const SharedTexture&) = delete;
  int width() const { return width_; }
  int height() const { return height_; }
  GLuint texture() const { return texture_; }
  SharedBuffer& pixels() { return *pixels_; }
  void acquireForCompute(Queue& queue) { pixels_->acquireForCompute(queue); }
  void releaseForDisplay(Queue& queue);
  const InteropTimings& timings() const { return timings_; }

 private:
  std::unique_ptr<SharedBuffer> pixels_;
  int width_, height_;
  TextureView view_;
  GLuint texture_ = 0;
  InteropTimings timings_;
};

class InteropBackend {
 public:
  virtual ~InteropBackend() = default;
  virtual InteropPath path() const = 0;
  // A GL buffer of `bytes` that kernels can write; throws InteropError / ClError / GlError.
  virtual std::unique_ptr<SharedBuffer> createBuffer(size_t bytes) = 0;
  std::unique_ptr<SharedTexture> createTexture(int width, int height, TextureView view = TextureView::Smooth);
};

// Checks every path against the compute context's device and the current GL
// context (cheap checks first; the external path creates a Vulkan device).
std::vector<InteropPathStatus> probeInteropPaths(ComputeContext& compute);

// Creates the backend for `path`; throws InteropError with the reason when the
// path cannot be used here (never aborts: gl-sharing calls are made only on
// devices that list cl_khr_gl_sharing and share this GL context).
std::unique_ptr<InteropBackend> createInteropBackend(InteropPath path, ComputeContext& compute);

}  // namespace ks
