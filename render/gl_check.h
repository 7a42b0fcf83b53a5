#pragma once
// Every GL call that can fail is followed by glCheck("what"), which turns
// glGetError into an exception naming the call and the error.
#include <glad/gl.h>

#include <stdexcept>
#include <string>

namespace ks {

const char* glErrorName(GLenum error);

class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Drains the GL error queue; throws GlError if anything was set since the last check.
void glCheck(const char* what);

}  // namespace ks
