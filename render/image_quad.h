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

// How a picture drawn over a rectangle is sampled: the same for every fragment of
// an axis-aligned rectangle, so chosen once per draw. The level whose texels are
// about a fragment (what a mipmap's LOD picks); nearest or bilinear where a texel
// covers a fragment or more, else the mean of up to 16 x 16 samples under it.
struct PictureFilter {
  enum Mode { Nearest = 0, Bilinear = 1, Box = 2 };
  int level = 0;
  int levelWidth = 1, levelHeight = 1;
  long long levelOffset = 0;  // texels before the level in the buffer
  Mode mode = Nearest;
  int samplesX = 1, samplesY = 1;          // Box
  float boxWidth = 1.0f, boxHeight = 1.0f;  // Box: the fragment's footprint in the level's texels
};
// `drawnWidth` x `drawnHeight`: the rectangle in framebuffer pixels.
PictureFilter choosePictureFilter(int pictureW, int pictureH, int levels, bool smooth, double drawnWidth,
                                  double drawnHeight);

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
  GLint rectLocation_ = -1, pixelsLocation_ = -1, levelSizeLocation_ = -1, levelOffsetLocation_ = -1,
        filterModeLocation_ = -1, boxSamplesLocation_ = -1, boxSizeLocation_ = -1;
};

}  // namespace ks
