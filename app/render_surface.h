#pragma once
// Where frames go: a GLFW window, or an offscreen framebuffer in a headless EGL
// context. The frame loop is the same for both.
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>
#include <string>

#include "app/cli.h"
#include "compute/gl_share_probe.h"
#include "core/error.h"
#include "render/screenshot.h"

struct GLFWwindow;

namespace ks {

struct SurfaceSize {
  int width = 0, height = 0;
};

class GraphicsError : public Error {
 public:
  // No window or GL context: exit code 5 (--help).
  explicit GraphicsError(const std::string& message, ErrorDetails details = {})
      : Error(message, kExitGraphicsFailed, std::move(details)) {}
};

class RenderSurface {
 public:
  virtual ~RenderSurface() = default;
  // True once after the window's close button was pressed; the window stays open (the
  // app asks first when recorded runs would be lost). Never true without a window.
  virtual bool takeCloseRequest() { return false; }
  virtual void pollEvents() = 0;
  virtual SurfaceSize framebufferSize() const = 0;
  virtual SurfaceSize windowSize() const = 0;
  virtual void bindDrawTarget() = 0;  // framebuffer and viewport for this frame
  virtual RgbaImage capture() = 0;    // the frame drawn so far, before present()
  virtual void present() = 0;
  virtual void setVsync(bool on) = 0;
  virtual void toggleFullscreen() {}
  // Takes the window off the screen at once (quitting: the user sees it go while the
  // app writes its files); nothing without a window.
  virtual void hide() {}
  // Paths of files dropped on the window, delivered from pollEvents().
  virtual void setDropHandler(std::function<void(std::vector<std::string>)> handler) { (void)handler; }
  virtual GlContextHandles glHandles() const = 0;
  virtual GLFWwindow* window() const { return nullptr; }
  // GLFW key codes pressed since the last call, in order (none without a window).
  virtual std::vector<int> takePressedKeys() { return {}; }
  // The window's icon from PNG files (sizes the window system picks from); what
  // went wrong, or "" (also without a window, which has no icon).
  virtual std::string setIcon(const std::vector<std::filesystem::path>& pngFiles) {
    (void)pngFiles;
    return "";
  }
  bool headless() const { return window() == nullptr; }
  // "X11 window (GLX)" / "EGL device platform, device 0 (EGL 1.5)"
  const std::string& description() const { return description_; }

 protected:
  std::string description_;
};

// Both throw GraphicsError with the reason when no OpenGL 3.3 core context can be made.
std::unique_ptr<RenderSurface> createWindowSurface(int width, int height, bool vsync);
std::unique_ptr<RenderSurface> createHeadlessSurface(int width, int height);

// Native handles of a GLFW window's GLX context (separate file: X11 headers).
GlContextHandles glfwNativeGlHandles(GLFWwindow* window);

}  // namespace ks
