#include "render/gl_check.h"

namespace ks {

const char* glErrorName(GLenum error) {
  switch (error) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "GL_UNKNOWN_ERROR";
  }
}

void glCheck(const char* what) {
  std::string errors;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    if (!errors.empty()) errors += ", ";
    errors += glErrorName(e);
    if (errors.size() > 200) break;  // a lost context can report forever
  }
  if (!errors.empty()) throw GlError(std::string(what) + " failed: " + errors);
}

}  // namespace ks
