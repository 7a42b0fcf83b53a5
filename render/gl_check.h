#pragma once
// Every GL call that can fail is followed by glCheck("what"), which turns
// glGetError into an exception naming the call and the error.
#include <glad/gl.h>

#include <stdexcept>
#include <string>

#include "core/error.h"

namespace ks {

const char* glErrorName(GLenum error);

class GlError : public Error {
 public:
  using Error::Error;
};

// Drains the GL error queue; throws GlError if anything was set since the last check.
void glCheck(const char* what);

}  // namespace ks
