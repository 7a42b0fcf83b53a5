// Host path: kernels write an ordinary cl_mem; on release its contents are read
// straight into the mapped GL buffer. Works everywhere, costs a trip over the bus.
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
  ~HostSharedBuffer() override { glDeleteBuffers(1, &glBuffer_); }

  void acquireForCompute(Queue&) override { timings_.acquireMs = 0.0; }

  void releaseForDisplay(Queue& queue) override {
    const auto start = std::chrono::steady_clock::now();
    glBindBuffer(GL_ARRAY_BUFFER, glBuffer_);
    void* dst = glMapBufferRange(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes_),
                                 GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (!dst) {
      glBindBuffer(GL_ARRAY_BUFFER, 0);
      glCheck("glMapBufferRange (host interop)");
      throw InteropError("glMapBufferRange returned no pointer");
    }
    cl_int status = clEnqueueReadBuffer(queue.get(), clMem_.get(), CL_TRUE, 0, bytes_, dst, 0, nullptr, nullptr);
    const GLboolean intact = glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    clCheck(status, "clEnqueueReadBuffer (host interop)");
    glCheck("glUnmapBuffer (host interop)");
    if (!intact) throw InteropError("GL buffer contents were lost while mapped (glUnmapBuffer returned false)");
    timings_.releaseMs = 0.0;
    timings_.copyMs = msSince(start);
  }
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
