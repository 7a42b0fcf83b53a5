#include <glad/gl.h>
// glad first: GLFW is built with GLFW_INCLUDE_NONE and must not pull in GL headers.
#include <GLFW/glfw3.h>

#include "app/render_surface.h"

#include <utility>
#include "io/image_file.h"
#include "render/gl_check.h"

namespace ks {
namespace {

// An icon is a few kilobytes; anything bigger is not one.
const ImageLimits kIconLimits{256, 256u * 256u * 4u};

// GLFW takes icons as 8-bit RGBA; a gray picture becomes opaque gray.
HostImage toRgba(HostImage image) {
  if (image.channels == 4) return image;
  std::vector<uint8_t> rgba;
  rgba.reserve(image.pixels.size() * 4);
  for (uint8_t v : image.pixels) rgba.insert(rgba.end(), {v, v, v, 255});
  image.pixels = std::move(rgba);
  image.channels = 4;
  return image;
}

std::string g_lastGlfwError;
void rememberGlfwError(int code, const char* text) {
  g_lastGlfwError = "GLFW error " + std::to_string(code) + ": " + (text ? text : "");
}

class WindowSurface final : public RenderSurface {
 public:
  WindowSurface(int width, int height, bool vsync) {
    glfwSetErrorCallback(rememberGlfwError);
    if (!glfwInit()) throw GraphicsError("cannot open a window: " + g_lastGlfwError);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // 4.3 where the driver has it (compute shaders draw the particles there: render/particle_splat),
    // else the 3.3 everything else needs.
    const int versions[][2] = {{4, 3}, {3, 3}};
    for (const auto& version : versions) {
      glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, version[0]);
      glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, version[1]);
      window_ = glfwCreateWindow(width, height, "kernelscope", nullptr, nullptr);
      if (window_) break;
    }
    if (!window_) {
      const std::string why = g_lastGlfwError;
      glfwTerminate();
      throw GraphicsError("cannot create an OpenGL 3.3 core window: " + why);
    }
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
      glfwDestroyWindow(window_);
      glfwTerminate();
      throw GraphicsError("cannot load OpenGL functions for the window's context");
    }
    setVsync(vsync);
    // Key presses are kept for the shortcuts: a tap shorter than a frame comes and
    // goes between two of ImGui 1.86's polls of its key state and would be lost.
    // Installed before ImGui's backend, which calls it after its own.
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
      auto* self = static_cast<WindowSurface*>(glfwGetWindowUserPointer(w));
      if (self && action == GLFW_PRESS && key >= 0) self->pressedKeys_.push_back(key);
    });
    description_ = "window (GLX)";
    if (glfwNativeGlHandles(window_).api == GlContextHandles::Api::NoGl) description_ = "window";
  }
  ~WindowSurface() override {
    glfwDestroyWindow(window_);
    glfwTerminate();
  }
  // GLFW sets its flag when the close button is pressed; it is cleared so that the
  // window stays open while the app asks whether to quit.
  bool takeCloseRequest() override {
    if (!glfwWindowShouldClose(window_)) return false;
    glfwSetWindowShouldClose(window_, GLFW_FALSE);
    return true;
  }
  void pollEvents() override { glfwPollEvents(); }
  void hide() override { glfwHideWindow(window_); }
  SurfaceSize framebufferSize() const override {
    SurfaceSize s;
    glfwGetFramebufferSize(window_, &s.width, &s.height);
    return s;
  }
  SurfaceSize windowSize() const override {
    SurfaceSize s;
    glfwGetWindowSize(window_, &s.width, &s.height);
    return s;
  }
  void bindDrawTarget() override {
    const SurfaceSize s = framebufferSize();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, s.width, s.height);
  }
  RgbaImage capture() override {
    const SurfaceSize s = framebufferSize();
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    return readFramebuffer(s.width, s.height);
  }
  void present() override { glfwSwapBuffers(window_); }
  void setVsync(bool on) override { glfwSwapInterval(on ? 1 : 0); }
  std::string setIcon(const std::vector<std::filesystem::path>& pngFiles) override {
    std::vector<HostImage> pictures;
    for (const auto& file : pngFiles) {
      Result<HostImage> picture = readImageFile(file, kIconLimits);
      if (!picture) return std::string("window icon: ") + picture.error().what();
      pictures.push_back(toRgba(std::move(picture).value()));
    }
    std::vector<GLFWimage> images;
    for (auto& p : pictures) images.push_back(GLFWimage{p.width, p.height, p.pixels.data()});
    g_lastGlfwError.clear();
    glfwSetWindowIcon(window_, static_cast<int>(images.size()), images.data());
    return g_lastGlfwError.empty() ? "" : "window icon: " + g_lastGlfwError;
  }
  void toggleFullscreen() override {
    if (glfwGetWindowMonitor(window_)) {
      glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], GLFW_DONT_CARE);
      return;
    }
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (!mode) return;  // no monitor to go fullscreen on (e.g. some virtual displays)
    glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  }
  GlContextHandles glHandles() const override { return glfwNativeGlHandles(window_); }
  GLFWwindow* window() const override { return window_; }
  std::vector<int> takePressedKeys() override { return std::exchange(pressedKeys_, {}); }
  void setDropHandler(std::function<void(std::vector<std::string>)> handler) override {
    dropHandler_ = std::move(handler);
    // ImGui's GLFW backend leaves the drop callback and the user pointer alone.
    glfwSetWindowUserPointer(window_, this);
    glfwSetDropCallback(window_, [](GLFWwindow* w, int count, const char** paths) {
      auto* self = static_cast<WindowSurface*>(glfwGetWindowUserPointer(w));
      if (self && self->dropHandler_) self->dropHandler_(std::vector<std::string>(paths, paths + count));
    });
  }

 private:
  GLFWwindow* window_ = nullptr;
  int windowed_[4] = {0, 0, 1280, 800};  // position and size to return to from fullscreen
  std::function<void(std::vector<std::string>)> dropHandler_;
  std::vector<int> pressedKeys_;  // GLFW key codes pressed since the last take
};

}  // namespace

std::unique_ptr<RenderSurface> createWindowSurface(int width, int height, bool vsync) {
  return std::make_unique<WindowSurface>(width, height, vsync);
}

}  // namespace ks
