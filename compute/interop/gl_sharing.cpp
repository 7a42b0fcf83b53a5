// cl_khr_gl_sharing path: the CL context was created against the GL context, so
// a GL buffer is wrapped as a cl_mem and handed back and forth each frame.
// Ordering without glFinish/clFinish, as the extension spec allows: before the
// acquire the CPU has seen a fence after every GL command that used the buffer
// complete; GL draws it only once the release's event is complete (SharedBuffer).
#include <CL/cl_gl.h>

#include "compute/compute_context.h"
#include "compute/interop/backends.h"
#include "render/gl_check.h"

namespace ks {
namespace {

class GlSharedBuffer final : public SharedBuffer {
 public:
  GlSharedBuffer(ComputeContext& compute, size_t bytes) {
    bytes_ = bytes;
    glGenBuffers(1, &glBuffer_);
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    try {
      glCheck("glBufferData (gl-sharing)");
      glFinish();  // the buffer must exist on the GL side before CL wraps it
      cl_int status = CL_SUCCESS;
      clMem_ = MemHandle(clCreateFromGLBuffer(compute.context(), CL_MEM_READ_WRITE, glBuffer_, &status));
      clCheck(status, "clCreateFromGLBuffer");
    } catch (...) {
      glDeleteBuffers(1, &glBuffer_);
      throw;
    }
  }
  ~GlSharedBuffer() override {
    waitUntilIdle();
    clMem_ = MemHandle();  // the CL wrapper goes before the GL object it wraps
    glDeleteBuffers(1, &glBuffer_);
  }
  void enqueueAcquire(Queue& queue) override {
    cl_mem mem = clMem_.get();
    clCheck(clEnqueueAcquireGLObjects(queue.get(), 1, &mem, 0, nullptr, nullptr), "clEnqueueAcquireGLObjects");
  }
  void enqueueRelease(Queue& queue, Event& done) override {
    cl_mem mem = clMem_.get();
    clCheck(clEnqueueReleaseGLObjects(queue.get(), 1, &mem, 0, nullptr, done.out()), "clEnqueueReleaseGLObjects");
  }
};

}  // namespace

InteropPathStatus probeGlSharingPath(const ComputeContext& compute) {
  const DeviceDescriptor& d = compute.device();
  if (!d.hasGlSharing()) return {InteropPath::GlSharing, false, "the device does not list cl_khr_gl_sharing"};
  if (!d.sharesCurrentGlContext)
    return {InteropPath::GlSharing, false,
            "cl_khr_gl_sharing is listed, but the runtime does not offer this device for the current GL context"};
  if (!compute.sharesGl())
    return {InteropPath::GlSharing, false, "creating a GL-sharing CL context failed: " + compute.glSharingError(),
            true};
  return {InteropPath::GlSharing, true, "CL context shares the GL context"};
}

std::unique_ptr<InteropBackend> createGlSharingBackend(ComputeContext& compute) {
  // Never call clCreateFromGLBuffer on a context that does not share GL: PoCL,
  // for one, accepts the properties and then aborts the process there.
  const InteropPathStatus status = probeGlSharingPath(compute);
  if (!status.available) throw InteropError("gl-sharing unavailable: " + status.reason);
  return std::make_unique<BufferMakingBackend<GlSharedBuffer, InteropPath::GlSharing>>(compute);
}

}  // namespace ks
