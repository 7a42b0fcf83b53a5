// Host path: kernels write an ordinary cl_mem; releasing it maps the GL buffer
// for writing and enqueues a non-blocking read of the cl_mem into the mapping;
// once that read is complete (ready) the buffer is unmapped and GL has the bytes.
// Works everywhere, costs a trip over the bus both ways, and the frame never waits
// for the read. GL never draws a buffer while it is mapped: SharedBufferPair has
// it draw the other one meanwhile.
#include <CL/cl.h>

#include <chrono>

#include "compute/compute_context.h"
#include "compute/interop/backends.h"
#include "render/gl_check.h"

namespace ks {
namespace {

class HostSharedBuffer final : public SharedBuffer {
 public:
  HostSharedBuffer(ComputeContext& compute, size_t bytes) {
    bytes_ = bytes;
    waitsForGlDraws_ = false;  // the kernels write their own cl_mem; the mapping orphans what GL draws
    cl_int status = CL_SUCCESS;
    clMem_ = MemHandle(clCreateBuffer(compute.context(), CL_MEM_READ_WRITE, bytes, nullptr, &status));
    clCheck(status, "clCreateBuffer (host interop)");
    glGenBuffers(1, &glBuffer_);
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    try {
      glCheck("glBufferData (host interop)");
    } catch (...) {
      glDeleteBuffers(1, &glBuffer_);
      throw;
    }
  }
  ~HostSharedBuffer() override {
    waitUntilIdle();  // a read in flight writes into the mapping
    if (mapped_) {
      glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
      glUnmapBuffer(GL_ARRAY_BUFFER);
      glBindBuffer(GL_ARRAY_BUFFER, 0);
    }
    glDeleteBuffers(1, &glBuffer_);
  }

 private:
  void enqueueAcquire(Queue&) override {}
  void enqueueRelease(Queue& queue, Event& done) override {
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
    void* dst = mapped_ ? mapping_
                        : glMapBufferRange(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes_),
                                           GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (!dst) {
      glCheck("glMapBufferRange (host interop)");
      throw InteropError("glMapBufferRange returned no pointer");
    }
    mapped_ = true;  // a release before the last one was seen ready reads into the same mapping
    mapping_ = dst;
    clCheck(clEnqueueReadBuffer(queue.get(), clMem_.get(), CL_FALSE, 0, bytes_, dst, 0, nullptr, done.out()),
            "clEnqueueReadBuffer (host interop)");
  }
  void finishRelease() override {
    if (!mapped_) return;
    mapped_ = false;
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
    const GLboolean intact = glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glCheck("glUnmapBuffer (host interop)");
    if (!intact) throw InteropError("GL buffer contents were lost while mapped (glUnmapBuffer returned false)");
  }

  bool mapped_ = false;
  void* mapping_ = nullptr;
};

class HostBackend final : public InteropBackend {
 public:
  explicit HostBackend(ComputeContext& compute) : compute_(compute) {}
  InteropPath path() const override { return InteropPath::Host; }
  std::unique_ptr<SharedBuffer> createBuffer(size_t bytes) override {
    return std::make_unique<HostSharedBuffer>(compute_, bytes);
  }

 private:
  ComputeContext& compute_;
};

}  // namespace

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::unique_ptr<InteropBackend> createHostBackend(ComputeContext& compute) {
  return std::make_unique<HostBackend>(compute);
}

}  // namespace ks
