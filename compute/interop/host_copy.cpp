// Host path: kernels write an ordinary cl_mem; releasing it enqueues a
// non-blocking read of the cl_mem into host memory GL draws from, and GL draws it
// once that read is complete (ready). Works everywhere, costs a trip over the bus,
// and the frame never waits for it. Where GL offers ARB_buffer_storage the buffer is
// host memory mapped for good (persistent, coherent): the read lands where GL reads,
// and nothing is copied again. Elsewhere the buffer is mapped for each read and
// unmapped once it is done (the driver copies it then). GL never draws a buffer
// while a read writes it: SharedBufferPair has it draw the other one meanwhile.
#include <CL/cl.h>

#include <chrono>

#include "compute/compute_context.h"
#include "compute/interop/backends.h"
#include "render/gl_check.h"

namespace ks {
namespace {

class HostSharedBuffer final : public SharedBuffer {
 public:
  HostSharedBuffer(ComputeContext& compute, size_t bytes) : persistent_(GLAD_GL_ARB_buffer_storage != 0) {
    bytes_ = bytes;
    // A persistent mapping is what GL draws: a read may start only after the draws
    // that used it. A mapping per read orphans what GL draws: no wait needed.
    waitsForGlDraws_ = persistent_;
    cl_int status = CL_SUCCESS;
    clMem_ = MemHandle(clCreateBuffer(compute.context(), CL_MEM_READ_WRITE, bytes, nullptr, &status));
    clCheck(status, "clCreateBuffer (host interop)");
    glGenBuffers(1, &glBuffer_);
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
    constexpr GLbitfield kPersistent = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    if (persistent_) {
      glBufferStorage(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, kPersistent | GL_CLIENT_STORAGE_BIT);
      mapping_ = glMapBufferRange(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), kPersistent);
    } else {
      glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
    }
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    try {
      glCheck(persistent_ ? "glBufferStorage + persistent glMapBufferRange (host interop)" : "glBufferData (host interop)");
      if (persistent_ && !mapping_) throw InteropError("glMapBufferRange (persistent, host interop) returned no pointer");
    } catch (...) {
      glDeleteBuffers(1, &glBuffer_);
      throw;
    }
  }
  ~HostSharedBuffer() override {
    waitUntilIdle();  // a read in flight writes into the mapping
    if (mapping_) {
      glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
      glUnmapBuffer(GL_ARRAY_BUFFER);
      glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    glDeleteBuffers(1, &glBuffer_);
  }

 private:
  void enqueueAcquire(Queue&) override {}
  void enqueueRelease(Queue& queue, Event& done) override {
    if (!mapping_) {
      glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
      mapping_ = glMapBufferRange(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes_),
                                  GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
      glBindBuffer(GL_ARRAY_BUFFER, 0);
      if (!mapping_) {
        glCheck("glMapBufferRange (host interop)");
        throw InteropError("glMapBufferRange returned no pointer");
      }
    }
    // A release before the last one was seen ready reads into the same mapping.
    clCheck(clEnqueueReadBuffer(queue.get(), clMem_.get(), CL_FALSE, 0, bytes_, mapping_, 0, nullptr, done.out()),
            "clEnqueueReadBuffer (host interop)");
  }
  void finishRelease() override {
    if (persistent_ || !mapping_) return;  // coherent: GL sees the bytes as they are
    mapping_ = nullptr;
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
    const GLboolean intact = glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glCheck("glUnmapBuffer (host interop)");
    if (!intact) throw InteropError("GL buffer contents were lost while mapped (glUnmapBuffer returned false)");
  }

  const bool persistent_;
  void* mapping_ = nullptr;  // persistent: for the buffer's life; else while a read runs
};

}  // namespace

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<InteropBackend> createHostBackend(ComputeContext& compute) {
  return std::make_unique<BufferMakingBackend<HostSharedBuffer, InteropPath::Host>>(compute);
}

}  // namespace ks
