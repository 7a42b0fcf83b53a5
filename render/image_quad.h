#pragma once
// Draws an RGBA texture into a rectangle of the current framebuffer.
#include <glad/gl.h>

#include "render/gl_objects.h"

namespace ks {

class ImageQuad {
 public:
  ImageQuad();
  // Rectangle in pixels of a viewport of size (viewportW, viewportH), origin top-left.
  void draw(GLuint texture, float x, float y, float w, float h, int viewportW, int viewportH) const;

 private:
  ShaderProgram program_;
  VertexArray vao_;
  GLint rectLocation_ = -1;
  GLint imageLocation_ = -1;
};

}  // namespace ks
