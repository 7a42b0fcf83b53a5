#include "render/egl_headless.h"
// egl first, then GL
#include <glad/gl.h>

#include "app/render_surface.h"
#include "render/gl_check.h"
#include "render/gl_objects.h"

namespace ks {
namespace {

class HeadlessSurface final : public RenderSurface {
 public:
  HeadlessSurface(int width, int height) try : egl_(), framebuffer_(width, height) {
    description_ = "headless, " + egl_.description();
  } catch (const EglError& e) {
    throw GraphicsError(e.what());
  } catch (const GlError& e) {
    throw GraphicsError(std::string("headless rendering setup failed: ") + e.what());
  }

  void pollEvents() override {}
  SurfaceSize framebufferSize() const override { return {framebuffer_.width(), framebuffer_.height()}; }
  SurfaceSize windowSize() const override { return framebufferSize(); }
  void bindDrawTarget() override {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
    glViewport(0, 0, framebuffer_.width(), framebuffer_.height());
  }
  RgbaImage capture() override {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer_.get());
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    return readFramebuffer(framebuffer_.width(), framebuffer_.height());
  }
  void present() override {
    // Nothing to show. Like a window's swap chain of two buffers, one frame may be
    // in flight on the GPU while the CPU prepares the next: wait for the frame
    // before this one, not for this one (no unbounded queue, no lock-step either).
    GLsync frame = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();
    if (previousFrame_) {
      glClientWaitSync(previousFrame_, GL_SYNC_FLUSH_COMMANDS_BIT, 10'000'000'000ull);
      glDeleteSync(previousFrame_);
    }
    previousFrame_ = frame;
  }
  ~HeadlessSurface() override {
    if (previousFrame_) glDeleteSync(previousFrame_);
  }
  void setVsync(bool) override {}
  GlContextHandles glHandles() const override {
    return {GlContextHandles::Api::Egl, egl_.context(), egl_.display()};
  }

 private:
  EglHeadlessContext egl_;  // declared first: the framebuffer needs its context
  Framebuffer framebuffer_;
  GLsync previousFrame_ = nullptr;  // the last presented frame's GL commands
};

}  // namespace

std::unique_ptr<RenderSurface> createHeadlessSurface(int width, int height) {
  return std::make_unique<HeadlessSurface>(width, height);
}

}  // namespace ks
