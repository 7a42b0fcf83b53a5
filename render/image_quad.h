#pragma once
// Draws a picture held in a buffer texture (GL_TEXTURE_BUFFER of RGBA8 texels,
// row after row: what kernels wrote) into a rectangle of the current framebuffer.
#include <glad/gl.h>

#include <functional>

#include "render/gl_objects.h"

namespace ks {

struct PictureRect {
  float x, y, w, h;  // pixels, origin top-left of a viewport of viewportW x viewportH
  int viewportW, viewportH;
};

// Draws `program`'s quad (shaders/picture.vert: its `rect` uniform at
// `rectLocation`) over `rect`, with `bufferTexture` bound as the GL_TEXTURE_BUFFER of
// unit 0; `uniforms` sets the fragment shader's own while the program is in use.
// Leaves no program, vertex array or texture bound.
void drawBufferTextureQuad(const ShaderProgram& program, const VertexArray& vao, GLint rectLocation,
                           GLuint bufferTexture, const PictureRect& rect, const std::function<void()>& uniforms,
                           const char* what);

class ImageQuad {
 public:
  ImageQuad();
  // `levels`: how many levels the buffer holds, each half the one before and
  // stored after it (1: level 0 only). smooth: bilinear where magnified (else
  // nearest texels); shrunk pictures are drawn from the level that fits, box-
  // filtered. Blending is left as the caller set it.
  void draw(GLuint bufferTexture, int pictureW, int pictureH, int levels, bool smooth, const PictureRect& rect) const;

 private:
  ShaderProgram program_;
  VertexArray vao_;
  GLint rectLocation_ = -1, pixelsLocation_ = -1, sizeLocation_ = -1, levelsLocation_ = -1, smoothLocation_ = -1;
};

}  // namespace ks
