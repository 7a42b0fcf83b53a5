// Kept apart from every file that includes glad: GLFW's native header pulls in
// the system's GL/glx.h.
#define GLFW_EXPOSE_NATIVE_X11
#define GLFW_EXPOSE_NATIVE_GLX
#include <GLFW/glfw3.h>
#include <GLFW/glfw3native.h>

#include "app/render_surface.h"

namespace ks {

GlContextHandles glfwNativeGlHandles(GLFWwindow* window) {
  GlContextHandles handles;
  GLXContext context = glfwGetGLXContext(window);
  if (context == nullptr) return handles;  // not a GLX context (e.g. EGL under Wayland): no sharing probe
  handles.api = GlContextHandles::Api::Glx;
  handles.context = context;
  handles.display = glfwGetX11Display();
  return handles;
}

}  // namespace ks
