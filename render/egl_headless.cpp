#include "render/egl_headless.h"

#include <glad/gl.h>

#include <cstring>
#include <vector>

namespace ks {

const char* eglErrorName(EGLint error) {
  switch (error) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return "EGL_UNKNOWN_ERROR";
  }
}

static bool hasToken(const char* list, const char* token) {
  if (!list) return false;
  const size_t n = std::strlen(token);
  for (const char* p = list; (p = std::strstr(p, token)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

// EGL 1.5's core entry point where present, else EGL_EXT_platform_base's.
static EGLDisplay platformDisplay(EGLenum platform, void* native) {
  if (glad_eglGetPlatformDisplay) return eglGetPlatformDisplay(platform, native, nullptr);
  if (glad_eglGetPlatformDisplayEXT) return eglGetPlatformDisplayEXT(platform, native, nullptr);
  return EGL_NO_DISPLAY;
}

bool EglHeadlessContext::tryDisplay(EGLDisplay display, const std::string& label, std::string& why) {
  if (display == EGL_NO_DISPLAY) {
    why += "\n  " + label + ": no display (" + eglErrorName(eglGetError()) + ")";
    return false;
  }
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) {
    why += "\n  " + label + ": eglInitialize failed (" + eglErrorName(eglGetError()) + ")";
    return false;
  }
  gladLoaderLoadEGL(display);  // now with the display's extensions
  const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
  if (!hasToken(extensions, "EGL_KHR_surfaceless_context")) {
    why += "\n  " + label + ": no EGL_KHR_surfaceless_context";
    eglTerminate(display);
    return false;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    why += "\n  " + label + ": eglBindAPI(EGL_OPENGL_API) failed (" + eglErrorName(eglGetError()) + ")";
    eglTerminate(display);
    return false;
  }
  // Surface type 0 matches every config: we draw into our own framebuffer object.
  const EGLint configAttribs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                                  EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, configAttribs, &config, 1, &count) || count == 0) {
    why += "\n  " + label + ": no OpenGL-capable EGLConfig";
    eglTerminate(display);
    return false;
  }
  // 4.3 where the driver has it (compute shaders draw the particles there: render/particle_splat),
  // else the 3.3 everything else needs. NVIDIA gives exactly the version asked for.
  EGLContext context = EGL_NO_CONTEXT;
  const EGLint versions[][2] = {{4, 3}, {3, 3}};
  for (const auto& version : versions) {
    const EGLint contextAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, version[0], EGL_CONTEXT_MINOR_VERSION, version[1],
                                     EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    context = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttribs);
    if (context != EGL_NO_CONTEXT) break;
  }
  if (context == EGL_NO_CONTEXT) {
    why += "\n  " + label + ": no OpenGL 3.3 core context (" + eglErrorName(eglGetError()) + ")";
    eglTerminate(display);
    return false;
  }
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    why += "\n  " + label + ": eglMakeCurrent failed (" + eglErrorName(eglGetError()) + ")";
    eglDestroyContext(display, context);
    eglTerminate(display);
    return false;
  }
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    why += "\n  " + label + ": loading OpenGL functions failed";
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, context);
    eglTerminate(display);
    return false;
  }
  display_ = display;
  context_ = context;
  description_ = label + " (EGL " + std::to_string(major) + "." + std::to_string(minor) + ")";
  return true;
}

EglHeadlessContext::EglHeadlessContext() {
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY))
    throw EglError("EGL is not available: libEGL.so.1 could not be loaded (install libegl1 and a driver)");
  const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  std::string why;

  // 1. Real GPUs through the device platform (what NVIDIA offers without X).
  if (hasToken(clientExtensions, "EGL_EXT_platform_device") && glad_eglQueryDevicesEXT) {
    EGLint count = 0;
    eglQueryDevicesEXT(0, nullptr, &count);
    std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
    if (count > 0 && eglQueryDevicesEXT(count, devices.data(), &count)) {
      for (EGLint i = 0; i < count; ++i) {
        const char* devExt = glad_eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS) : "";
        // Mesa lists its software rasteriser as a device too; surfaceless is the
        // documented way to reach it, so leave it for step 2.
        if (hasToken(devExt, "EGL_MESA_device_software")) continue;
        const std::string label = "EGL device platform, device " + std::to_string(i);
        if (tryDisplay(platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i]), label, why)) return;
      }
    } else {
      why += "\n  EGL device platform: no devices";
    }
  } else {
    why += "\n  EGL device platform: not offered by this EGL";
  }

  // 2. Mesa's surfaceless platform (llvmpipe, or any Mesa driver).
  if (hasToken(clientExtensions, "EGL_MESA_platform_surfaceless")) {
    if (tryDisplay(platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY),
                   "Mesa surfaceless platform", why))
      return;
  } else {
    why += "\n  Mesa surfaceless platform: not offered by this EGL";
  }
  throw EglError("could not create a headless OpenGL 3.3 core context through EGL:" + why);
}

EglHeadlessContext::~EglHeadlessContext() {
  if (display_ == EGL_NO_DISPLAY) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

}  // namespace ks
