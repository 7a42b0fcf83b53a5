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

  bool closeRequested() const override { return false; }
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
    // Nothing to show; finishing keeps frame timing honest (no unbounded queue).
    glFinish();
  }
  void setVsync(bool) override {}
  GlContextHandles glHandles() const override {
    return {GlContextHandles::Api::Egl, egl_.context(), egl_.display()};
  }

 private:
  EglHeadlessContext egl_;  // declared first: the framebuffer needs its context
  Framebuffer framebuffer_;
};

}  // namespace

std::unique_ptr<RenderSurface> createHeadlessSurface(int width, int height) {
  return std::make_unique<HeadlessSurface>(width, height);
}

}  // namespace ks
